"""Running an operation: in the background or inline, with one way of reporting errors.

See ``monet_app/operations/__init__.py`` for what runs where.
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
