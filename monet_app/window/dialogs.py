"""The window's dialogs that call operations: settings, About, the topic-mixing check,
and the demo in its own process. Each is a function of the controller."""

from __future__ import annotations

import subprocess
import sys
from functools import partial

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication

from monet_app.operations import settings as settings_ops
from monet_app.operations.changes import EVERYTHING
from monet_app.services.version import monet_version
from monet_app.window.host import Host
from monet_app.window.run import describe, run_inline, run_op
from ui.items import SettingsValues
from ui.look import apply_palette


def open_settings(c: Host) -> None:
    """The settings dialog, once where the key comes from is known: the OS keyring is
    asked on a worker (it may load backends or wait on a locked keychain)."""
    from monet_app.services.keys import keyring_available, load_api_key

    def ask() -> tuple[str, bool]:
        return load_api_key()[1], keyring_available()

    def show(found: tuple[str, bool]) -> None:
        c.window.edit_settings(settings_ops.settings_values(c.core.settings), found[0],
                               partial(apply_settings, c), keyring=found[1])

    run_op(ask, show, c.show_problem, c.words.problem)


def apply_settings(c: Host, values: SettingsValues) -> str | None:
    """Validate, store and use new settings (refused mid-reply or mid-deletion by the
    gate). Returns a problem to show, or None."""
    old_theme = c.core.settings.theme
    done, problem = run_inline(partial(settings_ops.apply_settings, c.core, values),
                               c.words.problem)
    if done is None:
        return problem
    if c.core.settings.theme != old_theme:
        qapp = QApplication.instance()
        if isinstance(qapp, QApplication):
            apply_palette(qapp, c.core.settings.theme)
            c.window.restyle()
    c.nav.settings_changed()
    c.window.set_tabs(list(c.core.settings.tabs), c.nav.tab)
    c.window.compose.set_model(c.core.settings.model)
    c.librarian.start()  # the interval may have changed
    c.refresh(done.changes | EVERYTHING)
    c.key.offer()
    return None


def choose_model(c: Host, model: str) -> None:
    """The model picked beside the composer; refused (said, and the box put back) while
    a reply streams."""
    done, problem = run_inline(partial(settings_ops.choose_model, c.core, model),
                               c.words.problem)
    if done is None:
        c.show_problem(problem or "")
    else:
        c.refresh(done.changes, keep_place=True)
    c.window.compose.set_model(c.core.settings.model)


def show_about(c: Host) -> None:
    """About MONET: the installed version, the data folder, the schema revision."""
    revision, _problem = run_inline(c.core.db.schema_revision, c.words.problem)
    c.window.show_about(monet_version(), str(c.core.home), revision)


def check_mixing(c: Host) -> None:
    """Settings → Check topic mixing…: ``monet check-mixing`` in a dialog, the cost
    shown first (``monet_app/mixing``). A stand-in model (the demo) never spends: only
    the offline check is offered then."""
    from monet_app.mixing.check import WindowCheck
    from ui.mixing_dialog import MixingDialog

    check = WindowCheck(c.core.home, c.core.settings.model, c.key.has_key())
    parent = QApplication.activeModalWidget() or c.window
    dialog = MixingDialog(check.model, check.has_key, check.estimate, check.run,
                          check.last(), parent, describe=c.words.problem)
    dialog.exec()


def open_demo(c: Host) -> None:
    """The demo in its own process and window (``monet --demo``): a throwaway folder,
    so this window and its data folder are untouched."""
    # a frozen bundle (PyInstaller) is the monet command itself
    command = [sys.executable] if getattr(sys, "frozen", False) \
        else [sys.executable, "-m", "monet_app.cli"]
    try:
        subprocess.Popen([*command, "--demo"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    except OSError as exc:
        c.window.show_error(describe(exc, c.words.bug()), can_retry=False)
        return
    c.window.status_line.notify(QCoreApplication.translate("AppController",
                                               "Opening the demo in its own window…"))
