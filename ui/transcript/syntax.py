"""Syntax colouring of a message's code blocks, by Pygments' lexers.

A fenced block that names its language (```python) is lexed by that language's Pygments
lexer and each token coloured by its kind; a block without a language, or with one
Pygments does not know, stays plain (guessing a language is slow and often wrong on the
short snippets of a chat). The colours are a small set per kind, one for light code
backgrounds and one for dark ones, each at least 4.5:1 against its background
(``tests/test_window_daily_use.py`` checks them), so colouring never costs readability.

Pygments is imported with the first coloured block; ``warm()`` imports it (and the
lexers of the languages people paste most) on a worker after the window opens.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PySide6.QtGui import QColor, QTextBlock, QTextCharFormat, QTextCursor

#: Token kinds and their colours (light background, dark background).
PALETTE: dict[str, tuple[str, str]] = {
    "keyword": ("#a626a4", "#d19af2"),
    "string": ("#276613", "#98c379"),
    "comment": ("#5a5e66", "#9aa3ad"),
    "number": ("#964800", "#e5a46b"),
    "function": ("#1f5fbf", "#79b8ff"),
    "class": ("#8a5a00", "#e5c07b"),
    "builtin": ("#0a6475", "#56c8d8"),
    "tag": ("#c0262d", "#f28b82"),
}

#: Lexers imported ahead by ``warm`` (the languages most pasted into a chat).
COMMON = ("python", "javascript", "typescript", "bash", "json", "html", "css", "sql")


def warm() -> None:
    """Import Pygments and the common lexers (on a worker: ~50 ms of imports)."""
    for name in COMMON:
        _lexer(name)


@lru_cache(maxsize=64)
def _lexer(language: str) -> Any:
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        return get_lexer_by_name(language.strip().lower(), stripnl=False, ensurenl=False)
    except (ClassNotFound, ValueError):
        return None


def _kind(token: Any) -> str | None:
    from pygments import token as t

    if token in t.Comment:
        return "comment"
    if token in t.String:
        return "string"
    if token in t.Number:
        return "number"
    if token in t.Keyword or token in t.Operator.Word:
        return "keyword"
    if token in t.Name.Function or token in t.Name.Decorator:
        return "function"
    if token in t.Name.Class or token in t.Name.Namespace:
        return "class"
    if token in t.Name.Builtin or token in t.Name.Attribute:
        return "builtin"
    if token in t.Name.Tag:
        return "tag"
    return None


def colour_code(cursor: QTextCursor, lines: list[QTextBlock], language: str,
                dark: bool) -> int:
    """Colour one code block (its ``lines``, one text block each) as ``language``;
    returns how many tokens were coloured (0 for a language Pygments does not know)."""
    if not language or not lines:
        return 0
    lexer = _lexer(language)
    if lexer is None:
        return 0
    starts = [block.position() for block in lines]
    lengths = [len(block.text()) for block in lines]
    # (a block may hold several lines joined by U+2028: one character either way)
    text = "\n".join(block.text() for block in lines).replace("\u2028", "\n")
    formats: dict[str, QTextCharFormat] = {}
    coloured = 0
    line, line_start = 0, 0  # the line holding the offset, and its offset in ``text``
    for offset, token, value in lexer.get_tokens_unprocessed(text):
        kind = _kind(token)
        if kind is None or not value.strip():
            continue
        fmt = formats.get(kind)
        if fmt is None:
            fmt = formats[kind] = QTextCharFormat()
            fmt.setForeground(QColor(PALETTE[kind][1 if dark else 0]))
        end = offset + len(value)
        while line + 1 < len(lines) and offset >= line_start + lengths[line] + 1:
            line_start += lengths[line] + 1
            line += 1
        # a token may run over several lines (a docstring): colour it line by line
        at, row, row_start = offset, line, line_start
        while at < end and row < len(lines):
            stop = min(end, row_start + lengths[row])
            if stop > at:
                cursor.setPosition(starts[row] + at - row_start)
                cursor.setPosition(starts[row] + stop - row_start,
                                   QTextCursor.MoveMode.KeepAnchor)
                cursor.mergeCharFormat(fmt)
            row_start += lengths[row] + 1
            row += 1
            at = row_start
        coloured += 1
    return coloured
