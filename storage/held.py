"""What a history on a server could not take while it was away (issue 43): kept on this
device until the server answers again.

A reply streams from Anthropic, not from the history's server: when the server goes away
meanwhile (a NAS rebooting, Wi-Fi dropping), the reply goes on, and what arrived is kept
here instead of being lost. Two things are kept, in ``held.json`` in the data folder
(0600, as every file of MONET's; replaced whole and synced, so a crash leaves the old
file or the new one):

- ``draft``: the reply while it streams (on a server the draft is always this device's:
  no round trip a second, and another device's start never takes it as its own);
- ``writes``: what the reply's end would have stored: the reply itself (text, tab,
  status, the instant and day it came) and its ledger line, or a ledger line alone (a
  request paid for whose reply could not be stored). Each has an ``id``; the transaction
  that writes it also records the id in the history (``cms/context/manager.py``,
  ``write_held``), so a crash between that commit and this file's rewrite never writes
  it twice.

The file is measured before it is read (``read_measured``): a reply is bounded by its
``max_tokens``, so a held file larger than ``HELD_LIMIT`` is not MONET's and is refused.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from pathlib import Path
from typing import Any

from storage.files import NotAFile, TooLarge, read_measured, write_text_atomic

log = logging.getLogger(__name__)
HELD_FILE = "held.json"
#: The most a held file may be: a few replies of 128k tokens each, with room to spare.
HELD_LIMIT = 16 * 1024 * 1024


class Held:
    """The held file of one data folder."""

    def __init__(self, home: Path) -> None:
        self.path = home / HELD_FILE

    def waiting(self) -> bool:
        """Whether anything is held (one ``stat``)."""
        return self.path.is_file()

    def read(self) -> dict[str, Any]:
        """What is held: ``{"draft": {...} | None, "writes": [...]}``; an unreadable or
        foreign file reads as nothing held and is moved aside (``held.json.unreadable``,
        for a person to see), never overwritten."""
        try:
            found = json.loads(read_measured(self.path, HELD_LIMIT, "held reply"))
        except FileNotFoundError:
            found = {}
        except (OSError, ValueError, NotAFile, TooLarge) as exc:
            found = {}
            aside = self.path.with_name(f"{HELD_FILE}.unreadable")
            log.error("%s cannot be read (%s); moved to %s, left for a person to see",
                      self.path, exc, aside.name)
            with contextlib.suppress(OSError):
                os.replace(self.path, aside)
        if not isinstance(found, dict):
            found = {}
        writes = found.get("writes")
        draft = found.get("draft")
        return {"draft": draft if isinstance(draft, dict) else None,
                "writes": [w for w in writes if isinstance(w, dict)]
                if isinstance(writes, list) else []}

    def _write(self, held: dict[str, Any]) -> None:
        if held["draft"] is None and not held["writes"]:
            self.path.unlink(missing_ok=True)
            return
        write_text_atomic(self.path, json.dumps(held, ensure_ascii=False))

    def put_draft(self, draft: dict[str, Any] | None) -> None:
        held = self.read()
        if held["draft"] != draft:
            held["draft"] = draft
            self._write(held)

    def add(self, write: dict[str, Any]) -> None:
        """Keep one write (the reply, or a ledger line) until the server answers; the
        reply's draft goes with it (it is in the write now)."""
        held = self.read()
        held["writes"].append(write)
        held["draft"] = None
        self._write(held)

    def drop(self, ids: set[str]) -> None:
        """The writes of ``ids`` are in the history now."""
        held = self.read()
        held["writes"] = [w for w in held["writes"] if w.get("id") not in ids]
        self._write(held)
