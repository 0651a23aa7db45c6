"""Window parts on their own (pytest-qt, offscreen): the memory panel's undoable forget,
the light and dark palettes and the appearance setting, and an API key kept for the
session where no OS keyring exists."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QMessageBox

from cms.settings import Settings
from storage.errors import KeyStoreError, SettingsError
from ui.items import MemoryRow, SettingsValues

pytest.importorskip("pytestqt")


# ----- the memory panel ------------------------------------------------------------------
@dataclass
class Memories:
    """Stand-in for the controller's memory callbacks: a list, and the deletions asked."""

    rows: list[MemoryRow] = field(default_factory=lambda: [
        MemoryRow(1, "fact", "active", "my bike is green", "2026-03-01 chat"),
        MemoryRow(2, "preference", "active", "I like tea", "2026-03-01 chat"),
        MemoryRow(3, "fact", "active", "I live in Kyoto", "2026-03-02 work"),
    ])
    deleted: list[tuple[int, bool]] = field(default_factory=list)
    problem: str | None = None

    def load(self) -> list[MemoryRow]:
        return list(self.rows)

    def edit(self, item_id: int, text: str) -> str | None:
        self.rows = [replace(r, fact=text) if r.id == item_id else r for r in self.rows]
        return None

    def delete(self, item_id: int, delete_sources: bool) -> str | None:
        self.deleted.append((item_id, delete_sources))
        self.rows = [r for r in self.rows if r.id != item_id]
        return self.problem


@pytest.fixture
def panel(qtbot):
    from ui.memory_dialog import MemoryDialog

    def make(memories: Memories) -> MemoryDialog:
        dialog = MemoryDialog(memories.load, memories.edit, memories.delete)
        qtbot.addWidget(dialog)
        return dialog

    return make


def facts(dialog) -> list[str]:
    return [dialog.items.item(i).data(Qt.ItemDataRole.UserRole + 3).fact
            for i in range(dialog.items.count())]


def test_forget_takes_the_item_off_the_list_and_deletes_nothing_yet(qtbot, panel) -> None:
    m = Memories()
    dialog = panel(m)
    dialog.items.setCurrentRow(0)
    qtbot.mouseClick(dialog.delete_button, Qt.MouseButton.LeftButton)
    assert facts(dialog) == ["I like tea", "I live in Kyoto"]
    assert m.deleted == []
    assert not dialog.undo_bar.isHidden()
    assert dialog.undo_label.text() == "Forgotten: my bike is green"
    assert dialog.undo_timer.isActive()
    dialog.edit_selected("ignored")  # nothing selected after a forget: a no-op
    assert facts(dialog) == ["I like tea", "I live in Kyoto"]


def test_undo_puts_the_item_back_and_nothing_is_ever_deleted(qtbot, panel, monkeypatch) -> None:
    from ui import memory_dialog

    monkeypatch.setattr(memory_dialog, "UNDO_MS", 50)
    m = Memories()
    dialog = panel(m)
    dialog.items.setCurrentRow(1)
    dialog.delete_selected()
    assert facts(dialog) == ["my bike is green", "I live in Kyoto"]
    qtbot.mouseClick(dialog.undo_button, Qt.MouseButton.LeftButton)
    assert facts(dialog) == ["my bike is green", "I like tea", "I live in Kyoto"]
    assert dialog.selected() == m.rows[1]  # back where it was, selected
    # the timer is the only way to the deletion, and it is stopped: nothing can come
    assert dialog.undo_bar.isHidden() and not dialog.undo_timer.isActive()
    dialog.accept()
    assert m.deleted == []


