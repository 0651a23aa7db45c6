"""One gate for work that writes (one per data folder and process, ``Core.gate``).

Every operation that writes enters the gate with the kind of work it is (``Work``) and
leaves it when done; the gate refuses, in one sentence, what must not run beside what
already runs (``REFUSED_BY``), and nothing is changed then. The rules:

- the person's own actions exclude each other: a reply, forgetting (a message, a day, a
  memory at either depth) and settings that rebuild the prompt never run together, so a
  request never carries what is being deleted and a rebuild never happens mid-reply;
- background work (a librarian pass, a backup) runs beside any of them, one of each at a
  time: both are safe beside writers (leases, SQLite's online backup);
- a restore runs alone: it refuses while the person's actions run, closes the door to
  any new work at once, and waits (``wait_for_background``) for a librarian pass or a
  backup already under way to end before the database is let go;
- small notes (promoting a statement, marking today incognito, storing the key) only
  wait for a restore.

A caller that must hold the gate across several steps (the window: a send's commit, then
its reply on a worker) enters once and passes the ``Ticket`` to each operation, which
then runs under it (``Gate.hold``) instead of entering again. The command line enters
per call. Processes beside each other (``monet librarian``, a second window's home) are
kept apart by the database's own locks and the librarian's leases, not by this gate.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum

from storage.errors import BusyError


class Work(StrEnum):
    REPLY = "reply"  # a send, edit and resend, regenerate, continue: commit and reply
    FORGET = "forget"  # deleting a message or a day; forgetting or correcting a memory
    SETTINGS = "settings"  # settings that may rebuild the prompt
    NOTE = "note"  # promote, incognito today, the key
    LIBRARIAN = "librarian"  # a librarian pass
    BACKUP = "backup"  # a backup, daily or asked for
    RESTORE = "restore"  # putting a backup back


#: The kinds of work that run in the background, which a restore waits for.
BACKGROUND = frozenset({Work.LIBRARIAN, Work.BACKUP})

_PERSON = (Work.REPLY, Work.FORGET, Work.SETTINGS)

#: For each kind of work, the kinds that refuse it while they run, with the sentence (a
#: literal template each, raised as ``REFUSED_BY[work][running]``: tests/test_error_words.py).
REFUSED_BY: dict[Work, dict[Work, str]] = {
    Work.REPLY: {
        Work.REPLY: "Wait for the reply to finish (or press Stop).",
        Work.FORGET: "Wait until the deletion is finished.",
        Work.SETTINGS: "Wait until the settings are applied.",
        Work.RESTORE: "Wait until the restore is finished.",
    },
    Work.FORGET: {
        Work.REPLY: "Wait for the reply to finish before deleting.",
        Work.FORGET: "Wait until the deletion is finished.",
        Work.SETTINGS: "Wait until the settings are applied.",
        Work.RESTORE: "Wait until the restore is finished.",
    },
    Work.SETTINGS: {
        Work.REPLY: "Wait for the reply to finish (or press Stop) before changing settings.",
        Work.FORGET: "Wait until the deletion is finished.",
        Work.SETTINGS: "Wait until the settings are applied.",
        Work.RESTORE: "Wait until the restore is finished.",
    },
    Work.NOTE: {Work.RESTORE: "Wait until the restore is finished."},
    Work.LIBRARIAN: {
        Work.LIBRARIAN: "A librarian pass is already running.",
        Work.RESTORE: "Wait until the restore is finished.",
    },
    Work.BACKUP: {
        Work.BACKUP: "A backup is already being made.",
        Work.RESTORE: "Wait until the restore is finished.",
    },
    Work.RESTORE: {
        **{work: "Wait for the reply or the deletion to finish first." for work in _PERSON},
        Work.RESTORE: "A restore is already under way.",
    },
}


class Ticket:
    """A place in the gate for one piece of work; ``leave()`` gives it back (once)."""

    def __init__(self, gate: Gate, work: Work) -> None:
        self.gate = gate
        self.work = work
        self.left = False

    def leave(self) -> None:
        """Give the place back; a second call does nothing (from any thread)."""
        self.gate._leave(self)

    def __enter__(self) -> Ticket:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.leave()


class Gate:
    """Thread-safe: entered from the GUI thread and from workers alike."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._running: Counter[Work] = Counter()

    def running(self) -> frozenset[Work]:
        with self._changed:
            return frozenset(work for work, count in self._running.items() if count)

    def busy(self, *works: Work) -> bool:
        """Does any of ``works`` run now?"""
        running = self.running()
        return any(work in running for work in works)

    def enter(self, work: Work) -> Ticket:
        """A ticket for ``work``, or ``BusyError`` (one sentence) when something running
        refuses it."""
        with self._changed:
            for running in REFUSED_BY[work]:
                if self._running[running]:
                    raise BusyError(REFUSED_BY[work][running], requested=work.value,
                                    running=running.value)
            self._running[work] += 1
            return Ticket(self, work)

    def _leave(self, ticket: Ticket) -> None:
        with self._changed:
            if ticket.left:
                return
            ticket.left = True
            self._running[ticket.work] -= 1
            self._changed.notify_all()

    @contextmanager
    def hold(self, work: Work, ticket: Ticket | None = None) -> Iterator[None]:
        """Run the body as ``work``: under the caller's ``ticket`` (taken for this kind of
        work and not yet left; the caller leaves it), or entering now and leaving after."""
        if ticket is not None:
            if ticket.gate is not self or ticket.work is not work or ticket.left:
                raise AssertionError(f"{work} needs a live ticket of its own kind")
            yield
            return
        with self.enter(work):
            yield

    def wait_for_background(self, timeout: float | None = None) -> bool:
        """Wait until no librarian pass or backup runs (a restore holds the gate, so none
        starts meanwhile). False if ``timeout`` seconds passed first."""
        end = None if timeout is None else time.monotonic() + timeout
        with self._changed:
            while any(self._running[work] for work in BACKGROUND):
                left = None if end is None else end - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._changed.wait(left)
            return True
