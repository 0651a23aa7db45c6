"""Language and palette: Qt translations following the system locale (or MONET_LANG),
and a dark palette when the system is dark."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QLocale, Qt, QTranslator
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

I18N = Path(__file__).resolve().parents[1] / "assets" / "i18n"


def ui_language() -> str:
    forced = os.environ.get("MONET_LANG", "").strip().lower()
    if forced in ("ja", "en"):
        return forced
    return "ja" if QLocale.system().language() == QLocale.Language.Japanese else "en"


def install_translator(app: QApplication) -> QTranslator | None:
    if ui_language() != "ja":
        return None
    translator = QTranslator(app)
    if translator.load(str(I18N / "monet_ja.qm")):
        app.installTranslator(translator)
        return translator
    return None


def system_is_dark() -> bool:
    forced = os.environ.get("MONET_THEME", "").strip().lower()
    if forced in ("dark", "light"):
        return forced == "dark"
    hints = QGuiApplication.styleHints()
    return bool(hints.colorScheme() == Qt.ColorScheme.Dark)


def apply_palette(app: QApplication) -> None:
    app.setStyle("Fusion")
    if not system_is_dark():
        return
    p = QPalette()
    colors = {
        QPalette.ColorRole.Window: "#202124",
        QPalette.ColorRole.WindowText: "#e8eaed",
        QPalette.ColorRole.Base: "#17181a",
        QPalette.ColorRole.AlternateBase: "#2a2c30",
        QPalette.ColorRole.Text: "#e8eaed",
        QPalette.ColorRole.Button: "#2d2f33",
        QPalette.ColorRole.ButtonText: "#e8eaed",
        QPalette.ColorRole.Highlight: "#3d6fb6",
        QPalette.ColorRole.HighlightedText: "#ffffff",
        QPalette.ColorRole.ToolTipBase: "#2a2c30",
        QPalette.ColorRole.ToolTipText: "#e8eaed",
        QPalette.ColorRole.PlaceholderText: "#9aa0a6",
        QPalette.ColorRole.Link: "#8ab4f8",
    }
    for role, color in colors.items():
        p.setColor(role, QColor(color))
    app.setPalette(p)
