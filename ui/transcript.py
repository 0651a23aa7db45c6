"""The transcript: a ``QListView`` over a list model, painted by a delegate.

Each message is laid out once as a ``QTextDocument`` (Markdown and code rendered) and
cached per width, together with what the delegate draws around it (the person's bubble,
code block backgrounds with their language and Copy button, quote bars); the view paints
only the rows that are visible, so a day of thousands of messages scrolls smoothly. The
streaming reply is one more row whose text grows.

The person's messages sit in a tinted bubble on the right; Claude's are on the plain
background under a small coloured name, as in the chat apps people already know.

Selecting part of a message: pressing on a message lays a read-only ``QTextBrowser`` with
the same document exactly over the painted row (transparent, same width, so nothing
moves) and hands it the press, so the drag that started on the row selects text in it.
It closes when another row is chosen, on Esc, or when the focus leaves it. Ctrl+C copies
the selection there, or the whole message (its Markdown) in the view.

Acting on a message: the window says which actions a row offers (``set_action_provider``);
a row that offers any keeps a thin strip under its text, where small quiet buttons (Copy,
Regenerate…) appear while the mouse is over the row, or while it is the current row of the
focused transcript. The strip is always there, so hovering never changes a height. A click,
or Alt with the button's letter, emits ``message_action``; the window does the rest.
"""

from __future__ import annotations

import math
import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractListModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPoint,
    QPointF,
    QRect,
    QRectF,
    QSize,
    Qt,
    QTimer,
    QUrl,
    Signal,
)
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QContextMenuEvent,
    QCursor,
    QDesktopServices,
    QFont,
    QFontDatabase,
    QFontMetrics,
    QGuiApplication,
    QHelpEvent,
    QHideEvent,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPalette,
    QPen,
    QTextBlock,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
    QTextFrameFormat,
    QTextTable,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QFrame,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTextBrowser,
    QToolTip,
    QWidget,
)

from ui.items import MessageRow

_FENCE = ("```", "~~~")


def keep_line_breaks(text: str) -> str:
    """Markdown with every line break the writer typed kept: a single newline outside code
    blocks becomes a hard break (Markdown would join the two lines). Blank lines, code
    blocks and table rows are left as they are."""
    lines = text.split("\n")
    out: list[str] = []
    fenced = False
    for index, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith(_FENCE):
            fenced = not fenced
        following = lines[index + 1] if index + 1 < len(lines) else ""
        hard = (
            not fenced and stripped and following.strip()
            and not stripped.startswith(("|", "#")) and not stripped.startswith(_FENCE)
            and not following.strip().startswith(_FENCE)
            and not line.endswith(("  ", "\\"))
        )
        out.append(line + "  " if hard else line)
    return "\n".join(out)

ROW_ROLE = Qt.ItemDataRole.UserRole + 1
_Index = QModelIndex | QPersistentModelIndex


