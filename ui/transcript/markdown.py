"""A message's Markdown as a document: its line breaks kept, its blocks scanned (code,
quotes, headings), styled for the chat look, and where its code backgrounds, Copy buttons
and quote bars go once it is laid out."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRectF
from PySide6.QtGui import (
    QFont,
    QFontDatabase,
    QTextBlock,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
    QTextFrameFormat,
    QTextTable,
)

from ui.transcript.colors import RowColors
from ui.transcript.layout import (
    _CODE_HEAD,
    _CODE_PAD,
    _CODE_SPACE,
    _LINE_HEIGHT,
    _QUOTE_INDENT,
    CodeBlock,
)
from ui.transcript.syntax import colour_code

_FENCE = ("```", "~~~")
#: Heading sizes against the body text, by level (# to ###; deeper ones are bold only).
HEADING_SCALE = {1: 1.45, 2: 1.28, 3: 1.12}


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


_PROPORTIONAL = QTextBlockFormat.LineHeightTypes.ProportionalHeight.value
_P = QTextFormat.Property


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
    code coloured by its language (``ui/transcript/syntax.py``), quotes indented and
    muted, inline code tinted, headings a step larger per level (``HEADING_SCALE``), as
    the chat apps set them."""
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
        colour_code(cursor, group, first.blockFormat().stringProperty(_P.BlockCodeLanguage),
                    dark=colors.code.lightnessF() < 0.5)
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
        scale = HEADING_SCALE.get(heading, 1.0)
        spaced = QTextBlockFormat()
        spaced.setTopMargin(round(14 * scale))
        spaced.setBottomMargin(6)
        _select(cursor, block, block).mergeBlockFormat(spaced)
        # each piece of the heading gets its size set, not merged: Qt's own heading steps
        # (FontSizeAdjustment) must go, and a merged size is not seen by the layout
        pieces = block.begin()
        while not pieces.atEnd():
            piece = pieces.fragment()
            pieces += 1
            if not piece.isValid():
                continue
            sized = piece.charFormat()
            sized.clearProperty(_P.FontSizeAdjustment)
            if font.pointSizeF() > 0:
                sized.setFontPointSize(font.pointSizeF() * scale)
            elif font.pixelSize() > 0:  # (a font set in pixels, as on some platforms)
                sized.setProperty(_P.FontPixelSize, round(font.pixelSize() * scale))
            sized.setFontWeight(QFont.Weight.Bold if heading <= 3 else QFont.Weight.DemiBold)
            cursor.setPosition(piece.position())
            cursor.setPosition(piece.position() + piece.length(), QTextCursor.MoveMode.KeepAnchor)
            cursor.setCharFormat(sized)
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
