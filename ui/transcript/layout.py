"""One row's layout: the metrics, what a laid-out message holds (its document, code blocks,
quote bars and the strip for its action buttons), the action buttons' labels and keys, and
the messages' fonts."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from PySide6.QtCore import QRectF
from PySide6.QtGui import QFont, QKeySequence, QTextDocument

from ui.items import MessageRow, ShownFile

_OUTER = 12  # the column's distance from the view's sides
_COLUMN = 880  # the widest the column of messages gets: lines stay readable when wide
_GAP = 5  # above and below each row's card
_CARD_X = 14  # text inset inside a card
_CARD_TOP = 9
_CARD_BOTTOM = 10
_HEAD_GAP = 5  # between the header and the body
_BUBBLE_X = 15  # text inset inside the person's bubble
_BUBBLE_Y = 10
_BUBBLE_SHARE = 0.8  # the bubble is at most this share of the column
_CARD_RADIUS = 12.0
_BUBBLE_RADIUS = 16.0
_CODE_RADIUS = 8.0
_CODE_HEAD = 30  # the strip with the language and Copy
_CODE_PAD = 12  # code inset inside its background
_CODE_SPACE = 8  # between a code block and the text around it
_QUOTE_INDENT = 18
_LINE_HEIGHT = 118.0  # per cent of the font's line spacing, outside code
_ACTION_HEIGHT = 24  # a message's action buttons: as tall as a code block's Copy
_ACTION_GAP = 3  # between the message and its buttons
_ACTION_BOTTOM = 4  # below the buttons, inside the card (their own padding adds to it)
_ACTION_PAD = 8  # a button's label inset
_ACTION_ICON = 12  # its icon's size, before the label
_ACTION_SPACING = 2  # between two buttons
_FILE_THUMB_W = 260  # a picture's thumbnail fits in this box
_FILE_THUMB_H = 150
_FILE_MIN = 40  # a tiny picture's tile is at least this big (it is centred in it)
_FILE_CHIP_W = 250  # a document's chip
_FILE_CHIP_H = 52
_FILE_GAP = 8  # between two files, and between the files and the words
_FILE_RADIUS = 10.0


@dataclass
class CodeBlock:
    """A code block of a laid-out message, in document coordinates."""

    rect: QRectF  # its background
    language: str
    code: str  # exactly what Copy puts on the clipboard
    copy: QRectF  # the Copy button


@dataclass
class FileTile:
    """Where one of a message's files is drawn (row coordinates)."""

    rect: QRectF
    number: int  # which of the row's files


@dataclass
class ActionButton:
    """One of a message's action buttons, in viewport coordinates."""

    name: str  # what ``message_action`` says ("copy", "regenerate"…)
    label: str  # what it shows (without its mnemonic's ``&``)
    rect: QRectF
    key: QKeySequence  # Alt and a letter, when the transcript has the focus


ActionProvider = Callable[[MessageRow], list[tuple[str, str]]]


def _no_actions(row: MessageRow) -> list[tuple[str, str]]:
    return []


_JAPANESE_MNEMONIC = re.compile(r"\s*\(&[^&)]\)")


def plain_label(label: str) -> str:
    """A label as shown: without its mnemonic (``&Copy``, ``コピー(&C)``); ``&&`` is ``&``."""
    label = _JAPANESE_MNEMONIC.sub("", label)
    return label.replace("&&", "\x00").replace("&", "").replace("\x00", "&")


def action_keys(actions: list[tuple[str, str]]) -> dict[str, QKeySequence]:
    """Alt and a letter for each action: the label's mnemonic (``&Copy``) when it has one,
    otherwise the first letter of the action's name not taken yet (copy C, edit E,
    regenerate R, continue O)."""
    keys: dict[str, QKeySequence] = {}
    taken: set[str] = set()
    for name, label in actions:
        found = re.search(r"&([^&\s])", label.replace("&&", ""))
        letter = found.group(1).upper() if found is not None else ""
        if not letter.isascii() or not letter.isalnum() or letter in taken:
            letter = next((c for c in name.upper() if c.isascii() and c.isalpha()
                           and c not in taken), "")
        if letter:
            taken.add(letter)
            keys[name] = QKeySequence(f"Alt+{letter}")
    return keys