class TranscriptModel(QAbstractListModel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: list[MessageRow] = []

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or index.row() >= len(self.rows):
            return None
        row = self.rows[index.row()]
        if role == ROW_ROLE:
            return row
        if role == Qt.ItemDataRole.DisplayRole:
            return row.text
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{row.tab_label} {row.time}"
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        """Rows are "editable" only in the sense that the view may lay a read-only,
        selectable copy of the text over them; the growing reply is not."""
        if not index.isValid() or index.row() >= len(self.rows):
            return Qt.ItemFlag.NoItemFlags
        flags = Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled
        if not is_growing(self.rows[index.row()]):
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def set_rows(self, rows: list[MessageRow]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def append(self, row: MessageRow) -> None:
        self.beginInsertRows(QModelIndex(), len(self.rows), len(self.rows))
        self.rows.append(row)
        self.endInsertRows()

    def update_last_text(self, text: str, status: str = "streaming") -> None:
        if not self.rows:
            return
        self.rows[-1] = replace(self.rows[-1], text=text, status=status)
        index = self.index(len(self.rows) - 1)
        self.dataChanged.emit(index, index)

    def row_of_message(self, message_id: int) -> int:
        for i, row in enumerate(self.rows):
            if row.id >= message_id:
                return i
        return max(0, len(self.rows) - 1)


def is_growing(row: MessageRow) -> bool:
    """The reply still being written: its text changes, it is not selectable yet."""
    return row.id == 0 or row.status == "streaming"


# ----- colours ----------------------------------------------------------------------------

def mix(a: QColor, b: QColor, t: float) -> QColor:
    """``a`` moved a share ``t`` of the way to ``b`` (opaque, 8 bits a channel as painted)."""
    return QColor(
        round(a.red() + (b.red() - a.red()) * t),
        round(a.green() + (b.green() - a.green()) * t),
        round(a.blue() + (b.blue() - a.blue()) * t),
    )


def _luminance(color: QColor) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return (0.2126 * channel(color.redF()) + 0.7152 * channel(color.greenF())
            + 0.0722 * channel(color.blueF()))


def contrast_ratio(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio of two opaque colours (1 to 21; body text wants 4.5 or more)."""
    la, lb = _luminance(a), _luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


@dataclass(frozen=True)
class RowColors:
    """What one row is painted with, derived from the view's palette (opaque but for
    ``inline_code``)."""

    card: QColor  # behind the whole row: the base, or a Highlight tint when selected
    bubble: QColor  # the person's bubble
    surface: QColor  # what the message text sits on: the bubble or the card
    text: QColor
    muted: QColor  # the header and tool rows
    name: QColor  # the speaker's name in the header
    code: QColor  # a code block's body
    code_head: QColor  # its strip with the language and Copy
    code_border: QColor
    code_label: QColor
    quote_bar: QColor
    quote_text: QColor
    inline_code: QColor  # translucent: it sits on the card, selected or not
    focus: QColor  # the keyboard focus ring
    action: QColor  # a message's action buttons at rest (on the card)
    action_fill: QColor  # behind the action button under the mouse (its ink is ``text``)
    action_press: QColor  # behind the one being pressed


_CLAUDE_LIGHT = QColor("#a84f2c")  # Claude's terracotta, dark enough on white
_CLAUDE_DARK = QColor("#e59a7b")  # and light enough on the dark base


def row_colors(palette: QPalette, role: str = "assistant", selected: bool = False) -> RowColors:
    """The colours of a row of ``role``; a selected row keeps the normal text colour on a
    light Highlight tint, so it stays readable in light and dark palettes alike."""
    base = palette.color(QPalette.ColorRole.Base)
    text = palette.color(QPalette.ColorRole.Text)
    highlight = palette.color(QPalette.ColorRole.Highlight)
    dark = base.lightnessF() < 0.5
    card = mix(base, highlight, 0.24 if dark else 0.12) if selected else base
    if contrast_ratio(text, card) < 4.5:  # an odd palette: keep the text readable
        card = base
    bubble = mix(base, text, 0.10 if dark else 0.065)
    if selected:
        bubble = mix(bubble, highlight, 0.30 if dark else 0.16)
        if contrast_ratio(text, bubble) < 4.5:
            bubble = mix(base, text, 0.10 if dark else 0.065)
    surface = bubble if role == "user" else card
    black = QColor(0, 0, 0)
    code_head = mix(surface, text, 0.07)
    return RowColors(
        card=card,
        bubble=bubble,
        surface=surface,
        text=text,
        muted=mix(card, text, 0.66),
        name=(_CLAUDE_DARK if dark else _CLAUDE_LIGHT) if role == "assistant"
        else mix(card, text, 0.80),
        code=mix(surface, black, 0.32) if dark else mix(surface, text, 0.035),
        code_head=code_head,
        code_border=mix(surface, text, 0.13 if dark else 0.11),
        code_label=mix(code_head, text, 0.72),
        quote_bar=mix(surface, text, 0.34 if dark else 0.26),
        quote_text=mix(surface, text, 0.76 if dark else 0.72),
        inline_code=QColor(text.red(), text.green(), text.blue(), 36 if dark else 20),
        focus=highlight,
        action=mix(card, text, 0.70),
        action_fill=mix(card, text, 0.10 if dark else 0.07),
        action_press=mix(card, text, 0.15 if dark else 0.12),
    )


# ----- one row's layout -------------------------------------------------------------------

DOC_CACHE = 600
SIZE_CACHE = 20_000
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
_PROPORTIONAL = QTextBlockFormat.LineHeightTypes.ProportionalHeight.value
_P = QTextFormat.Property


@dataclass
class CodeBlock:
    """A code block of a laid-out message, in document coordinates."""

    rect: QRectF  # its background
    language: str
    code: str  # exactly what Copy puts on the clipboard
    copy: QRectF  # the Copy button


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


def _is_code(block: QTextBlock) -> bool:
    fmt = block.blockFormat()
    return fmt.hasProperty(_P.BlockCodeLanguage) or fmt.hasProperty(_P.BlockCodeFence)


def quote_level(block: QTextBlock) -> int:
    """How deep a block is quoted (``>``): 0 for none."""
    fmt = block.blockFormat()
    if not fmt.hasProperty(_P.BlockQuoteLevel):
        return 0
    return int(fmt.intProperty(_P.BlockQuoteLevel))


@dataclass
class _Scan:
    """What one pass over a Markdown document's blocks found."""

    blocks: list[QTextBlock]
    codes: list[list[QTextBlock]]  # runs of code lines, one run per code block
    quotes: list[tuple[QTextBlock, int]]
    headings: list[tuple[QTextBlock, int]]


def _scan(doc: QTextDocument) -> _Scan:
    scan = _Scan([], [], [], [])
    current: list[QTextBlock] = []
    language = ""
    block = doc.begin()
    while block.isValid():
        scan.blocks.append(block)
        fmt = block.blockFormat()
        if fmt.hasProperty(_P.BlockCodeLanguage) or fmt.hasProperty(_P.BlockCodeFence):
            this = fmt.stringProperty(_P.BlockCodeLanguage)
            if current and this != language:
                scan.codes.append(current)
                current = []
            language = this
            current.append(block)
        else:
            if current:
                scan.codes.append(current)
                current = []
            if fmt.hasProperty(_P.BlockQuoteLevel):
                scan.quotes.append((block, fmt.intProperty(_P.BlockQuoteLevel)))
            if fmt.hasProperty(_P.HeadingLevel):
                scan.headings.append((block, fmt.intProperty(_P.HeadingLevel)))
        block = block.next()
    if current:
        scan.codes.append(current)
    return scan


def code_groups(doc: QTextDocument) -> list[list[QTextBlock]]:
    """The code blocks of a Markdown document: runs of blocks carrying a code fence or a
    code language (Qt makes one block per line of code)."""
    return _scan(doc).codes


def _select(cursor: QTextCursor, first: QTextBlock, last: QTextBlock) -> QTextCursor:
    cursor.setPosition(first.position())
    cursor.setPosition(last.position() + last.length() - 1, QTextCursor.MoveMode.KeepAnchor)
    return cursor


def _style_document(doc: QTextDocument, source: str, font: QFont, colors: RowColors
                    ) -> _Scan:
    """Spacing, fonts and colours the chat look wants, applied once per cached document:
    airier lines, room around code blocks (for their background and label), monospace
    code, quotes indented and muted, inline code tinted, headings kept modest."""
    scan = _scan(doc)
    if not scan.blocks:
        return scan
    cursor = QTextCursor(doc)
    cursor.beginEditBlock()
    cursor.select(QTextCursor.SelectionType.Document)
    airy = QTextBlockFormat()
    airy.setLineHeight(_LINE_HEIGHT, _PROPORTIONAL)
    cursor.mergeBlockFormat(airy)
    fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    code_chars = QTextCharFormat()
    code_chars.setFontFamilies([fixed.family(), "monospace"])
    code_chars.setFontFixedPitch(True)
    if font.pointSizeF() > 0:
        code_chars.setFontPointSize(font.pointSizeF() * 0.94)
    for group in scan.codes:
        first, last = group[0], group[-1]
        lines = QTextBlockFormat()
        lines.setLeftMargin(first.blockFormat().leftMargin() + _CODE_PAD)
        lines.setRightMargin(_CODE_PAD)
        lines.setNonBreakableLines(False)  # no sideways scrolling here: long lines wrap
        _select(cursor, first, last).mergeBlockFormat(lines)
        cursor.mergeCharFormat(code_chars)
        opening = QTextBlockFormat()
        opening.setTopMargin(_CODE_SPACE + _CODE_HEAD + 8)
        cursor.setPosition(first.position())
        cursor.mergeBlockFormat(opening)
        closing = QTextBlockFormat()
        closing.setBottomMargin(_CODE_PAD + _CODE_SPACE)
        cursor.setPosition(last.position())
        cursor.mergeBlockFormat(closing)
    for block, level in scan.quotes:
        quoted = QTextBlockFormat()
        quoted.setLeftMargin(level * _QUOTE_INDENT)
        quoted.setTopMargin(8)
        quoted.setBottomMargin(8)
        _select(cursor, block, block).mergeBlockFormat(quoted)
        muted = QTextCharFormat()
        muted.setForeground(colors.quote_text)
        cursor.mergeCharFormat(muted)
    for block, heading in scan.headings:
        spaced = QTextBlockFormat()
        spaced.setTopMargin(10)
        spaced.setBottomMargin(4)
        _select(cursor, block, block).mergeBlockFormat(spaced)
        modest = QTextCharFormat()
        modest.setProperty(_P.FontSizeAdjustment, 1 if heading <= 2 else 0)
        cursor.mergeCharFormat(modest)
    if "`" in source:  # inline code: Qt marks it fixed-pitch
        inline = QTextCharFormat(code_chars)
        inline.setBackground(colors.inline_code)
        in_code = {block.blockNumber() for group in scan.codes for block in group}
        spans: list[tuple[int, int]] = []
        for block in scan.blocks:
            if block.blockNumber() in in_code:
                continue
            it = block.begin()
            while not it.atEnd():
                fragment = it.fragment()
                if fragment.charFormat().fontFixedPitch():
                    spans.append((fragment.position(), fragment.position() + fragment.length()))
                it += 1
        for start, end in spans:
            cursor.setPosition(start)
            cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
            cursor.mergeCharFormat(inline)
    if "|" in source:  # tables: hairlines in the palette's colours, roomier cells
        for child in doc.rootFrame().childFrames():
            if isinstance(child, QTextTable):
                table = child.format()
                table.setBorder(1)
                table.setBorderBrush(colors.code_border)
                table.setBorderStyle(QTextFrameFormat.BorderStyle.BorderStyle_Solid)
                table.setBorderCollapse(True)
                table.setCellSpacing(0)
                table.setCellPadding(6)
                child.setFormat(table)
    cursor.endEditBlock()
    # a code block at the very start or end: its room comes from the frame, as Qt drops
    # the first block's top margin and the last block's bottom margin
    if scan.codes:
        frame = QTextFrameFormat(doc.rootFrame().frameFormat())
        frame.setTopMargin(_CODE_HEAD + 8 if _is_code(scan.blocks[0]) else 0)
        frame.setBottomMargin(_CODE_PAD if _is_code(scan.blocks[-1]) else 0)
        doc.rootFrame().setFrameFormat(frame)
    return scan


def _decorations(doc: QTextDocument, scan: _Scan, copy_width: int
                 ) -> tuple[list[CodeBlock], list[QRectF]]:
    """Where the code backgrounds, their Copy buttons and the quote bars go, from a laid-out
    document (computed once per cached document, never while painting)."""
    layout = doc.documentLayout()
    codes: list[CodeBlock] = []
    for group in scan.codes:
        first, last = group[0], group[-1]
        first_rect = layout.blockBoundingRect(first)
        top = first_rect.top() - _CODE_HEAD - 8
        bottom = layout.blockBoundingRect(last).bottom() + _CODE_PAD
        text_layout = first.layout()
        left = (text_layout.lineAt(0).x() if text_layout.lineCount() else 0.0) - _CODE_PAD
        right = left + _CODE_PAD + first_rect.width() + _CODE_PAD
        rect = QRectF(left, top, max(40.0, right - left), bottom - top)
        height = min(24.0, _CODE_HEAD - 6.0)
        copy = QRectF(rect.right() - 6 - copy_width, rect.top() + (_CODE_HEAD - height) / 2,
                      copy_width, height)
        language = first.blockFormat().stringProperty(_P.BlockCodeLanguage)
        code = "\n".join(block.text() for block in group).replace("\u2028", "\n")
        codes.append(CodeBlock(rect, language, code, copy))
    bars: list[QRectF] = []
    if not scan.quotes:
        return codes, bars
    open_bars: dict[int, QRectF] = {}
    for block in scan.blocks:
        level = quote_level(block)
        rect = layout.blockBoundingRect(block)
        for depth in list(open_bars):
            if depth > level:
                bars.append(open_bars.pop(depth))
        for depth in range(1, level + 1):
            bar = open_bars.get(depth)
            x = (depth - 1) * _QUOTE_INDENT + 2
            if bar is None:
                open_bars[depth] = QRectF(x, rect.top() - 2, 3, rect.height() + 4)
            else:
                bar.setBottom(rect.bottom() + 2)
    bars.extend(open_bars.values())
    return codes, bars


# ----- the action buttons' icons: drawn in a 12 px square with the painter's pen -------

def _tick(painter: QPainter, icon: QRectF) -> None:
    path = QPainterPath()
    path.moveTo(icon.left() + 1, icon.center().y())
    path.lineTo(icon.left() + 4.5, icon.bottom() - 2)
    path.lineTo(icon.right() - 1, icon.top() + 2)
    painter.drawPath(path)


def _copy_icon(painter: QPainter, icon: QRectF, under: QColor) -> None:
    """Two overlapping sheets, as on a code block's Copy."""
    painter.drawRoundedRect(QRectF(icon.left() + 3.5, icon.top(), 8.5, 9.5), 2, 2)
    painter.setBrush(under)
    painter.drawRoundedRect(QRectF(icon.left(), icon.top() + 2.5, 8.5, 9.5), 2, 2)


def _edit_icon(painter: QPainter, icon: QRectF, under: QColor) -> None:
    """A pencil, leaning right."""
    painter.translate(icon.center())
    painter.rotate(45)
    path = QPainterPath()
    path.moveTo(-1.9, -5.6)
    path.lineTo(1.9, -5.6)
    path.lineTo(1.9, 3.6)
    path.lineTo(0, 6.4)
    path.lineTo(-1.9, 3.6)
    path.closeSubpath()
    painter.drawPath(path)
    painter.drawLine(QPointF(-1.9, -3.4), QPointF(1.9, -3.4))


def _regenerate_icon(painter: QPainter, icon: QRectF, under: QColor) -> None:
    """A clockwise arrow round a circle, open at the top right."""
    ring = icon.adjusted(1, 1, -1, -1)
    path = QPainterPath()
    path.arcMoveTo(ring, 30)
    path.arcTo(ring, 30, -300)  # clockwise, ending at the top
    painter.drawPath(path)
    end = QPointF(ring.center().x(), ring.top())
    head = QPainterPath()
    head.moveTo(end + QPointF(-1.2, -2.8))
    head.lineTo(end + QPointF(1.6, 0))
    head.lineTo(end + QPointF(-1.2, 2.8))
    painter.drawPath(head)


def _continue_icon(painter: QPainter, icon: QRectF, under: QColor) -> None:
    """An arrow on, past a line of text."""
    y = icon.center().y()
    painter.drawLine(QPointF(icon.left() + 1, y), QPointF(icon.right() - 1, y))
    head = QPainterPath()
    head.moveTo(icon.right() - 4.5, y - 3.5)
    head.lineTo(icon.right() - 1, y)
    head.lineTo(icon.right() - 4.5, y + 3.5)
    painter.drawPath(head)


def _delete_icon(painter: QPainter, icon: QRectF, under: QColor) -> None:
    """A bin."""
    painter.drawLine(QPointF(icon.left() + 1, icon.top() + 2.5),
                     QPointF(icon.right() - 1, icon.top() + 2.5))
    painter.drawLine(QPointF(icon.center().x() - 1.5, icon.top() + 0.5),
                     QPointF(icon.center().x() + 1.5, icon.top() + 0.5))
    body = QPainterPath()
    body.moveTo(icon.left() + 2.5, icon.top() + 2.5)
    body.lineTo(icon.left() + 3.3, icon.bottom() - 0.5)
    body.lineTo(icon.right() - 3.3, icon.bottom() - 0.5)
    body.lineTo(icon.right() - 2.5, icon.top() + 2.5)
    painter.drawPath(body)


_ICONS: dict[str, Callable[[QPainter, QRectF, QColor], None]] = {
    "copy": _copy_icon,
    "edit": _edit_icon,
    "regenerate": _regenerate_icon,
    "continue": _continue_icon,
    "delete": _delete_icon,
}


class MessageDelegate(QStyledItemDelegate):
    """Paints one message: a header line (who, tab, time), the person's bubble or Claude's
    plain card, and its Markdown body with code blocks and quotes decorated."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # Least recently used first; a few screens' worth is plenty, the view keeps sizes.
        self._docs: OrderedDict[tuple[object, ...], RowLayout] = OrderedDict()
        # Heights outlive documents: a model reset on a long day re-asks every row's size.
        self._sizes: OrderedDict[tuple[object, ...], int] = OrderedDict()
        self._editing: QPersistentModelIndex | None = None
        self._editor: MessageEditor | None = None
        self.copied: tuple[int, str, int] | None = None  # (row id, its text, code block)
        self.hovered: tuple[int, str, int] | None = None  # the Copy button under the mouse
        # what a row offers to do with it: (action, label) pairs, from the window
        self.provider: ActionProvider = _no_actions
        self.shown: QPersistentModelIndex | None = None  # the row under the mouse
        # the action button under the mouse, and the one pressed: (row id, its text, action)
        self.hovered_action: tuple[int, str, str] | None = None
        self.pressed_action: tuple[int, str, str] | None = None
        self.copied_action: tuple[int, str] | None = None  # a message just copied
        self._colors: dict[tuple[int, int, str, bool], RowColors] = {}
        self._fonts: dict[str, _Fonts] = {}

    # ----- the cache ---------------------------------------------------------------------
    def clear(self) -> None:
        """Forget every laid-out document (the palette or the font changed)."""
        self._docs.clear()
        self._sizes.clear()
        self._colors.clear()
        self._fonts.clear()

    def colors(self, palette: QPalette, role: str, selected: bool) -> RowColors:
        """``row_colors``, remembered per palette."""
        key = (palette.cacheKey(), palette.currentColorGroup().value, role, selected)
        colors = self._colors.get(key)
        if colors is None:
            if len(self._colors) > 64:
                self._colors.clear()
            colors = self._colors[key] = row_colors(palette, role, selected)
        return colors

    def fonts(self, font: QFont) -> _Fonts:
        """The messages', headers' and code labels' fonts and sizes, remembered per view
        font."""
        fonts = self._fonts.get(font.key())
        if fonts is None:
            body = reading_font(font)
            name = _small(body)
            name.setWeight(QFont.Weight.DemiBold)
            label = _small(body, 0.82)
            metrics = QFontMetrics(label)
            words = max(metrics.horizontalAdvance(self.tr("Copy")),
                        metrics.horizontalAdvance(self.tr("Copied")))
            fonts = self._fonts[font.key()] = _Fonts(
                body, name, _small(body), label, QFontMetrics(_small(body)).height(),
                words + 12 + 6 + 16,
            )
        return fonts

    @staticmethod
    def _key(row: MessageRow, width: int, actions: bool) -> tuple[object, ...]:
        # the text by its hash (a string caches it): the size cache outlives the rows
        return (row.id, row.role, row.status, len(row.text), hash(row.text), width, actions)

    def offers_actions(self, row: MessageRow) -> bool:
        """Whether ``row`` keeps a strip for action buttons: it offers some and is not the
        reply still being written."""
        return not is_growing(row) and bool(self.provider(row))

    def layout(self, row: MessageRow, width: int, font: QFont, palette: QPalette) -> RowLayout:
        """``row`` laid out ``width`` pixels wide (from the cache when it is there)."""
        actions = self.offers_actions(row)
        key = self._key(row, width, actions)
        laid = self._docs.get(key)
        if laid is not None:
            self._docs.move_to_end(key)
            return laid
        while len(self._docs) >= DOC_CACHE:
            self._docs.popitem(last=False)
        plain = self._docs.get(self._key(row, width, False)) if actions else None
        if plain is None:
            plain = self._lay_out(row, width, font, palette)
        laid = _with_actions(plain) if actions else plain
        self._docs[key] = laid
        if not is_growing(row):  # every version of a growing reply would pile up
            self._remember_size(key, laid.height)
        return laid

    def _remember_size(self, key: tuple[object, ...], height: int) -> None:
        self._sizes[key] = height
        self._sizes.move_to_end(key)
        while len(self._sizes) > SIZE_CACHE:
            self._sizes.popitem(last=False)

    def _document(self, row: MessageRow, width: int, option: QStyleOptionViewItem
                  ) -> QTextDocument:
        return self.layout(row, width, option.font, option.palette).doc

    def _lay_out(self, row: MessageRow, width: int, font: QFont, palette: QPalette
                 ) -> RowLayout:
        colors = self.colors(palette, row.role, False)
        fonts = self.fonts(font)
        column = max(120, min(width - 2 * _OUTER, _COLUMN))
        left = max(0, (width - column) // 2)
        head_height = fonts.head_height
        doc = QTextDocument()
        doc.setDefaultFont(fonts.body)
        doc.setDocumentMargin(0)
        doc.setIndentWidth(22)
        user = row.role == "user"
        inner = (int(column * _BUBBLE_SHARE) - 2 * _BUBBLE_X) if user else column - 2 * _CARD_X
        inner = max(40, inner)
        if row.role == "tool":
            doc.setPlainText(row.text[:300])
            scan = _Scan([], [], [], [])
        else:
            doc.setMarkdown(keep_line_breaks(row.text) or " ")
            scan = _style_document(doc, row.text, fonts.body, colors)
        doc.setTextWidth(inner)
        if user:  # the bubble hugs a short message
            ideal = math.ceil(doc.idealWidth())
            if ideal < inner:
                doc.setTextWidth(max(ideal, 8))
        text_width = doc.textWidth()
        doc_height = math.ceil(doc.size().height())
        header_top = _GAP + _CARD_TOP
        body_top = header_top + head_height + _HEAD_GAP
        card_right = left + column
        bubble: QRectF | None = None
        if user:
            bubble_width = text_width + 2 * _BUBBLE_X
            bubble = QRectF(card_right - _CARD_X - bubble_width, body_top,
                            bubble_width, doc_height + 2 * _BUBBLE_Y)
            body = QRectF(bubble.left() + _BUBBLE_X, body_top + _BUBBLE_Y,
                          text_width, doc_height)
            content_bottom = bubble.bottom()
        else:
            body = QRectF(left + _CARD_X, body_top, text_width, doc_height)
            content_bottom = body.bottom()
        height = math.ceil(content_bottom) + _CARD_BOTTOM + _GAP
        card = QRectF(left, _GAP, column, height - 2 * _GAP)
        header = QRectF(left + _CARD_X, header_top, column - 2 * _CARD_X, head_height)
        codes, bars = _decorations(doc, scan, fonts.copy_width)
        return RowLayout(doc, height, card, header, body, bubble, codes, bars)

    # ----- sizes and painting ------------------------------------------------------------
    def _width(self, option: QStyleOptionViewItem) -> int:
        view = self.parent()
        if isinstance(view, QAbstractItemView):
            return view.viewport().width()
        return option.rect.width() or 600

    def sizeHint(self, option: QStyleOptionViewItem, index: _Index) -> QSize:
        row: MessageRow = index.data(ROW_ROLE)
        width = self._width(option)
        key = self._key(row, width, self.offers_actions(row))
        height = self._sizes.get(key)
        if height is None:
            height = self.layout(row, width, option.font, option.palette).height
        return QSize(width, height)

    def header_parts(self, row: MessageRow) -> tuple[str, str]:
        """Who, then the rest of the header line: tab, time and the row's notes."""
        names = {"user": self.tr("You"), "assistant": "Claude", "tool": self.tr("Tool")}
        rest = f" · {row.tab_label} · {row.time}"
        if row.status == "incomplete":
            rest += "  " + self.tr("(incomplete)")
        elif row.status == "streaming":
            rest += "  …"
        if row.hidden:
            rest += "  " + self.tr("(forgotten: Claude no longer sees this)")
        return names.get(row.role, row.role), rest

    def is_editing(self, index: _Index) -> bool:
        return (self._editing is not None and self._editing.isValid()
                and self._editing.row() == index.row())

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        row: MessageRow = index.data(ROW_ROLE)
        rect: QRect = option.rect
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        colors = self.colors(option.palette, row.role, selected)
        laid = self.layout(row, rect.width(), option.font, option.palette)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.translate(rect.topLeft())
        if selected:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(colors.card)
            painter.drawRoundedRect(laid.card, _CARD_RADIUS, _CARD_RADIUS)
        if option.state & QStyle.StateFlag.State_HasFocus and self._view_has_focus(option):
            pen = QPen(colors.focus, 2.0)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(laid.card.adjusted(1, 1, -1, -1), _CARD_RADIUS, _CARD_RADIUS)
        self._paint_header(painter, row, laid, option.font, colors)
        if laid.bubble is not None:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(colors.bubble)
            painter.drawRoundedRect(laid.bubble, _BUBBLE_RADIUS, _BUBBLE_RADIUS)
        if laid.actions is not None and self.shows_actions(index, option):
            self._paint_actions(painter, row, laid, option.font, colors)
        painter.translate(laid.body.topLeft())
        self._paint_decorations(painter, row, laid, option.font, colors)
        if not self.is_editing(index):  # the open editor draws the text itself
            context = QAbstractTextDocumentLayout.PaintContext()
            palette = QPalette(option.palette)
            palette.setColor(QPalette.ColorRole.Text,
                             colors.muted if row.role == "tool" else colors.text)
            context.palette = palette
            laid.doc.documentLayout().draw(painter, context)
        painter.restore()

    @staticmethod
    def _view_has_focus(option: QStyleOptionViewItem) -> bool:
        widget = option.widget
        return widget is None or widget.hasFocus()

    # ----- action buttons ----------------------------------------------------------------
    def shows_actions(self, index: _Index, option: QStyleOptionViewItem) -> bool:
        """A row's buttons show under the mouse, on the current row of the focused view and
        on the message open for selection."""
        shown = self.shown
        if shown is not None and shown.isValid() and shown.row() == index.row():
            return True
        if option.state & QStyle.StateFlag.State_HasFocus and self._view_has_focus(option):
            return True
        return self.is_editing(index)

    def action_rects(self, laid: RowLayout, row: MessageRow, actions: list[tuple[str, str]],
                     font: QFont) -> list[QRectF]:
        """Where ``actions``' buttons go in a row laid out with a strip (row coordinates):
        their icons from the text's left edge under Claude's replies, the last one ending at
        the bubble's right edge under the person's; as many as fit."""
        strip = laid.actions
        if strip is None or not actions:
            return []
        metrics = QFontMetrics(self.fonts(font).label)
        widths = [2 * _ACTION_PAD + metrics.horizontalAdvance(plain_label(label))
                  + (_ACTION_ICON + 6 if name in _ICONS else 0) for name, label in actions]
        room = strip.width() + (0 if row.role == "user" else _ACTION_PAD)
        rects: list[QRectF] = []
        used = 0.0
        for width in widths:
            if used + width > room:
                break
            rects.append(QRectF(used, strip.top(), width, strip.height()))
            used += width + _ACTION_SPACING
        used -= _ACTION_SPACING
        if row.role == "user":  # a lit button lines up with the bubble above it
            shift = strip.right() - used
        else:
            shift = strip.left() - _ACTION_PAD
        return [rect.translated(shift, 0) for rect in rects]

    def _paint_actions(self, painter: QPainter, row: MessageRow, laid: RowLayout, font: QFont,
                       colors: RowColors) -> None:
        """Quiet buttons, like a code block's Copy: an icon and a word in a muted ink, a
        light fill under the one the mouse is over."""
        actions = self.provider(row)
        rects = self.action_rects(laid, row, actions, font)
        painter.setFont(self.fonts(font).label)
        flags = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        for (name, label), rect in zip(actions, rects, strict=False):
            which = (row.id, row.text, name)
            pressed = self.pressed_action == which
            lit = pressed or self.hovered_action == which
            under = colors.card
            if lit:
                under = colors.action_press if pressed else colors.action_fill
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(under)
                painter.drawRoundedRect(rect, 5, 5)
            ink = colors.text if lit else colors.action
            text = rect.adjusted(_ACTION_PAD, 0, -_ACTION_PAD + 1, 0)
            draw = _ICONS.get(name)
            if draw is not None:
                icon = QRectF(text.left(), rect.center().y() - _ACTION_ICON / 2,
                              _ACTION_ICON, _ACTION_ICON)
                painter.save()
                painter.setPen(QPen(ink, 1.3, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
                                    Qt.PenJoinStyle.RoundJoin))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                if name == "copy" and self.copied_action == (row.id, row.text):
                    _tick(painter, icon)
                else:
                    draw(painter, icon, under)
                painter.restore()
                text.setLeft(icon.right() + 6)
            painter.setPen(ink)
            painter.drawText(text, flags, plain_label(label))

    def _paint_header(self, painter: QPainter, row: MessageRow, laid: RowLayout, font: QFont,
                      colors: RowColors) -> None:
        who, rest = self.header_parts(row)
        fonts = self.fonts(font)
        name_font, rest_font = fonts.name, fonts.header
        name_width = QFontMetrics(name_font).horizontalAdvance(who)
        rest_metrics = QFontMetrics(rest_font)
        room = max(0, int(laid.header.width()) - name_width)
        rest = rest_metrics.elidedText(rest, Qt.TextElideMode.ElideRight, room)
        rest_width = rest_metrics.horizontalAdvance(rest)
        x = laid.header.left()
        if row.role == "user":
            x = laid.header.right() - name_width - rest_width
        flags = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        painter.setFont(name_font)
        painter.setPen(colors.name if row.role != "tool" else colors.muted)
        painter.drawText(QRectF(x, laid.header.top(), name_width + 1, laid.header.height()),
                         flags, who)
        painter.setFont(rest_font)
        painter.setPen(colors.muted)
        painter.drawText(QRectF(x + name_width, laid.header.top(), rest_width + 1,
                                laid.header.height()), flags, rest)

    def _paint_decorations(self, painter: QPainter, row: MessageRow, laid: RowLayout,
                           font: QFont, colors: RowColors) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colors.quote_bar)
        for bar in laid.quote_bars:
            painter.drawRoundedRect(bar, 1.5, 1.5)
        if not laid.codes:
            return
        label_font = self.fonts(font).label
        for number, code in enumerate(laid.codes):
            shape = QPainterPath()
            shape.addRoundedRect(code.rect, _CODE_RADIUS, _CODE_RADIUS)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.fillPath(shape, colors.code)
            painter.save()
            painter.setClipPath(shape)
            head = QRectF(code.rect.left(), code.rect.top(), code.rect.width(), _CODE_HEAD)
            painter.fillRect(head, colors.code_head)
            painter.restore()
            painter.setPen(QPen(colors.code_border, 1.0))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(shape)
            painter.setFont(label_font)
            painter.setPen(colors.code_label)
            painter.drawText(head.adjusted(_CODE_PAD, 0, -code.copy.width(), 0),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                             code.language)
            done = self.copied == (row.id, row.text, number)
            if self.hovered == (row.id, row.text, number):
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(mix(colors.code_head, colors.text, 0.10))
                painter.drawRoundedRect(code.copy, 5, 5)
            self._paint_copy(painter, code.copy, colors, done)

    def _paint_copy(self, painter: QPainter, rect: QRectF, colors: RowColors, done: bool) -> None:
        """The Copy button: two overlapping sheets and the word (a tick once copied)."""
        icon = QRectF(rect.left() + 8, rect.center().y() - 6, 12, 12)
        painter.setPen(QPen(colors.code_label, 1.3))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        if done:
            _tick(painter, icon)
        else:
            _copy_icon(painter, icon, colors.code_head)
        painter.drawText(rect.adjusted(8 + 12 + 6, 0, 0, 0),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         self.tr("Copied") if done else self.tr("Copy"))

    # ----- the selectable editor ---------------------------------------------------------
    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: _Index
                     ) -> QWidget:
        editor = MessageEditor(parent)
        editor.setFont(self.fonts(option.font).body)
        self._editing = QPersistentModelIndex(index)
        self._editor = editor
        return editor

    def setEditorData(self, editor: QWidget, index: _Index) -> None:
        if not isinstance(editor, MessageEditor):
            return
        row: MessageRow = index.data(ROW_ROLE)
        view = self.parent()
        if not isinstance(view, QAbstractItemView):
            return
        palette = view.palette()
        laid = self.layout(row, view.viewport().width(), view.font(), palette)
        editor.show_message(row, laid.doc, self.colors(palette, row.role, True))

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: _Index) -> None:
        """Read-only: nothing goes back to the model."""

    def updateEditorGeometry(self, editor: QWidget, option: QStyleOptionViewItem,
                             index: _Index) -> None:
        row: MessageRow = index.data(ROW_ROLE)
        laid = self.layout(row, option.rect.width(), option.font, option.palette)
        body = laid.body.translated(QPointF(option.rect.topLeft()))
        editor.setGeometry(body.toAlignedRect())

    def destroyEditor(self, editor: QWidget, index: _Index) -> None:
        if editor is self._editor:
            self._editor = None
            self._editing = None
        super().destroyEditor(editor, index)

    @property
    def editor(self) -> MessageEditor | None:
        """The open selectable message, if any."""
        return self._editor


