"""The colours a row is painted with, from the view's palette, and the contrast helpers
that keep its text readable in light and dark palettes."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor, QPalette


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
