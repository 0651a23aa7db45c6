"""The action buttons' icons (and the code blocks' Copy and tick): drawn in a 12 px square
with the painter's pen."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QPainter, QPainterPath


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
