"""Coloured lines of text above the composer and the transcript: a past day shown
read-only, an error with Retry, a notice with OK, an edit in progress."""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton


def banner(name: str, color: str) -> QLabel:
    """A coloured line of text (white on ``color``), named ``name`` for its style sheet."""
    label = QLabel()
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setStyleSheet(
        f"#{name} {{ background: {color}; color: white; padding: 6px; border-radius: 4px; }}"
    )
    return label


def banner_row(label: QLabel, button: QPushButton) -> QFrame:
    """A banner with its button at the end (an error and Retry, a notice and OK), hidden
    until shown."""
    row = QFrame()
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(label, 1)
    layout.addWidget(button)
    row.setVisible(False)
    return row
