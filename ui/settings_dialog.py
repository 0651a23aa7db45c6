"""Settings: API key (OS keyring, masked; kept for the session where no keyring exists),
model, tabs, ceiling, day boundary, librarian interval, the sunset-model flag and the
appearance. It edits values; the controller validates and saves."""

from __future__ import annotations

from PySide6.QtCore import QTime, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTimeEdit,
    QWidget,
)

from ui.items import SettingsValues
from ui.look import THEMES, problem_color

MODELS = ["claude-sonnet-4-6", "claude-sonnet-4-5", "claude-opus-4-8", "claude-haiku-4-5"]


def model_label(model: str) -> str:
    """A model's short name for the window ("claude-sonnet-4-6" -> "Sonnet 4.6"); a name
    in another form is shown as it is."""
    parts = model.split("-")
    if len(parts) >= 4 and parts[0] == "claude" and all(p.isdigit() for p in parts[2:4]):
        return f"{parts[1].capitalize()} {parts[2]}.{parts[3]}"
    return model


def tabs_to_text(tabs: tuple[tuple[str, str], ...]) -> str:
    return ", ".join(f"{tab_id}={label}" for tab_id, label in tabs)


def tabs_from_text(text: str) -> tuple[tuple[str, str], ...]:
    tabs = []
    for part in text.split(","):
        if not part.strip():
            continue
        tab_id, _, label = part.partition("=")
        tab_id = tab_id.strip()
        tabs.append((tab_id, label.strip() or tab_id))
    return tuple(tabs)


class SettingsDialog(QDialog):
    #: "Check topic mixing…" was pressed: the controller opens the check (ui/mixing_dialog.py).
    check_mixing_requested = Signal()

    def __init__(
        self, values: SettingsValues, key_source: str, parent: QWidget | None = None,
        *, keyring: bool = True,
    ) -> None:
        """``key_source``: where the key in use comes from ("environment", "keyring",
        "session" or "none"); ``keyring``: whether an OS keyring exists to save it in."""
        super().__init__(parent)
        self.setWindowTitle(self.tr("MONET settings"))
        self.setMinimumWidth(560)  # the tabs field shows all four tabs
        form = QFormLayout(self)
        self.api_key = QLineEdit()
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.api_key.setObjectName("apiKey")
        where = {
            "environment": self.tr("in use from ANTHROPIC_API_KEY"),
            "keyring": self.tr("stored in the OS keyring"),
            "session": self.tr("kept for this session only"),
            "none": self.tr("not set"),
        }.get(key_source, key_source)
        self.api_key.setPlaceholderText(self.tr("Anthropic API key ({where})").format(where=where))
        self.key_note = QLabel(self.tr(
            "No system keyring here: the key will be kept for this session only, until MONET "
            "quits."))
        self.key_note.setObjectName("keyNote")
        self.key_note.setWordWrap(True)
        self.model = QComboBox()
        self.model.setEditable(True)
        self.model.addItems(MODELS)
        self.model.setCurrentText(values.model)
        self.tabs = QLineEdit(tabs_to_text(values.tabs))
        self.ceiling = QSpinBox()
        self.ceiling.setRange(1000, 1_000_000)
        self.ceiling.setSingleStep(1000)
        self.ceiling.setValue(values.ceiling_tokens)
        self.day_start = QTimeEdit(QTime.fromString(values.day_start, "HH:mm"))
        self.day_start.setDisplayFormat("HH:mm")
        self.interval = QSpinBox()
        self.interval.setRange(1, 24 * 60)
        self.interval.setValue(values.librarian_interval_minutes)
        self.backup_keep = QSpinBox()
        self.backup_keep.setObjectName("backupKeep")
        self.backup_keep.setRange(0, 3650)
        self.backup_keep.setSpecialValueText(self.tr("none"))
        self.backup_keep.setValue(values.backup_keep)
        self.incognito = QLineEdit(", ".join(values.incognito_tabs))
        self.incognito.setPlaceholderText(self.tr("tab ids, e.g. social"))
        self.sunset = QCheckBox(self.tr("One conversation per day (sunset model)"))
        self.sunset.setObjectName("sunsetModel")
        self.sunset.setChecked(values.sunset_model)
        self.check_mixing = QPushButton(self.tr("Check topic mixing…"))
        self.check_mixing.setObjectName("checkMixing")
        self.check_mixing.setAutoDefault(False)
        self.check_mixing.setToolTip(self.tr(
            "Measure whether Claude keeps topics apart when every tab shares one stream, "
            "before turning the sunset model on"))
        self.check_mixing.clicked.connect(self.check_mixing_requested)
        sunset_row = QHBoxLayout()
        sunset_row.addWidget(self.sunset)
        sunset_row.addStretch(1)
        sunset_row.addWidget(self.check_mixing)
        self.theme = QComboBox()
        self.theme.setObjectName("theme")
        for theme, label in zip(
            THEMES, (self.tr("System"), self.tr("Light"), self.tr("Dark")), strict=True
        ):
            self.theme.addItem(label, theme)
        self.theme.setCurrentIndex(max(0, self.theme.findData(values.theme)))
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet(f"color: {problem_color(self.palette())};")
        form.addRow(self.tr("API key"), self.api_key)
        form.addRow(self.key_note)
        if key_source == "environment":  # (it goes before any key typed here)
            self.key_note.setText(self.tr(
                "The key in use comes from the ANTHROPIC_API_KEY variable, which goes before "
                "a key typed here."))
        form.setRowVisible(self.key_note, not keyring or key_source == "environment")
        form.addRow(self.tr("Model"), self.model)
        form.addRow(self.tr("Tabs (id=label, …)"), self.tabs)
        form.addRow(self.tr("Token ceiling"), self.ceiling)
        form.addRow(self.tr("Day starts at"), self.day_start)
        form.addRow(self.tr("Librarian every (minutes)"), self.interval)
        form.addRow(self.tr("Daily backups kept"), self.backup_keep)
        form.addRow(self.tr("Incognito tabs (no memories)"), self.incognito)
        form.addRow("", sunset_row)
        form.addRow(self.tr("Appearance"), self.theme)
        form.addRow(self.error)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def values(self) -> SettingsValues:
        return SettingsValues(
            api_key=self.api_key.text().strip(),
            model=self.model.currentText().strip(),
            tabs=tabs_from_text(self.tabs.text()),
            ceiling_tokens=self.ceiling.value(),
            day_start=self.day_start.time().toString("HH:mm"),
            librarian_interval_minutes=self.interval.value(),
            sunset_model=self.sunset.isChecked(),
            incognito_tabs=tuple(t.strip() for t in self.incognito.text().split(",") if t.strip()),
            theme=str(self.theme.currentData() or "system"),
            backup_keep=self.backup_keep.value(),
        )

    def show_problem(self, text: str) -> None:
        self.error.setText(text)
