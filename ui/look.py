"""Language, palette and icon: Qt translations following the system locale (or
MONET_LANG), a light or dark palette following the system's colour scheme, unless the
appearance setting (``theme``: "system" | "light" | "dark") or ``MONET_THEME=light|dark``
picks one, and the app's icon.

The compiled translation (``ui/i18n/monet_ja.qm``) and the icons (``ui/icons/``) are
package data of ``ui``: found beside this module in a checkout, an installed wheel and a
PyInstaller bundle alike (``pyproject.toml``, ``packaging/monet.spec``).

Precedence: ``MONET_THEME``, then the setting, then the system. Both palettes are explicit
(Fusion's default is not relied on) and readable: text on its background, highlighted
text on the highlight and placeholder text on a field all reach a contrast of 4.5:1.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QLibraryInfo, QLocale, Qt, QTranslator
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QPalette
from PySide6.QtWidgets import QApplication

#: The compiled translations (sources and how to rebuild them: ``assets/i18n/translate_ja.py``).
I18N = Path(__file__).resolve().parent / "i18n"
#: The app's icon, drawn from ``assets/icons/monet.svg`` by ``assets/icons/render_icons.py``.
ICONS = Path(__file__).resolve().parent / "icons"
ICON_SIZES = (16, 32, 48, 64, 128, 256, 512)

THEMES = ("system", "light", "dark")

_Role = QPalette.ColorRole

LIGHT: dict[QPalette.ColorRole, str] = {
    _Role.Window: "#f3f3f5",
    _Role.WindowText: "#1d1d1f",
    _Role.Base: "#ffffff",
    _Role.AlternateBase: "#eef1f5",
    _Role.Text: "#1d1d1f",
    _Role.Button: "#e8e8ec",
    _Role.ButtonText: "#1d1d1f",
    _Role.BrightText: "#ffffff",
    _Role.Highlight: "#1a5fb4",
    _Role.HighlightedText: "#ffffff",
    _Role.ToolTipBase: "#fffbe6",
    _Role.ToolTipText: "#1d1d1f",
    _Role.PlaceholderText: "#6b6b70",
    _Role.Link: "#0b57d0",
    _Role.LinkVisited: "#6a3ab2",
}

DARK: dict[QPalette.ColorRole, str] = {
    _Role.Window: "#202124",
    _Role.WindowText: "#e8eaed",
    _Role.Base: "#17181a",
    _Role.AlternateBase: "#2a2c30",
    _Role.Text: "#e8eaed",
    _Role.Button: "#2d2f33",
    _Role.ButtonText: "#e8eaed",
    _Role.BrightText: "#ffffff",
    _Role.Highlight: "#3d6fb6",
    _Role.HighlightedText: "#ffffff",
    _Role.ToolTipBase: "#2a2c30",
    _Role.ToolTipText: "#e8eaed",
    _Role.PlaceholderText: "#9aa0a6",
    _Role.Link: "#8ab4f8",
    _Role.LinkVisited: "#c58af9",
}

#: Disabled text: dimmer, still legible (about 3:1, as disabled controls may be).
_DISABLED = {"light": "#8a8a90", "dark": "#80868b"}


def ui_language() -> str:
    forced = os.environ.get("MONET_LANG", "").strip().lower()
    if forced in ("ja", "en"):
        return forced
    return "ja" if QLocale.system().language() == QLocale.Language.Japanese else "en"


def install_translator(app: QApplication) -> QTranslator | None:
    """MONET's Japanese, and Qt's own (the Yes / No / Save / Cancel of standard dialogs)
    from Qt's translations where the installed Qt carries them. Returns MONET's."""
    if ui_language() != "ja":
        return None
    qt_own = QTranslator(app)
    qt_path = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    if qt_own.load("qtbase_ja", qt_path):
        app.installTranslator(qt_own)
    translator = QTranslator(app)
    if translator.load(str(I18N / "monet_ja.qm")):
        app.installTranslator(translator)
        return translator
    return None


def app_icon() -> QIcon:
    """MONET's icon in every rendered size (PNG: no SVG plugin needed to show it)."""
    icon = QIcon()
    for size in ICON_SIZES:
        path = ICONS / f"monet-{size}.png"
        if path.is_file():
            icon.addFile(str(path))
    return icon


def _forced_theme() -> str | None:
    forced = os.environ.get("MONET_THEME", "").strip().lower()
    return forced if forced in ("dark", "light") else None


def system_is_dark() -> bool:
    """Whether the dark palette is wanted with the "system" theme (``MONET_THEME`` forces)."""
    forced = _forced_theme()
    if forced is not None:
        return forced == "dark"
    hints = QGuiApplication.styleHints()
    return bool(hints.colorScheme() == Qt.ColorScheme.Dark)


def resolved_theme(theme: str = "system") -> str:
    """ "light" or "dark": ``MONET_THEME``, else ``theme`` unless "system", else the system."""
    forced = _forced_theme()
    if forced is not None:
        return forced
    if theme in ("light", "dark"):
        return theme
    return "dark" if system_is_dark() else "light"


def palette_for(theme: str) -> QPalette:
    """The explicit palette of ``theme`` ("light" or "dark")."""
    name = "dark" if theme == "dark" else "light"
    colors = DARK if name == "dark" else LIGHT
    # Built from Button and Window, so Fusion's bevel shades (Light, Mid, Dark, Shadow)
    # match; then every role MONET's widgets read is set explicitly.
    p = QPalette(QColor(colors[_Role.Button]), QColor(colors[_Role.Window]))
    for role, color in colors.items():
        p.setColor(role, QColor(color))
    dim = QColor(_DISABLED[name])
    for role in (_Role.WindowText, _Role.Text, _Role.ButtonText, _Role.PlaceholderText):
        p.setColor(QPalette.ColorGroup.Disabled, role, dim)
    p.setColor(QPalette.ColorGroup.Disabled, _Role.Highlight, QColor(colors[_Role.Button]))
    return p


def _use(app: QApplication, theme: str) -> None:
    if app.style().name().lower() != "fusion":
        app.setStyle("Fusion")
    app.setPalette(palette_for(theme))


def apply_palette(app: QApplication, theme: str = "system") -> None:
    """Fusion with the light or dark palette: see ``resolved_theme`` for which."""
    _use(app, resolved_theme(theme))


def follow_system(app: QApplication, current_theme: Callable[[], str]) -> Callable[[], None]:
    """Follow the system's light/dark switch live while the setting says "system" (and
    ``MONET_THEME`` forces nothing). ``current_theme`` reads the setting at each switch.
    Returns a function that stops following."""
    hints = QGuiApplication.styleHints()

    def changed(scheme: Qt.ColorScheme) -> None:
        if _forced_theme() is None and current_theme() == "system":
            _use(app, "dark" if scheme == Qt.ColorScheme.Dark else "light")

    hints.colorSchemeChanged.connect(changed)

    def stop() -> None:
        hints.colorSchemeChanged.disconnect(changed)

    return stop


def problem_color(palette: QPalette) -> str:
    """A red for problem sentences that stays readable (4.5:1) on the window's colour."""
    return "#ff7b72" if palette.color(_Role.Window).lightness() < 128 else "#c0392b"