@dataclass(frozen=True)
class _Fonts:
    body: QFont  # the messages' text
    name: QFont  # the speaker's name in the header
    header: QFont  # the rest of the header
    label: QFont  # a code block's language and Copy
    head_height: int
    copy_width: int


@dataclass
class RowLayout:
    """One message laid out at one width; rectangles are relative to the row's top left."""

    doc: QTextDocument
    height: int
    card: QRectF
    header: QRectF
    body: QRectF  # where the document is drawn (its size is the document's)
    bubble: QRectF | None
    codes: list[CodeBlock] = field(default_factory=list)
    quote_bars: list[QRectF] = field(default_factory=list)  # document coordinates
    actions: QRectF | None = None  # the strip for the action buttons, when it offers any
    files: list[FileTile] = field(default_factory=list)  # thumbnails and document chips



def file_tiles(files: tuple[ShownFile, ...], left: float, top: float, room: float,
               right_aligned: bool) -> tuple[list[FileTile], float]:
    """The files' tiles in lines ``room`` pixels wide from (``left``, ``top``): pictures
    as thumbnails of their shape (at most 260 x 150), documents as chips; right-aligned
    under the person's bubble side. Returns the tiles and the height they take."""
    sizes: list[tuple[float, float]] = []
    for file in files:
        if file.picture:
            w, h = float(file.width or _FILE_THUMB_H), float(file.height or _FILE_THUMB_H)
            scale = min(1.0, _FILE_THUMB_W / w, _FILE_THUMB_H / h)
            sizes.append((min(room, max(_FILE_MIN, round(w * scale))),
                          max(_FILE_MIN, round(h * scale))))
        else:
            sizes.append((min(room, _FILE_CHIP_W), _FILE_CHIP_H))
    lines: list[list[int]] = [[]]
    used = 0.0
    for number, (w, _h) in enumerate(sizes):
        if lines[-1] and used + _FILE_GAP + w > room:
            lines.append([])
            used = 0.0
        used += (_FILE_GAP if lines[-1] else 0) + w
        lines[-1].append(number)
    tiles: list[FileTile] = []
    y = top
    for line in lines:
        width: float = sum(sizes[n][0] for n in line) + _FILE_GAP * (len(line) - 1)
        x = left + (room - width if right_aligned else 0)
        height = max((sizes[n][1] for n in line), default=0)
        for number in line:
            w, h = sizes[number]
            tiles.append(FileTile(QRectF(x, y + height - h, w, h), number))
            x += w + _FILE_GAP
        y += height + _FILE_GAP
    return tiles, max(0.0, y - top - _FILE_GAP)


def _with_actions(laid: RowLayout) -> RowLayout:
    """``laid`` with the strip for action buttons under its text (the same document)."""
    content = laid.bubble if laid.bubble is not None else laid.body
    top = math.ceil(content.bottom()) + _ACTION_GAP
    height = top + _ACTION_HEIGHT + _ACTION_BOTTOM + _GAP
    card = QRectF(laid.card.left(), _GAP, laid.card.width(), height - 2 * _GAP)
    strip = QRectF(laid.header.left(), top, laid.header.width(), _ACTION_HEIGHT)
    return replace(laid, height=height, card=card, actions=strip)


def reading_font(font: QFont) -> QFont:
    """The messages' font: the view's, a step larger (a conversation reads a little larger
    than the window's chrome)."""
    body = QFont(font)
    if font.pointSizeF() > 0:
        body.setPointSizeF(round(font.pointSizeF() * 1.12 * 2) / 2)
    elif font.pixelSize() > 0:
        body.setPixelSize(round(font.pixelSize() * 1.12))
    return body


def _small(font: QFont, scale: float = 0.88) -> QFont:
    small = QFont(font)
    if font.pointSizeF() > 0:
        small.setPointSizeF(font.pointSizeF() * scale)
    elif font.pixelSize() > 0:
        small.setPixelSize(max(8, round(font.pixelSize() * scale)))
    return small