class MessageEditor(QTextBrowser):
    """A message's text, selectable, laid exactly over its painted row: read-only, no frame,
    transparent (the delegate still paints the bubble, code backgrounds and quote bars
    under it), links open in the browser."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.markdown = ""  # the message's Markdown, what Ctrl+C copies with nothing selected
        self.copied_all: Callable[[], None] | None = None
        self.menu_elsewhere: Callable[[QPoint], bool] | None = None
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setReadOnly(True)
        self.setOpenLinks(False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setViewportMargins(0, 0, 0, 0)
        self.setContentsMargins(0, 0, 0, 0)
        self.setAutoFillBackground(False)
        self.viewport().setAutoFillBackground(False)
        self.selectable(keyboard=False)
        self.anchorClicked.connect(self._open_link)

    def selectable(self, keyboard: bool) -> None:
        """Selectable by mouse; by keyboard too (with a caret) when opened from the keys."""
        flags = (Qt.TextInteractionFlag.TextSelectableByMouse
                 | Qt.TextInteractionFlag.LinksAccessibleByMouse
                 | Qt.TextInteractionFlag.LinksAccessibleByKeyboard)
        if keyboard:
            flags |= Qt.TextInteractionFlag.TextSelectableByKeyboard
        self.setTextInteractionFlags(flags)

    def show_message(self, row: MessageRow, doc: QTextDocument, colors: RowColors) -> None:
        self.markdown = row.text
        palette = QPalette(self.palette())
        clear = QColor(0, 0, 0, 0)
        for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
            palette.setColor(group, QPalette.ColorRole.Base, clear)
            palette.setColor(group, QPalette.ColorRole.Window, clear)
            palette.setColor(group, QPalette.ColorRole.Text,
                             colors.muted if row.role == "tool" else colors.text)
        self.setPalette(palette)
        copy = doc.clone(self)
        self.setDocument(copy)

    @staticmethod
    def _open_link(url: QUrl) -> None:
        if url.scheme() in ("http", "https", "mailto"):
            QDesktopServices.openUrl(url)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.matches(QKeySequence.StandardKey.Copy) and not self.textCursor().hasSelection():
            QGuiApplication.clipboard().setText(self.markdown)
            if self.copied_all is not None:
                self.copied_all()
            event.accept()
            return
        super().keyPressEvent(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        """With text selected (or on a link): Copy and Select All; elsewhere the view's own
        menu for the message."""
        on_text = self.textCursor().hasSelection() or bool(self.anchorAt(event.pos()))
        if not on_text and self.menu_elsewhere is not None and self.menu_elsewhere(event.pos()):
            event.accept()
            return
        super().contextMenuEvent(event)


class TranscriptView(QListView):
    notice = Signal(str)  # something to tell the person briefly ("Copied")
    message_action = Signal(int, str)  # an action button chosen: (row in the model, action)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.empty_text = ""
        self._delegate = MessageDelegate(self)
        self.setItemDelegate(self._delegate)
        self.setVerticalScrollMode(QListView.ScrollMode.ScrollPerPixel)
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.setLayoutMode(QListView.LayoutMode.Batched)
        self.setBatchSize(50)  # one batch of rows laid out stays under a frame
        self.setUniformItemSizes(False)
        self.setWordWrap(True)
        self.setSelectionMode(QListView.SelectionMode.SingleSelection)
        self.setAlternatingRowColors(False)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setMouseTracking(True)
        self.verticalScrollBar().setSingleStep(24)
        self._drag_target: QWidget | None = None  # the editor a press on the row went to
        self._forwarding = False
        self._armed: tuple[QPersistentModelIndex, int] | None = None  # a pressed Copy
        self._armed_action: tuple[QPersistentModelIndex, str] | None = None  # a pressed action
        self.verticalScrollBar().valueChanged.connect(self._rows_moved)
        self._copied_timer = QTimer(self)
        self._copied_timer.setSingleShot(True)
        self._copied_timer.setInterval(1600)
        self._copied_timer.timeout.connect(self._copied_done)

    @property
    def delegate(self) -> MessageDelegate:
        return self._delegate


    # ----- what is where -----------------------------------------------------------------
    def _plain(self, index: _Index) -> QModelIndex:
        if isinstance(index, QModelIndex):
            return index
        model = self.model()
        return model.index(index.row(), index.column()) if model is not None else QModelIndex()

    def _row(self, index: _Index) -> MessageRow | None:
        row = index.data(ROW_ROLE) if index.isValid() else None
        return row if isinstance(row, MessageRow) else None

    def row_layout(self, index: _Index) -> RowLayout | None:
        row = self._row(index)
        if row is None:
            return None
        width = self.visualRect(self._plain(index)).width() or self.viewport().width()
        return self._delegate.layout(row, width, self.font(), self.palette())

    def code_blocks(self, index: _Index) -> list[CodeBlock]:
        """The code blocks of a row, their rectangles relative to the viewport."""
        laid = self.row_layout(index)
        if laid is None:
            return []
        origin = QPointF(self.visualRect(self._plain(index)).topLeft()) + laid.body.topLeft()
        return [CodeBlock(c.rect.translated(origin), c.language, c.code, c.copy.translated(origin))
                for c in laid.codes]

    def copy_button_at(self, pos: QPoint) -> tuple[QModelIndex, int] | None:
        """The row and code block whose Copy button is at ``pos`` (viewport coordinates)."""
        index = self.indexAt(pos)
        if not index.isValid():
            return None
        for number, code in enumerate(self.code_blocks(index)):
            if code.copy.adjusted(-2, -2, 2, 2).contains(QPointF(pos)):
                return index, number
        return None

    def set_action_provider(self, provider: ActionProvider) -> None:
        """Who says what can be done with a message: ``provider(row)`` gives (action, label)
        pairs in order, ``[]`` for none. A row that offers actions keeps a strip for their
        buttons under its text, so it should keep offering some (Copy, say) while its
        other actions come and go: the strip follows only when the rows are laid out
        again, what the buttons say follows at once."""
        self._delegate.provider = provider
        self._delegate.shown = None
        self.scheduleDelayedItemsLayout()
        self.viewport().update()

    def refresh_actions(self) -> None:
        """The provider's answers changed (the window's state did): show them."""
        self.viewport().update()

    def action_buttons(self, index: _Index) -> list[ActionButton]:
        """A row's action buttons, their rectangles relative to the viewport (shown or not:
        they show while the mouse is over the row)."""
        row = self._row(index)
        laid = self.row_layout(index)
        if row is None or laid is None or laid.actions is None:
            return []
        actions = self._delegate.provider(row)
        rects = self._delegate.action_rects(laid, row, actions, self.font())
        keys = action_keys(actions)
        origin = QPointF(self.visualRect(self._plain(index)).topLeft())
        return [ActionButton(name, plain_label(label), rect.translated(origin),
                             keys.get(name, QKeySequence()))
                for (name, label), rect in zip(actions, rects, strict=False)]

    def action_button_at(self, pos: QPoint) -> tuple[QModelIndex, ActionButton] | None:
        """The row and action button at ``pos`` (viewport coordinates)."""
        index = self.indexAt(pos)
        laid = self.row_layout(index) if index.isValid() else None
        if laid is None or laid.actions is None:
            return None
        top = self.visualRect(index).top() + laid.actions.top()
        if not top <= pos.y() < top + laid.actions.height():
            return None
        for button in self.action_buttons(index):
            if button.rect.contains(QPointF(pos)):
                return index, button
        return None

    def _track(self, pos: QPoint | None) -> ActionButton | None:
        """Which row shows its buttons and which button is lit, for the mouse at ``pos``
        (None: it left); repaints only the rows that change. Returns the button there."""
        delegate = self._delegate
        index = self.indexAt(pos) if pos is not None else QModelIndex()
        laid = self.row_layout(index) if index.isValid() else None
        shown = delegate.shown
        before = shown.row() if shown is not None and shown.isValid() else -1
        after = index.row() if laid is not None and laid.actions is not None else -1
        dirty: set[int] = set()
        if before != after:
            delegate.shown = QPersistentModelIndex(index) if after >= 0 else None
            dirty |= {before, after}
        hit = self.action_button_at(pos) if pos is not None and after >= 0 else None
        row = self._row(hit[0]) if hit is not None else None
        lit = (row.id, row.text, hit[1].name) if row is not None and hit is not None else None
        if lit != delegate.hovered_action:
            delegate.hovered_action = lit
            dirty |= {before, after}
        self._update_rows(dirty)
        return hit[1] if hit is not None else None

    def _update_rows(self, rows: set[int]) -> None:
        model = self.model()
        if model is None:
            return
        for number in rows:
            if 0 <= number < model.rowCount():
                self.viewport().update(self.visualRect(model.index(number, 0)))

    def _rows_moved(self) -> None:
        """Scrolled under a still mouse: another row is under it now."""
        if self.viewport().underMouse():
            self._track(self.viewport().mapFromGlobal(QCursor.pos()))

    def _activate(self, index: _Index, name: str) -> None:
        """An action button chosen: a copied message says so on its button for a moment;
        the window does the rest."""
        row = self._row(index)
        if row is None:
            return
        if name == "copy":
            self._delegate.copied_action = (row.id, row.text)
            self._copied_timer.start()
            self._update_rows({index.row()})
        self.message_action.emit(index.row(), name)

    def _action_for_key(self, event: QKeyEvent) -> str | None:
        """The current row's action whose key (Alt and a letter) ``event`` is."""
        if event.modifiers() != Qt.KeyboardModifier.AltModifier:
            return None
        row = self._row(self.currentIndex())
        if row is None or not self._delegate.offers_actions(row):
            return None
        pressed = QKeySequence(event.keyCombination())
        for name, key in action_keys(self._delegate.provider(row)).items():
            if key.matches(pressed) == QKeySequence.SequenceMatch.ExactMatch:
                return name
        return None

    def can_select_text(self, index: _Index) -> bool:
        row = self._row(index)
        return row is not None and not is_growing(row)

    # ----- copying -----------------------------------------------------------------------
    def copy_code(self, index: _Index, number: int) -> str:
        """Put code block ``number`` of a row on the clipboard and say so."""
        codes = self.code_blocks(index)
        row = self._row(index)
        if row is None or not 0 <= number < len(codes):
            return ""
        QGuiApplication.clipboard().setText(codes[number].code)
        self._delegate.copied = (row.id, row.text, number)
        self._copied_timer.start()
        self.viewport().update()
        self.notice.emit(self.tr("Copied"))
        return codes[number].code

    def copy_message(self) -> None:
        """The whole current message, as its Markdown."""
        row = self._row(self.currentIndex())
        if row is None:
            return
        QGuiApplication.clipboard().setText(row.text)
        self.notice.emit(self.tr("Message copied"))

    def _copied_done(self) -> None:
        self._delegate.copied = None
        self._delegate.copied_action = None
        self.viewport().update()

    # ----- the selectable editor ---------------------------------------------------------
    def open_editor(self, index: _Index, keyboard: bool = False) -> MessageEditor | None:
        """Lay the selectable copy of a message over its row (not for the growing reply)."""
        if not self.can_select_text(index):
            return None
        index = self._plain(index)
        # Choosing the row and opening its editor would scroll a partly hidden row into
        # view; under the mouse that moves the text away from the press, and the drag
        # would select other words. The mouse keeps the view where it is.
        bar = self.verticalScrollBar()
        kept = bar.value()
        if self.currentIndex() != index:
            self.setCurrentIndex(index)
        editor = self._delegate.editor
        if editor is None or not self._delegate.is_editing(index):
            self.edit(index)
            editor = self._delegate.editor
        if not keyboard and bar.value() != kept:
            bar.setValue(kept)
            self.updateEditorGeometries()
        if editor is None:
            return None
        editor.selectable(keyboard)
        editor.copied_all = lambda: self.notice.emit(self.tr("Message copied"))
        editor.menu_elsewhere = self._menu_from_editor
        editor.viewport().installEventFilter(self)
        editor.setFocus(Qt.FocusReason.MouseFocusReason if not keyboard
                        else Qt.FocusReason.OtherFocusReason)
        self.viewport().update()
        return editor

    def close_editor(self) -> None:
        editor = self._delegate.editor
        if editor is not None:
            self.closeEditor(editor, QStyledItemDelegate.EndEditHint.NoHint)
            self.setFocus()

    def _menu_from_editor(self, pos: QPoint) -> bool:
        editor = self._delegate.editor
        if editor is None or self.contextMenuPolicy() != Qt.ContextMenuPolicy.CustomContextMenu:
            return False
        self.customContextMenuRequested.emit(editor.viewport().mapTo(self.viewport(), pos))
        return True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Copy buttons stay buttons under an open editor, and the wheel scrolls the
        transcript, not the editor (which never needs to scroll)."""
        editor = self._delegate.editor
        if editor is None or watched is not editor.viewport():
            return super().eventFilter(watched, event)
        if isinstance(event, QWheelEvent):
            self.wheelEvent(event)
            return True
        if isinstance(event, QMouseEvent):
            pos = editor.viewport().mapTo(self.viewport(), event.position().toPoint())
            hit = self.copy_button_at(pos)
            if event.type() == QEvent.Type.MouseMove and not event.buttons():
                self._track(pos)
                self._hover(hit, editor.viewport())
                if hit is not None:
                    return True  # the editor would set its own cursor back
            if (event.type() == QEvent.Type.MouseButtonPress and hit is not None
                  and event.button() == Qt.MouseButton.LeftButton):
                self.copy_code(*hit)
                return True
        return super().eventFilter(watched, event)

    def _forward(self, event: QMouseEvent) -> None:
        """Hand a mouse event on the row to the editor laid over it."""
        target = self._drag_target
        editor = self._delegate.editor
        if target is None or editor is None or editor.viewport() is not target:
            self._drag_target = None  # the editor closed under the drag (a reload)
            return
        local = QPointF(target.mapFrom(self.viewport(), event.position().toPoint()))
        forwarded = QMouseEvent(event.type(), local, event.globalPosition(),
                                event.button(), event.buttons(), event.modifiers())
        # what the editor ignores comes back up to this viewport (its parent): once only
        self._forwarding = True
        try:
            QApplication.sendEvent(target, forwarded)
        finally:
            self._forwarding = False

    # ----- mouse and keys ----------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if self._forwarding:
            event.accept()
            return
        pos = event.position().toPoint()
        if event.button() == Qt.MouseButton.LeftButton:
            hit = self.copy_button_at(pos)
            if hit is not None:
                self._armed = (QPersistentModelIndex(hit[0]), hit[1])
                event.accept()
                return
            action = self.action_button_at(pos)
            if action is not None:  # a button, not the text: no editor, no selection
                index, button = action
                row = self._row(index)
                self._armed_action = (QPersistentModelIndex(index), button.name)
                if row is not None:
                    self._delegate.pressed_action = (row.id, row.text, button.name)
                self._track(pos)
                self._update_rows({index.row()})
                event.accept()
                return
            index = self.indexAt(pos)
            if self.can_select_text(index):
                editor = self.open_editor(index)
                if editor is not None:
                    self._drag_target = editor.viewport()
                    self._forward(event)
                    event.accept()
                    return
        super().mousePressEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        if self._forwarding:
            event.accept()
            return
        if self.action_button_at(event.position().toPoint()) is not None:
            event.accept()  # the first click did it; a second would do it again
            return
        if self._delegate.editor is not None and event.button() == Qt.MouseButton.LeftButton:
            index = self.indexAt(event.position().toPoint())
            if self._delegate.is_editing(index) and self.copy_button_at(
                event.position().toPoint()
            ) is None:
                self._drag_target = self._delegate.editor.viewport()
                self._forward(event)
                event.accept()
                return
        super().mouseDoubleClickEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._forwarding:
            event.accept()
            return
        if self._drag_target is not None:
            self._forward(event)
            event.accept()
            return
        if self._armed_action is not None:  # a button held down: no rows get selected
            event.accept()
            return
        if not event.buttons():
            pos = event.position().toPoint()
            hit = self.copy_button_at(pos)
            self._hover(hit, self.viewport())
            if self._track(pos) is not None:
                self.viewport().setCursor(Qt.CursorShape.PointingHandCursor)
            elif hit is None:  # text reads as text: the I-beam over what can be selected
                index = self.indexAt(pos)
                laid = self.row_layout(index) if self.can_select_text(index) else None
                over = laid is not None and laid.body.translated(
                    QPointF(self.visualRect(index).topLeft())).contains(QPointF(pos))
                if over:
                    self.viewport().setCursor(Qt.CursorShape.IBeamCursor)
                else:
                    self.viewport().unsetCursor()
        super().mouseMoveEvent(event)

    def leaveEvent(self, event: QEvent) -> None:
        self._hover(None, self.viewport())
        self._track(None)
        super().leaveEvent(event)

    def viewportEvent(self, event: QEvent) -> bool:
        """The buttons hide when the mouse leaves the rows; over one, its tooltip says its
        key."""
        if event.type() == QEvent.Type.Leave:
            self._track(None)
        elif event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            hit = self.action_button_at(event.pos())
            if hit is not None:
                button = hit[1]
                tip = button.label
                if not button.key.isEmpty():
                    shortcut = button.key.toString(QKeySequence.SequenceFormat.NativeText)
                    tip = f"{tip} ({shortcut})"
                QToolTip.showText(event.globalPos(), tip, self.viewport(),
                                  button.rect.toAlignedRect())
                return True
        return super().viewportEvent(event)

    def event(self, event: QEvent) -> bool:
        """Alt and a button's letter belongs to the current message, not the menus."""
        if (event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent)
                and self._action_for_key(event) is not None):
            event.accept()
            return True
        return super().event(event)

    def _hover(self, hit: tuple[QModelIndex, int] | None, surface: QWidget) -> None:
        """The pointing hand and a light fill on the Copy button under the mouse."""
        row = self._row(hit[0]) if hit is not None else None
        hovered = (row.id, row.text, hit[1]) if row is not None and hit is not None else None
        if hovered == self._delegate.hovered:
            return
        self._delegate.hovered = hovered
        if hovered is not None:
            surface.setCursor(Qt.CursorShape.PointingHandCursor)
        elif surface is not self.viewport():
            surface.setCursor(Qt.CursorShape.IBeamCursor)
        self.viewport().update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._forwarding:
            event.accept()
            return
        if self._armed_action is not None:
            armed, name = self._armed_action
            self._armed_action = None
            self._delegate.pressed_action = None
            self._update_rows({armed.row()})
            action = self.action_button_at(event.position().toPoint())
            if (action is not None and armed.isValid() and action[0] == self._plain(armed)
                    and action[1].name == name):
                self._activate(action[0], name)
            event.accept()
            return
        if self._armed is not None:
            index, number = self._armed
            self._armed = None
            hit = self.copy_button_at(event.position().toPoint())
            if hit is not None and index.isValid() and hit == (self._plain(index), number):
                self.copy_code(index, number)
            event.accept()
            return
        if self._drag_target is not None:
            self._forward(event)
            self._drag_target = None
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.matches(QKeySequence.StandardKey.Copy):
            self.copy_message()
            event.accept()
            return
        name = self._action_for_key(event)
        if name is not None:
            self._activate(self.currentIndex(), name)
            event.accept()
            return
        keys = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_F2)
        if event.key() in keys and self.can_select_text(self.currentIndex()):
            self.open_editor(self.currentIndex(), keyboard=True)
            event.accept()
            return
        super().keyPressEvent(event)

    def hideEvent(self, event: QHideEvent) -> None:
        """A hidden transcript (the window closing) keeps no editor open."""
        editor = self._delegate.editor
        if editor is not None:
            self.closeEditor(editor, QStyledItemDelegate.EndEditHint.NoHint)
        super().hideEvent(event)

    # ----- painting ----------------------------------------------------------------------
    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.FontChange,
                            QEvent.Type.StyleChange):
            self._delegate.clear()  # documents carry palette colours and the font
            self.scheduleDelayedItemsLayout()
        super().changeEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        model = self.model()
        if model is not None and model.rowCount() == 0 and self.empty_text:
            painter = QPainter(self.viewport())
            color = QColor(self.palette().color(QPalette.ColorRole.Text))
            color.setAlpha(120)
            painter.setPen(color)
            painter.drawText(
                self.viewport().rect(), Qt.AlignmentFlag.AlignCenter, self.empty_text
            )
            painter.end()