def test_when_the_time_runs_out_the_deletion_is_carried_out_once(qtbot, panel, monkeypatch) -> None:
    from ui import memory_dialog

    monkeypatch.setattr(memory_dialog, "UNDO_MS", 50)
    m = Memories()
    dialog = panel(m)
    dialog.items.setCurrentRow(2)
    dialog.delete_selected(with_messages=True)
    assert dialog.undo_label.text() == "Forgotten, with its messages: I live in Kyoto"
    qtbot.waitUntil(lambda: m.deleted != [], timeout=2000)
    assert m.deleted == [(3, True)]
    assert dialog.undo_bar.isHidden()
    dialog.undo()  # too late: nothing to bring back
    dialog.reject()
    qtbot.waitUntil(lambda: m.deleted == [(3, True)], timeout=3000)
    assert facts(dialog) == ["my bike is green", "I like tea"]


@pytest.mark.parametrize("how", ["close", "accept", "reject", "close button"])
def test_closing_carries_out_a_waiting_deletion_once(qtbot, panel, how) -> None:
    m = Memories()
    dialog = panel(m)
    dialog.show()
    dialog.items.setCurrentRow(0)
    dialog.delete_selected()
    assert m.deleted == []
    if how == "close button":
        qtbot.mouseClick(dialog.close_button, Qt.MouseButton.LeftButton)
    else:
        getattr(dialog, how)()
    assert m.deleted == [(1, False)]
    assert not dialog.isVisible()
    dialog.close()
    assert m.deleted == [(1, False)]


def test_a_second_forget_carries_out_the_first(qtbot, panel) -> None:
    m = Memories()
    dialog = panel(m)
    dialog.items.setCurrentRow(0)
    dialog.delete_selected()
    dialog.items.setCurrentRow(0)  # now "I like tea"
    dialog.delete_selected()
    assert m.deleted == [(1, False)]
    assert facts(dialog) == ["I live in Kyoto"]
    assert dialog.undo_label.text() == "Forgotten: I like tea"
    dialog.undo()
    assert facts(dialog) == ["I like tea", "I live in Kyoto"]
    dialog.accept()
    assert m.deleted == [(1, False)]


def test_ctrl_z_undoes_while_the_bar_is_shown(qtbot, panel) -> None:
    m = Memories()
    dialog = panel(m)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow, timeout=3000)
    dialog.items.setFocus()
    dialog.items.setCurrentRow(0)
    dialog.delete_selected()
    assert len(facts(dialog)) == 2
    qtbot.keyClick(dialog.items, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert facts(dialog) == ["my bike is green", "I like tea", "I live in Kyoto"]
    assert dialog.undo_bar.isHidden()
    dialog.accept()
    assert m.deleted == []


def test_a_problem_on_closing_keeps_the_panel_open_to_say_it(qtbot, panel) -> None:
    m = Memories(problem="The database is read-only; nothing was forgotten.")
    dialog = panel(m)
    dialog.show()
    dialog.items.setCurrentRow(0)
    dialog.delete_selected()
    dialog.accept()
    assert m.deleted == [(1, False)]
    assert dialog.isVisible() and "read-only" in dialog.problem.text()
    dialog.accept()  # closing again closes
    assert not dialog.isVisible() and m.deleted == [(1, False)]


def test_forget_with_messages_still_asks_and_defaults_to_no(qtbot, panel) -> None:
    m = Memories()
    dialog = panel(m)
    dialog.show()
    dialog.items.setCurrentRow(0)

    def press_enter() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        qtbot.keyClick(box, Qt.Key.Key_Return)

    QTimer.singleShot(200, press_enter)
    qtbot.mouseClick(dialog.delete_all_button, Qt.MouseButton.LeftButton)
    assert len(facts(dialog)) == 3 and dialog.pending is None
    dialog.accept()
    assert m.deleted == []


# ----- palette and the appearance setting ------------------------------------------------
def contrast(a: QColor, b: QColor) -> float:
    def luminance(c: QColor) -> float:
        def channel(v: float) -> float:
            return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) \
            + 0.0722 * channel(c.blueF())

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.fixture
def app(monkeypatch) -> Iterator[QApplication]:
    monkeypatch.delenv("MONET_THEME", raising=False)
    qapp = QApplication.instance()
    assert isinstance(qapp, QApplication)
    original = qapp.palette()
    yield qapp
    qapp.setPalette(original)


