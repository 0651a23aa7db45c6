"""The first run's box above the transcript: what to do without an API key, a field to
paste one (the OS keyring where there is one, else this session only, said plainly), and
the demo (issue 12, defect 11)."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)


class KeyBox(QFrame):
    """No key yet: what to do, a field to paste one (Enter saves), and the demo."""

    submitted = Signal(str)
    demo_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("keyBox")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.title = QLabel()
        self.title.setObjectName("keyTitle")
        self.title.setWordWrap(True)
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setOpenExternalLinks(True)
        self.field = QLineEdit()
        self.field.setObjectName("keyField")
        self.field.setEchoMode(QLineEdit.EchoMode.Password)
        self.field.setPlaceholderText(self.tr("Paste your Anthropic API key (sk-ant-…)"))
        self.save = QPushButton(self.tr("Use this key"))
        self.demo = QPushButton(self.tr("Try the demo"))
        self.demo.setToolTip(self.tr(
            "A sample history in its own window and throwaway folder; your data is not "
            "touched and nothing is sent anywhere."))
        self.where = QLabel()
        self.where.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(self.field, 1)
        row.addWidget(self.save)
        row.addWidget(self.demo)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.text)
        layout.addLayout(row)
        layout.addWidget(self.where)
        self.save.clicked.connect(self._submit)
        self.field.returnPressed.connect(self._submit)
        self.demo.clicked.connect(self.demo_requested)

    def _submit(self) -> None:
        key = self.field.text().strip()
        if key:
            self.submitted.emit(key)

    def show_for(self, first_run: bool, keyring: bool) -> None:
        self.title.setText(
            "<b>" + (self.tr("Welcome to MONET") if first_run else self.tr("No API key yet"))
            + "</b>")
        self.text.setText(self.tr(
            "MONET keeps one conversation per day with Claude. To get answers it needs an "
            "Anthropic API key (console.anthropic.com → API keys). Until then you can write, "
            "browse and search: everything you type is kept."))
        self.where.setText(
            self.tr("The key goes to the system keyring; it is never written to a file.")
            if keyring else self.tr(
                "No system keyring here: the key will be kept for this session only, until "
                "MONET quits. To keep it, set ANTHROPIC_API_KEY."))
        self.field.clear()
        self.setVisible(True)
