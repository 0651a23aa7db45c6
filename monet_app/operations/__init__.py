"""One home for each thing the person does in the window (after Anki's ``aqt/operations``).

Each module holds plain functions over the core (``monet_app.wiring.Core``): no widgets,
no Qt, so each can be tested alone and reused by the command line. ``run_op`` runs one
off the GUI thread and delivers its result on the GUI thread: ``success(result)``, or
``failure(sentence)`` for a ``UserFacingError``; anything else is a bug: its traceback
goes to ``monet.log`` and the person gets one sentence saying so (``storage/errors.py``).

Actions a dialog waits on and that take a few milliseconds (correcting a memory,
promoting a statement, applying settings) run inline through ``run_inline``, with the
same error handling; anything that may take longer than a frame (a reply, deleting a
day or a message, a search, a librarian pass) runs through ``run_op``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypeVar

from storage.errors import UserFacingError
from ui.background import run_in_background

T = TypeVar("T")
log = logging.getLogger("monet.operations")

#: Shown when an operation fails with a bug rather than a sentence for the person.
BUG_SENTENCE = (
    "Something went wrong ({kind}). Nothing you typed was lost; details are in monet.log."
)


def describe(exc: BaseException, bug_sentence: str = BUG_SENTENCE) -> str:
    """The sentence to show for ``exc``; a bug is logged with its traceback."""
    if isinstance(exc, UserFacingError):
        return str(exc)
    log.error("operation failed: %s", getattr(exc, "__monet_traceback__", None) or repr(exc),
              exc_info=exc if not hasattr(exc, "__monet_traceback__") else None)
    return bug_sentence.format(kind=exc.__class__.__name__)


def run_op(
    op: Callable[[], T],
    success: Callable[[T], None],
    failure: Callable[[str], None],
    bug_sentence: str = BUG_SENTENCE,
) -> None:
    """Run ``op`` in the background; the callbacks run on the GUI thread."""
    run_in_background(op, success, lambda exc: failure(describe(exc, bug_sentence)))


def run_inline(
    op: Callable[[], T], bug_sentence: str = BUG_SENTENCE
) -> tuple[T | None, str | None]:
    """Run a quick ``op`` now: ``(result, None)`` or ``(None, sentence)``."""
    try:
        return op(), None
    except Exception as exc:  # noqa: BLE001 - turned into a sentence or logged as a bug
        return None, describe(exc, bug_sentence)