def test_the_appearance_setting_refuses_other_values() -> None:
    with pytest.raises(SettingsError) as info:
        Settings(theme="purple")  # type: ignore[arg-type]
    assert "appearance must be system, light or dark" in str(info.value)
    assert "'purple'" in str(info.value)
    for theme in ("system", "light", "dark"):
        assert Settings(theme=theme).validated().theme == theme


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_both_palettes_are_explicit_and_readable(app, theme) -> None:
    from ui.look import apply_palette

    apply_palette(app, theme)
    p = app.palette()
    role = QPalette.ColorRole
    assert app.style().name().lower() == "fusion"
    assert (p.color(role.Window).lightness() < 60) == (theme == "dark")
    assert contrast(p.color(role.Text), p.color(role.Base)) >= 4.5
    assert contrast(p.color(role.WindowText), p.color(role.Window)) >= 4.5
    assert contrast(p.color(role.HighlightedText), p.color(role.Highlight)) >= 4.5
    assert contrast(p.color(role.PlaceholderText), p.color(role.Base)) >= 4.5
    assert p.color(role.AlternateBase) != p.color(role.Base)


def test_monet_theme_forces_over_the_setting_and_system_follows_the_scheme(app, monkeypatch) -> None:
    from ui.look import apply_palette, resolved_theme, system_is_dark

    monkeypatch.setenv("MONET_THEME", "dark")
    assert system_is_dark() and resolved_theme("light") == "dark"
    apply_palette(app, "light")
    assert app.palette().color(QPalette.ColorRole.Window).lightness() < 60
    monkeypatch.delenv("MONET_THEME")
    system = QGuiApplication.styleHints().colorScheme()
    assert resolved_theme("system") == ("dark" if system == Qt.ColorScheme.Dark else "light")
    assert resolved_theme("light") == "light" and resolved_theme("dark") == "dark"


def test_the_palette_follows_a_system_switch_only_when_the_setting_says_system(app) -> None:
    from ui.look import apply_palette, follow_system

    theme = ["system"]
    hints = QGuiApplication.styleHints()
    stop: Callable[[], None] = follow_system(app, lambda: theme[0])
    try:
        apply_palette(app, "light")
        hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
        assert app.palette().color(QPalette.ColorRole.Window).lightness() < 60
        hints.colorSchemeChanged.emit(Qt.ColorScheme.Light)
        assert app.palette().color(QPalette.ColorRole.Window).lightness() > 200
        theme[0] = "light"
        hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
        assert app.palette().color(QPalette.ColorRole.Window).lightness() > 200
    finally:
        stop()
    theme[0] = "system"
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)  # no longer followed
    assert app.palette().color(QPalette.ColorRole.Window).lightness() > 200


def values(**changes: object) -> SettingsValues:
    base = SettingsValues("", "claude-sonnet-4-6", (("chat", "Chat"),), 20_000, "04:00", 5, True)
    return replace(base, **changes)  # type: ignore[arg-type]


def test_the_settings_dialog_round_trips_the_appearance(qtbot) -> None:
    from ui.settings_dialog import SettingsDialog

    dialog = SettingsDialog(values(theme="dark"), "keyring")
    qtbot.addWidget(dialog)
    assert dialog.theme.currentText() == "Dark" and dialog.values().theme == "dark"
    assert [dialog.theme.itemText(i) for i in range(3)] == ["System", "Light", "Dark"]
    dialog.theme.setCurrentIndex(1)
    assert dialog.values().theme == "light"
    plain = SettingsDialog(values(), "none")
    qtbot.addWidget(plain)
    assert plain.values().theme == "system"


