"""A reply that outlives its server (issue 43): what arrived while the history's server was
away is kept on this device and written into the history once the server answers.

The reply streams from Anthropic; the history's server (a NAS on the home network) is
only needed to store it. When storing fails because the server cannot be reached
(``ServerAwayError``), the reply (its text, tab, status, the instant and day it came)
and the ledger line of the request that brought it are kept in the data folder
(``storage/held.py``), and the stream's end says so instead of losing them. ``write_held``
puts them in the history, each with its own instant and day and its ledger line, in one
transaction that also records their ids (``HELD_WRITTEN``): written once, whatever
crash comes between that commit and the held file's rewrite. The window calls it when the
server answers again (``monet_app/window/shared_watch.py``), a start calls it before
anything else (``ContextManager.recover_draft``).

On a SQLite file none of this applies: the file is always there, and a failure to store
is said as before.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from functools import partial
from typing import Any, Protocol

from cms.clock import day_of, parse_ts
from cms.model.ledger import UsageNote
from cms.settings import Settings
from storage import Database
from storage.database import Session
from storage.errors import ServerAwayError
from storage.held import Held
from storage.models import MessageStatus
from storage.settings import put_setting, setting_json
from storage.talk import Talk

#: The ids of the held writes stored last (a setting row), so none is stored twice.
HELD_WRITTEN = "held_written"
#: How many of those ids are remembered (far more than a window holds between answers).
REMEMBERED = 64


class Recorder(Protocol):
    """What ``Away`` uses of the context manager (which holds it: no import between them)."""

    db: Database
    settings: Settings

    def now_ts(self) -> str: ...

    def record_reply(self, text: str, tab: str, *, status: MessageStatus = ...,
                     usage: UsageNote | None = ...,
                     within: Callable[[Session], None] | None = ...,
                     at: tuple[str, str] | None = ...) -> Talk: ...

    def write_usage(self, db: Session, day: str, note: UsageNote,
                    ts: str | None = ...) -> tuple[int, dict[str, Any]]: ...


class Away:
    def __init__(self, cm: Recorder) -> None:
        self.cm = cm
        self.held = Held(cm.db.home)

    def waiting(self) -> bool:
        """Whether a reply or a ledger line waits for the server (a read of one small
        local file: on a worker)."""
        return self.cm.db.server and self.held.waiting() and bool(self.held.read()["writes"])

    def _stamp(self, day: str) -> dict[str, str]:
        """A new held write's id, instant and day (``day``: the day of the message it
        answers, as ``ContextManager._record`` would have chosen; else the clock's)."""
        ts = self.cm.now_ts()
        return {"id": uuid.uuid4().hex, "ts": ts,
                "day": day or day_of(parse_ts(ts), self.cm.settings.day_start_time)}

    def keep_reply(self, text: str, tab: str, status: MessageStatus,
                   usage: UsageNote | None, day: str) -> Talk | None:
        """Store the reply with its ledger line, or, while the server is away, keep both
        here until it answers (None: held)."""
        if not self.cm.db.server:
            return self.cm.record_reply(text, tab, status=status, usage=usage)
        stamp = self._stamp(day)
        try:  # (its id goes in with it: a commit whose answer was lost is not written twice)
            return self.cm.record_reply(text, tab, status=status, usage=usage,
                                        within=partial(_remember, ids=[stamp["id"]]))
        except ServerAwayError:
            pass
        self.held.add({**stamp, "kind": "reply", "text": text, "tab": tab,
                       "status": str(status),
                       "usage": usage.as_json() if usage is not None else None})
        return None

    def keep_usage(self, note: UsageNote, day: str) -> bool:
        """A ledger line whose request was paid for, kept while the server is away (False:
        not a server: the caller's error stands)."""
        if not self.cm.db.server:
            return False
        self.held.add({**self._stamp(day), "kind": "usage", "usage": note.as_json()})
        return True

    def write_held(self) -> list[Talk]:
        """Put what was held into the history (the replies stored, in their order); raises
        ``ServerAwayError`` while the server is still away (nothing changes)."""
        writes = self.held.read()["writes"] if self.held.waiting() else []
        if not writes or not self.cm.db.server:
            return []
        with self.cm.db.transaction() as conn:
            done = set(_written(conn))
        todo = [w for w in writes if w.get("id") not in done]
        stored: list[Talk] = []
        ids = [str(w.get("id")) for w in todo]
        for position, write in enumerate(todo):
            usage = UsageNote.from_json(write["usage"]) if write.get("usage") else None
            # each in its transaction, with the ids written so far (the last one: all)
            mark = ids[: position + 1]
            if write.get("kind") == "reply":
                stored.append(self.cm.record_reply(
                    str(write.get("text", "")), str(write.get("tab", "")),
                    status=MessageStatus(write.get("status", MessageStatus.INCOMPLETE)),
                    usage=usage, at=(str(write["ts"]), str(write["day"])),
                    within=partial(_remember, ids=mark)))
            elif usage is not None:
                with self.cm.db.transaction() as conn:
                    self.cm.write_usage(conn, str(write["day"]), usage, str(write["ts"]))
                    _remember(conn, mark)
        self.held.drop({str(w.get("id")) for w in writes})
        return stored


def _written(conn: Session) -> list[str]:
    stored = setting_json(conn, HELD_WRITTEN)
    found = json.loads(stored) if stored else []
    return [str(i) for i in found] if isinstance(found, list) else []


def _remember(conn: Session, ids: list[str]) -> None:
    kept = [i for i in _written(conn) if i not in ids] + ids
    put_setting(conn, HELD_WRITTEN, json.dumps(kept[-REMEMBERED:]))
