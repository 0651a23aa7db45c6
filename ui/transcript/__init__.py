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

The package: ``model`` (the list model), ``colors`` (a row's colours and the contrast
helpers), ``layout`` (metrics, what a laid-out row holds, action labels and keys, fonts),
``markdown`` (line breaks kept, the document styled and measured), ``icons`` (the buttons'
icons), ``delegate`` (lays out and paints a row), ``editor`` (the selectable copy laid over a
row) and ``view`` (mouse, keys, hover and actions). What the rest of MONET uses is
re-exported here.
"""

from __future__ import annotations

from ui.transcript.colors import RowColors, contrast_ratio, mix, row_colors
from ui.transcript.delegate import DOC_CACHE, SIZE_CACHE, MessageDelegate
from ui.transcript.editor import MessageEditor
from ui.transcript.layout import (
    ActionButton,
    ActionProvider,
    CodeBlock,
    RowLayout,
    action_keys,
    plain_label,
    reading_font,
)
from ui.transcript.markdown import code_groups, keep_line_breaks, quote_level
from ui.transcript.model import ROW_ROLE, TranscriptModel, is_growing
from ui.transcript.view import TranscriptView

__all__ = [
    "DOC_CACHE",
    "ROW_ROLE",
    "SIZE_CACHE",
    "ActionButton",
    "ActionProvider",
    "CodeBlock",
    "MessageDelegate",
    "MessageEditor",
    "RowColors",
    "RowLayout",
    "TranscriptModel",
    "TranscriptView",
    "action_keys",
    "code_groups",
    "contrast_ratio",
    "is_growing",
    "keep_line_breaks",
    "mix",
    "plain_label",
    "quote_level",
    "reading_font",
    "row_colors",
]
