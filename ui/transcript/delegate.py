"""The delegate that lays out (and caches) each message and paints it: header, bubble or
card, code blocks, quote bars and action buttons; it also opens the selectable editor."""

from __future__ import annotations

import math
from collections import OrderedDict

from PySide6.QtCore import (
    QAbstractItemModel,
    QPersistentModelIndex,
    QPointF,
    QRect,
    QRectF,
    QSize,
    QSizeF,
    Qt,
)
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QFont,
    QFontMetrics,
    QPainter,
    QPainterPath,
    QPalette,
    QPen,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from ui.items import MessageRow, ShownFile
from ui.transcript.colors import RowColors, mix, row_colors
from ui.transcript.editor import MessageEditor
from ui.transcript.icons import _ICONS, _copy_icon, _tick
from ui.transcript.layout import (
    _ACTION_ICON,
    _ACTION_PAD,
    _ACTION_SPACING,
    _BUBBLE_RADIUS,
    _BUBBLE_SHARE,
    _BUBBLE_X,
    _BUBBLE_Y,
    _CARD_BOTTOM,
    _CARD_RADIUS,
    _CARD_TOP,
    _CARD_X,
    _CODE_HEAD,
    _CODE_PAD,
    _CODE_RADIUS,
    _COLUMN,
    _FILE_GAP,
    _FILE_RADIUS,
    _GAP,
    _HEAD_GAP,
    _OUTER,
    ActionProvider,
    FileTile,
    RowLayout,
    _Fonts,
    _no_actions,
    _small,
    _with_actions,
    file_tiles,
    plain_label,
    reading_font,
)
from ui.transcript.markdown import _decorations, _Scan, _style_document, keep_line_breaks
from ui.transcript.model import ROW_ROLE, _Index, is_growing
from ui.transcript.thumbnails import Thumbnails

DOC_CACHE = 600
SIZE_CACHE = 20_000


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
        self.hovered_file: tuple[int, int] | None = None  # (row id, file) under the mouse
        #: The pictures' thumbnails, read on a worker (the view repaints when one is in).
        self.thumbnails = Thumbnails(self)
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
        return (row.id, row.role, row.status, len(row.text), hash(row.text), row.files, width,
                actions)

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
        tiles: list[FileTile] = []
        if row.files:  # above the words, as the chat apps show them
            tiles, files_height = file_tiles(row.files, left + _CARD_X, body_top,
                                             column - 2 * _CARD_X, user)
            body_top += math.ceil(files_height)
            if row.text.strip():
                body_top += _FILE_GAP
            elif user:  # a picture alone: no empty bubble under it
                body = QRectF(card_right - _CARD_X, body_top, 0, 0)
                height = body_top + _CARD_BOTTOM + _GAP
                card = QRectF(left, _GAP, column, height - 2 * _GAP)
                header = QRectF(left + _CARD_X, header_top, column - 2 * _CARD_X, head_height)
                return RowLayout(doc, height, card, header, body, None, files=tiles)
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
        return RowLayout(doc, height, card, header, body, bubble, codes, bars, files=tiles)

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
        if row.counts_in:  # said after midnight, before the day began
            rest += " " + self.tr("(counts in {day})").format(day=row.counts_in)
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
        if laid.files:
            self._paint_files(painter, row, laid, option.font, colors)
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

    # ----- files -------------------------------------------------------------------------
    def file_detail(self, file: ShownFile) -> str:
        """A document chip's second line: its kind, pages and size (PDF · 4 pages ·
        1.2 MB); a picture's tooltip."""
        size = (f"{file.size / 1_048_576:.1f} MB" if file.size >= 1_048_576
                else f"{max(1, file.size // 1024)} KB")
        if file.picture:
            kind = self.tr("Picture")
            return f"{kind} · {file.width} × {file.height} · {size}" if file.width else \
                f"{kind} · {size}"
        if file.media_type == "application/pdf":
            pages = self.tr("1 page") if file.pages == 1 else self.tr("{n} pages").format(
                n=file.pages)
            return f"PDF · {pages} · {size}"
        return self.tr("Text") + " · " + size

    def _paint_files(self, painter: QPainter, row: MessageRow, laid: RowLayout, font: QFont,
                     colors: RowColors) -> None:
        """Thumbnails (a placeholder until read), document chips; the one under the
        mouse ringed."""
        fonts = self.fonts(font)
        ratio = painter.device().devicePixelRatioF() if painter.device() else 1.0
        for tile in laid.files:
            file = row.files[tile.number]
            rect = tile.rect
            shape = QPainterPath()
            shape.addRoundedRect(rect, _FILE_RADIUS, _FILE_RADIUS)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.fillPath(shape, colors.code)
            if file.picture:
                want = QSize(math.ceil(rect.width() * ratio), math.ceil(rect.height() * ratio))
                image = self.thumbnails.image(file.preview, want)
                if image is not None and not image.isNull():
                    shown = QSizeF(image.width() / ratio, image.height() / ratio)
                    target = QRectF(rect.center().x() - shown.width() / 2,
                                    rect.center().y() - shown.height() / 2,
                                    shown.width(), shown.height())
                    painter.save()
                    painter.setClipPath(shape)
                    painter.drawImage(target, image)
                    painter.restore()
            else:
                self._paint_chip(painter, file, rect, fonts, colors)
            lit = self.hovered_file == (row.id, tile.number)
            painter.setPen(QPen(colors.focus if lit else colors.code_border, 2.0 if lit else 1.0))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(shape)

    def _paint_chip(self, painter: QPainter, file: ShownFile, rect: QRectF, fonts: _Fonts,
                    colors: RowColors) -> None:
        """A document: a page with its kind on it, the name and the detail line."""
        page = QRectF(rect.left() + 10, rect.top() + 8, 28, rect.height() - 16)
        fold = 8.0
        outline = QPainterPath()
        outline.moveTo(page.topLeft())
        outline.lineTo(page.right() - fold, page.top())
        outline.lineTo(page.right(), page.top() + fold)
        outline.lineTo(page.bottomRight())
        outline.lineTo(page.bottomLeft())
        outline.closeSubpath()
        painter.setPen(QPen(colors.code_label, 1.2))
        painter.setBrush(colors.code_head)
        painter.drawPath(outline)
        label = QFont(fonts.label)
        label.setPointSizeF(max(5.0, label.pointSizeF() * 0.8))
        label.setWeight(QFont.Weight.Bold)
        painter.setFont(label)
        painter.drawText(page.adjusted(0, fold / 2, 0, 0), Qt.AlignmentFlag.AlignCenter,
                         "PDF" if file.media_type == "application/pdf" else "TXT")
        text = QRectF(page.right() + 10, rect.top() + 7, rect.right() - page.right() - 20,
                      (rect.height() - 14) / 2)
        flags = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        painter.setFont(fonts.name)
        painter.setPen(colors.text)
        painter.drawText(text, flags, QFontMetrics(fonts.name).elidedText(
            file.name, Qt.TextElideMode.ElideMiddle, int(text.width())))
        painter.setFont(fonts.header)
        painter.setPen(colors.muted)
        painter.drawText(text.translated(0, text.height()), flags,
                         QFontMetrics(fonts.header).elidedText(
                             self.file_detail(file), Qt.TextElideMode.ElideRight,
                             int(text.width())))

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