def test_the_appearance_is_stored_through_the_settings_operation(tmp_path: Path) -> None:
    from cms.clock import ManualClock, parse_ts
    from cms.settings import load_settings
    from monet_app.operations.settings import apply_settings, settings_values
    from monet_app.services.wiring import build_core, no_model

    core = build_core(tmp_path / "home", clock=ManualClock(parse_ts("2026-03-02T09:00:00+09:00")),
                      summarizer="offline", model_factory=no_model)
    try:
        assert settings_values(core.settings).theme == "system"
        assert apply_settings(core, replace(settings_values(core.settings), theme="dark")).value is None
        assert core.settings.theme == "dark"
        with core.db.session() as session:
            assert load_settings(session).theme == "dark"
        assert settings_values(core.settings).theme == "dark"
        with pytest.raises(SettingsError):
            apply_settings(core, replace(settings_values(core.settings), theme="purple"))
        assert core.settings.theme == "dark"
    finally:
        core.close()


# ----- the API key without a keyring -----------------------------------------------------
@pytest.fixture
def no_keyring(monkeypatch, tmp_path: Path) -> Iterator[None]:
    from monet_app.services import keys

    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setattr(keys, "_keyring", lambda: None)
    monkeypatch.setattr(keys, "_session_key", None)
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    yield
    assert list(cwd.iterdir()) == []  # never written to a file


def test_without_a_keyring_the_key_is_kept_for_the_session(no_keyring, monkeypatch) -> None:
    from monet_app.services import keys

    assert keys.load_api_key() == (None, "none")
    assert keys.store_api_key("  sk-ant-session-key-123456  ") == "session"
    assert keys.load_api_key() == ("sk-ant-session-key-123456", "session")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-env-key-abcdefgh")
    assert keys.load_api_key() == ("sk-ant-env-key-abcdefgh", "environment")  # env wins
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    keys.delete_api_key()
    assert keys.load_api_key() == (None, "none")


def test_a_command_line_store_without_a_keyring_is_refused(no_keyring) -> None:
    from monet_app.services import keys

    with pytest.raises(KeyStoreError) as info:
        keys.store_api_key("sk-ant-never-kept-1234", allow_session=False)
    assert "No OS keyring" in str(info.value)
    assert keys.load_api_key() == (None, "none")


def test_a_keyring_key_comes_before_the_session_key(monkeypatch) -> None:
    from monet_app.services import keys
    from tests.helpers import memory_keyring

    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setattr(keys, "_session_key", "sk-ant-old-session-key-1")
    with memory_keyring():
        assert keys.load_api_key() == ("sk-ant-old-session-key-1", "session")
        assert keys.store_api_key("sk-ant-ring-key-12345678") == "keyring"
        assert keys.load_api_key() == ("sk-ant-ring-key-12345678", "keyring")
        assert keys._session_key is None  # storing in the keyring drops the session copy


def test_the_settings_dialog_says_when_the_key_is_only_for_this_session(qtbot) -> None:
    from ui.settings_dialog import SettingsDialog

    bare = SettingsDialog(values(), "session", keyring=False)
    qtbot.addWidget(bare)
    bare.show()
    assert bare.key_note.isVisible()
    assert bare.key_note.text() == ("No system keyring here: the key will be kept for this "
                                    "session only, until MONET quits.")
    assert "kept for this session only" in bare.api_key.placeholderText()
    ringed = SettingsDialog(values(), "keyring")
    qtbot.addWidget(ringed)
    ringed.show()
    assert not ringed.key_note.isVisible()


def test_a_key_saved_in_settings_without_a_keyring_is_used_for_the_session(no_keyring, tmp_path: Path) -> None:
    from cms.clock import ManualClock, parse_ts
    from monet_app.operations.settings import apply_settings, settings_values
    from monet_app.services import keys
    from monet_app.services.wiring import build_core, no_model

    home = tmp_path / "home"
    core = build_core(home, clock=ManualClock(parse_ts("2026-03-02T09:00:00+09:00")),
                      summarizer="offline", model_factory=no_model)
    try:
        given = replace(settings_values(core.settings), api_key="sk-ant-typed-in-987654321")
        assert apply_settings(core, given).value == "session"
        assert keys.load_api_key() == ("sk-ant-typed-in-987654321", "session")
    finally:
        core.close()
    for path in home.rglob("*"):
        if path.is_file():
            assert b"sk-ant-typed-in" not in path.read_bytes(), path
