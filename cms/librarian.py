"""The librarian in its minimal form: summarize pending Timeline Index entries.

It writes summaries into the database only; it never touches the rendered prompt. The
context manager notices when all of a fold's placeholders have summaries and re-renders
the TI once (``pending_resolved``). Each entry is claimed with a conditional update, so
two librarians on one database never write the same line twice.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import update
from sqlmodel import col

from cms.clock import Clock, parse_ts
from cms.summarizer import Summarizer, Turn
from storage import Database, queries
from storage.models import PromptState, TimelineEntry


class Librarian:
    def __init__(
        self, db: Database, summarizer: Summarizer, clock: Clock, interval_minutes: int = 5
    ) -> None:
        self.db = db
        self.summarizer = summarizer
        self.clock = clock
        self.interval = timedelta(minutes=interval_minutes)

    def due(self) -> bool:
        with self.db.session() as session:
            last = queries.prompt_state(session).librarian_last_run_ts
        if not last:
            return True
        now: datetime = self.clock.now()
        previous = parse_ts(last)
        return now - previous >= self.interval or now < previous

    def run_once(self) -> int:
        """Summarize every pending entry. Returns how many summaries were written."""
        written = 0
        with self.db.session() as session:
            pending_ids = [e.id for e in queries.pending_entries(session) if e.id is not None]
        for entry_id in pending_ids:
            if self._summarize(entry_id):
                written += 1
        with self.db.session() as session:
            state = session.get(PromptState, 1) or queries.prompt_state(session)
            state.librarian_last_run_ts = self.clock.now().isoformat()
            session.add(state)
        return written

    def _summarize(self, entry_id: int) -> bool:
        with self.db.session() as session:
            entry = session.get(TimelineEntry, entry_id)
            if entry is None or entry.summary is not None or entry.segment_id is None:
                return False
            messages = queries.messages_of_segment(session, entry.segment_id)
            turns = [Turn(role=m.role, text=m.text) for m in messages]
        summary = self.summarizer.summarize(turns).replace("\n", " ").strip() or "（内容なし）"
        with self.db.session() as session:
            claimed = session.exec(
                update(TimelineEntry)
                .where(col(TimelineEntry.id) == entry_id, col(TimelineEntry.summary).is_(None))
                .values(
                    summary=summary,
                    summary_source=self.summarizer.name,
                    summarized_ts=self.clock.now().isoformat(),
                    attempts=TimelineEntry.attempts + 1,
                )
            )
            return bool(claimed.rowcount)
