"""Running an operation from the window: in the background or inline, with one way of
reporting errors.

``run_op`` runs one off the GUI thread and delivers its result on the GUI thread:
``success(result)``, or ``failure(sentence)``; ``run_inline`` runs a quick one now. What
runs where, and why:

- in the background: the reply (``operations.conversation.reply``, through the stream
  presenter), deleting, a search, a librarian pass, a backup, the key lookup and the
  wait before a restore: anything that may take longer than a frame;
- inline: storing what the person typed (``conversation.commit``: stored before any
  request leaves, and the composer is cleared only once it is), and the few-millisecond
  actions a dialog waits on (correcting or deleting a memory item, promoting, applying
  settings, marking today incognito, storing a key, restoring once nothing else runs).

A ``UserFacingError`` becomes its sentence; anything else is a bug: its traceback goes to
``monet.log`` and the person gets one sentence saying so (``storage/errors.py``).
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


Say = Callable[[BaseException], str]


def run_op(op: Callable[[], T], success: Callable[[T], None],
           failure: Callable[[str], None], say: Say = describe) -> None:
    """Run ``op`` in the background; the callbacks run on the GUI thread."""
    run_in_background(op, success, lambda exc: failure(say(exc)))


def warm_up(*steps: Callable[[], None]) -> None:
    """Load ahead what a first use would wait for (``Core.warm``, Pygments' lexers) on a
    daemon thread: never holding a worker a reply needs, never delaying quitting. A
    failure is no failure of the person's (the first use tries again): only logged."""

    def run() -> None:
        for step in steps:
            step()

    run_in_background(run, None, lambda exc: log.info("warming up failed: %r", exc),
                      own_thread=True)


def run_inline(op: Callable[[], T], say: Say = describe) -> tuple[T | None, str | None]:
    """Run a quick ``op`` now: ``(result, None)`` or ``(None, sentence)``."""
    try:
        return op(), None
    except Exception as exc:  # noqa: BLE001 - turned into a sentence or logged as a bug
        return None, say(exc)
