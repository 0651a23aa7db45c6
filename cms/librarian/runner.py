"""The librarian: summarize pending Timeline Index entries, safely beside other librarians.

It writes summaries into the database only; it never touches the rendered prompt. The
context manager notices when all of a fold's placeholders have summaries and re-renders
the TI once (``pending_resolved``).

Several librarians may run at once (the app's background worker, ``monet librarian
--watch``, a scheduled ``--once``): each takes a short lease on an entry before working
on it (a conditional UPDATE), so no entry is summarized twice, and writes only while it
holds the lease. A summarizer that fails (the model is down) releases the lease and
leaves the placeholder; a later pass tries again. After ``max_attempts`` failures the
offline summarizer stands in, so no placeholder stays for ever. Leases run on the wall
clock (``lease_clock``): they coordinate real processes, whatever clock the domain uses.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from datetime import time as dt_time
from pathlib import Path

from cms.clock import Clock, day_of, parse_ts
from cms.context.core_prompt import read_core
from cms.context.events import EventName, RequestLog
from cms.context.timeline import FORGOTTEN_TEXT, cut_segments
from cms.meaning import Meaning
from cms.memory.context_summary import (
    ContextWriter,
    OfflineContextWriter,
    select_memories,
    summary_row,
    write_summary_file,
)
from cms.memory.proposer import Proposer, RuleProposer, proposal_batches
from cms.memory.rules import Candidate, active_items, admit
from cms.memory.updates import notes_for
from cms.settings import Privacy
from cms.summaries import OfflineSummarizer, Summarizer, Turn
from storage import Database, vectors
from storage import attachments as attachment_files
from storage import timeline as timeline_rows
from storage.database import Conflict, Session
from storage.errors import DatabaseError
from storage.ledger import add_event
from storage.memory import latest_context_summary_when, superseded_since
from storage.models import (
    ContextSummary,
    MemoryItem,
    Presummary,
)
from storage.prompt_state import librarian_last_run, load_prompt, set_turn_state
from storage.rows import Db, insert_row
from storage.settings import (
    MEMORY_MARK,
    UPDATES_MARK,
    delete_setting,
    put_setting,
    replace_setting,
    setting_json,
)
from storage.talk import (
    Talk,
    replies_before,
    said_after,
    talk_by_ids,
    unsegmented_messages,
    user_messages_after,
)
from storage.timeline import (
    drop_claimed_run,
    fill_claimed_run,
    pending_entries,
    pending_entry_ids,
    presummary_runs,
    talk_of_segment,
    top_level_lines,
    update_line,
)

log = logging.getLogger("monet.librarian")
LEASE_SECONDS = 300
#: Failures in a row after which a pass stops calling the model (the API is down): the
#: placeholders stay, the report says why, and passes back off (doubling, up to an hour).
BREAKER_FAILURES = 3
MAX_BACKOFF_MINUTES = 60
#: How long a pass (or the window's step after it) embeds messages at most, and how many
#: it takes at a time (64 messages of eight pieces at most: ~1.6 s on this machine), so
#: that a step ends well within the 10 s a quitting window waits for its workers.
EMBED_SECONDS = 5.0
EMBED_BATCH = 64
#: Set while the model's memory proposals fail and the offline rules propose instead.
PROPOSALS_OFFLINE = "memory_proposals_offline"
MEMORY_CLAIM = "memory_scan_claim"  # {"by": librarian, "until": wall-clock seconds}


def _turn(db: Db, message: Talk, home: Path) -> Turn:
    """A message as the summarizer reads it: with the files shown with it named (the
    summary can say what they were; the Timeline Index line lists them anyway)."""
    if message.role != "user":
        return Turn(message.role, message.text)
    files = attachment_files.described(db, [message.id])
    if not files:
        return Turn(message.role, message.text)
    shown = attachment_files.of_messages(db, home, [message.id]).get(message.id, ())
    return Turn(message.role, f"{message.text}\n{files.strip()}",
                shown)


@dataclass(frozen=True)
class ServiceElsewhere:
    """A librarian service that does a shared history's passes now (its heartbeat:
    ``monet_app/operations/librarian.py``)."""

    host: str
    last_pass: str  # ISO time its last pass ended ("" before its first)


@dataclass
class LibrarianReport:
    written: int = 0
    failed: int = 0
    skipped: int = 0  # leased by another librarian
    fallback: int = 0  # written by the offline summarizer after repeated failures
    last_error: str = ""
    context_summary: bool = False  # the daily context summary was written this pass
    ahead: int = 0  # closed runs still in the prompt, summarized before their fold
    remembered: int = 0  # memory items written from the person's messages
    noted: int = 0  # Timeline Index lines noted with a newer value the person said
    held_back: int = 0  # jobs left for a later pass because the model kept failing
    embedded: int = 0  # messages given their vectors (recall by meaning)
    unembedded: int = 0  # messages still without them (a year's history, a new model)
    service: str = ""  # left to the librarian service running there (a shared history)
    #: batches of messages whose memories the offline rules proposed: the model's failed
    proposed_offline: int = 0

    def text(self) -> str:
        if self.service:
            return f"left to the librarian service on {self.service}"
        parts = [f"summarized {self.written}"]
        if self.fallback:
            parts.append(f"{self.fallback} of them offline after repeated failures")
        if self.failed:
            parts.append(
                f"failed {self.failed} (kept as 要約作成中, retried next pass): {self.last_error}"
            )
        if self.skipped:
            parts.append(f"left {self.skipped} to another librarian")
        if self.ahead:
            parts.append(f"{self.ahead} runs summarized ahead of their fold")
        if self.remembered:
            parts.append(f"remembered {self.remembered} new things")
        if self.proposed_offline:
            parts.append(f"the offline rules proposed memories for {self.proposed_offline} "
                         f"batches: the model's proposals failed ({self.last_error})")
        if self.embedded:
            parts.append(f"embedded {self.embedded} messages for recall by meaning")
        if self.unembedded:
            parts.append(f"{self.unembedded} messages wait for their vectors")
        if self.held_back:
            parts.append(
                f"stopped calling the model after {BREAKER_FAILURES} failures in a row; "
                f"{self.held_back} jobs wait for a later pass"
            )
        if self.context_summary:
            parts.append("wrote the daily context summary")
        return ", ".join(parts)


def _utc(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, tz=UTC).isoformat()


class Librarian:
    def __init__(
        self,
        db: Database,
        summarizer: Summarizer,
        clock: Clock,
        interval_minutes: int = 5,
        *,
        fallback: Summarizer | None = None,
        max_attempts: int = 3,
        lease_clock: Callable[[], float] = time.time,
        name: str | None = None,
        context_writer: ContextWriter | None = None,
        day_start: dt_time = dt_time(4, 0),
        log: RequestLog | None = None,
        pause_minutes: int = 30,
        segment_tokens: int = 4_000,
        privacy: Callable[[], Privacy] | None = None,
        proposer: Proposer | None = None,
        meaning: Meaning | None = None,
    ) -> None:
        """``privacy``: the incognito days and tabs as they are now, asked before each
        batch of the memory scan (``Core.privacy``: the stored settings, so a day marked
        incognito in the window holds for a librarian built earlier, on a worker or in
        another process); none by default."""
        self.proposer: Proposer = proposer or RuleProposer()
        #: Embeds the messages for recall by meaning (``cms/meaning.py``); none: no vectors.
        self.meaning = meaning
        self._failures_in_row = 0  # model calls failed in a row in this pass
        self._tripped_passes = 0  # passes in a row that stopped calling the model
        self.privacy: Callable[[], Privacy] = privacy or (lambda: Privacy((), ()))
        self.pause_minutes = pause_minutes
        self.segment_tokens = segment_tokens
        self.context_writer = context_writer or OfflineContextWriter()
        self.day_start = day_start
        self.log = log
        self.db = db
        self.summarizer = summarizer
        self.fallback = fallback or OfflineSummarizer()
        self.clock = clock
        self.interval = timedelta(minutes=interval_minutes)
        self.max_attempts = max_attempts
        self.lease_clock = lease_clock
        self.name = name or f"{socket.gethostname()}:{os.getpid()}:{id(self):x}"

    def close(self) -> None:
        """Let the summarizer close its connections (a Claude summarizer's HTTP pool)."""
        self.summarizer.close()

    def due(self, *, ticking: bool = False) -> bool:
        """Is a pass due? (Asked often: one small read.) ``ticking``: asked by a timer that
        fires every interval (the window, ``--watch``), which forgives the length of the
        last pass; a replay asks at each turn's time, exactly."""
        with self.db.transaction() as conn:
            last = librarian_last_run(conn)
        if not last:
            return True
        now: datetime = self.clock.now()
        previous = parse_ts(last)
        wait = self.interval * (2 ** min(self._tripped_passes, 8))
        wait = min(wait, max(self.interval, timedelta(minutes=MAX_BACKOFF_MINUTES)))
        # (the last pass is stamped when it ended: a tick one interval after its start
        # finds it due)
        slack = min(wait / 10, timedelta(seconds=30)) if ticking else timedelta(0)
        return now - previous >= wait - slack or now < previous

    # ----- the circuit breaker ----------------------------------------------------------
    def _model_open(self, report: LibrarianReport) -> bool:
        """May this pass still call the model? Counts what waits when it may not."""
        if self._failures_in_row < BREAKER_FAILURES:
            return True
        report.held_back += 1
        return False

    def _model_failed(self, exc: Exception, report: LibrarianReport) -> None:
        self._failures_in_row += 1
        report.last_error = str(exc)

    def _model_answered(self) -> None:
        self._failures_in_row = 0

    def pending_count(self) -> int:
        with self.db.session() as session:
            return len(pending_entries(session))

    def run_once(self) -> int:
        """One pass over every pending entry. Returns how many summaries were written."""
        return self.run_pass().written

    def run_pass(self, *, embed: bool = True) -> LibrarianReport:
        """Summaries, memories, newer-value notes, the context summary and, last, with
        ``embed``, vectors for the messages that have none (``embed_messages``: the window
        runs that as a step of its own, so the new lines show first)."""
        report = LibrarianReport()
        # after a pass that stopped calling the model, this one sends a single probe: one
        # more failure opens the breaker again; an answer closes it
        self._failures_in_row = BREAKER_FAILURES - 1 if self._tripped_passes else 0
        with self.db.transaction() as conn:
            pending_ids = pending_entry_ids(conn)
        for entry_id in pending_ids:
            self._work(entry_id, report)
        self._presummarize(report)
        try:
            report.remembered = self._remember(report)
        except DatabaseError as exc:  # locked by another writer: the next pass reads again
            log.warning("memory scan skipped: %s", exc)
            report.last_error = str(exc)
        try:
            report.noted = self._note_newer_values()
        except DatabaseError as exc:  # locked by another writer: the next pass reads again
            log.warning("newer-value scan skipped: %s", exc)
        writer_may_run = not self.context_writer.uses_model or self._model_open(report)
        if writer_may_run and self.context_summary_due():
            try:
                report.context_summary = self.write_context_summary() is not None
            except Exception as exc:  # noqa: BLE001 - tried again at the next pass
                log.warning("context summary failed: %s", exc)
                self._model_failed(exc, report)
        if embed:
            self.embed_messages(report)
        self._tripped_passes = self._tripped_passes + 1 if report.held_back else 0
        if report.held_back:
            log.warning("librarian: %s", report.text())
        with self.db.transaction() as conn:
            set_turn_state(conn, librarian_last_run_ts=self.clock.now().isoformat())
        return report

    def embed_messages(self, report: LibrarianReport) -> None:
        """Vectors for the messages that have none, newest first, for at most
        ``EMBED_SECONDS``: new messages are embedded at the next pass; a year of history
        (or a change of model) over the steps that follow (the window runs them one after
        another, showing how far it is)."""
        if self.meaning is None:
            return
        deadline = time.monotonic() + EMBED_SECONDS
        try:
            while True:  # a batch at least
                done = self.meaning.embed_pending(self.db, most=EMBED_BATCH)
                report.embedded += done
                if done < EMBED_BATCH or time.monotonic() >= deadline:
                    break
            with self.db.transaction() as conn:
                done, total = vectors.progress(conn, self.meaning.model)
            report.unembedded = total - done
        except Exception as exc:  # noqa: BLE001 - a locked database, a failing encoder:
            # the pass's own work is done; the next one embeds again
            log.warning("embedding skipped: %s", exc)

    # ----- runs still in the prompt, summarized ahead -----------------------------------
    def closed_runs(self) -> list[list[Talk]]:
        """Runs of raw talk that can no longer grow: ended by a tab change, a pause longer
        than the segment pause, the day's end or the segment size. Cut exactly as a fold
        will cut them, so a later fold finds their summaries ready."""
        now = self.clock.now()
        today = day_of(now, self.day_start)
        with self.db.session() as session:
            messages = unsegmented_messages(session)
            done = presummary_runs(session, messages[0].id) if messages else set()
        by_thread: dict[int, list[Talk]] = {}
        for message in messages:
            by_thread.setdefault(message.thread_id, []).append(message)
        runs: list[list[Talk]] = []
        for thread_messages in by_thread.values():
            groups = cut_segments(thread_messages, self.pause_minutes, self.segment_tokens)
            for index, group in enumerate(groups):
                last = group[-1]
                still_open = (
                    index == len(groups) - 1
                    and last.day >= today
                    and now - parse_ts(last.ts) <= timedelta(minutes=self.pause_minutes)
                )
                if not still_open and (group[0].id, group[-1].id) not in done:
                    runs.append(group)  # (one summarized or claimed already is left out)
        return runs

    def _presummarize(self, report: LibrarianReport) -> None:
        for run in self.closed_runs():
            first, last = run[0].id, run[-1].id
            assert first is not None and last is not None
            if not self._model_open(report):
                continue  # the fold shows a placeholder; a later pass writes the line
            claimed = self._claim_run(run)
            if claimed is None:
                continue
            run = claimed
            with self.db.transaction() as conn:
                shown = [_turn(conn, m, self.db.home) for m in run if not m.hidden]
            try:
                summary = self.summarizer.summarize(shown) if shown else FORGOTTEN_TEXT
            except Exception as exc:  # noqa: BLE001 - the fold will show a placeholder
                self._drop_run(first, last)
                self._model_failed(exc, report)
                continue
            self._model_answered()
            with self.db.transaction() as conn:
                # a message deleted, hidden or folded meanwhile (the fill itself refuses a
                # fold committed by another process since): the claim is given up
                files = attachment_files.described(conn, [m.id for m in run if not m.hidden])
                if self._run_intact(conn, run) and fill_claimed_run(
                        conn, first, last, [m.id for m in run], self._claim_name,
                        (" ".join(summary.split()) or "（内容なし）") + files,
                        self.summarizer.name):
                    report.ahead += 1
                else:
                    drop_claimed_run(conn, first, last, self._claim_name)

    @property
    def _claim_name(self) -> str:
        """How this librarian marks a run it is summarizing (an empty summary)."""
        return f"claim:{self.name}"

    @staticmethod
    def _reload(db: Db, run: Sequence[Talk]) -> list[Talk]:
        return talk_by_ids(db, [m.id for m in run])

    @staticmethod
    def _run_intact(db: Db, run: Sequence[Talk]) -> bool:
        """Every message of the run still exists, is still raw, and is as visible to Claude
        as when it was summarized."""
        hidden = {m.id: m.hidden for m in run}
        rows = Librarian._reload(db, run)
        return len(rows) == len(run) and all(
            r.segment_id is None and r.hidden == hidden.get(r.id) for r in rows
        )

    def _claim_run(self, run: Sequence[Talk]) -> list[Talk] | None:
        """Claim a run for this librarian: an empty row (one per run: the table's unique
        key refuses a second). Returns the run's messages as they are now (read again in
        the claim's transaction: a forget may have come between), None when not claimed."""
        try:
            with self.db.transaction() as conn:
                insert_row(conn, Presummary, first_message_id=run[0].id,
                                   last_message_id=run[-1].id, summary="",
                                   source=self._claim_name,
                                   created_ts=self.clock.now().isoformat())
                return self._reload(conn, run)
        except Conflict:
            return None  # another librarian took it
        except DatabaseError:
            return None  # locked by another writer: tried again at the next pass

    def _drop_run(self, first: int, last: int) -> None:
        with self.db.transaction() as conn:
            drop_claimed_run(conn, first, last, self._claim_name)

    # ----- newer values -----------------------------------------------------------------
    def _note_newer_values(self) -> int:
        """Read the person's messages said since the last pass for later values of what
        an older Timeline Index line states, and note them on that line
        (``cms/memory/updates.py``). Returns how many lines were noted."""
        with self.db.transaction() as conn:
            after = int(self._setting(conn, UPDATES_MARK, "0"))
            said = user_messages_after(conn, after)
            if not said:
                return 0
            lines = top_level_lines(conn)
        private = self.privacy()  # an incognito day or tab is never quoted in a line
        rewrites = notes_for(lines, [m for m in said
                                     if m.day not in private.days and m.tab not in private.tabs])
        written = 0
        with self.db.transaction() as conn:
            # a forget may have committed since the read (another process, or the gate's
            # FORGET beside this pass): a line it rewrote is left as it is now, and a
            # message it deleted or hid is never quoted
            now_lines = {line.id: line.summary for line in top_level_lines(conn)}
            seen = {m.id for m in talk_by_ids(conn, [r.message_id for r in rewrites])
                    if not m.hidden}
            for rewrite in rewrites:
                if now_lines.get(rewrite.line_id) == rewrite.was and rewrite.message_id in seen:
                    update_line(conn, rewrite.line_id, summary=rewrite.summary)
                    written += 1
            put_setting(conn, UPDATES_MARK, str(said[-1].id))
        return written

    # ----- memories ---------------------------------------------------------------------
    def _remember(self, report: LibrarianReport) -> int:
        """Propose memories from the person's messages not yet read; the rules decide.

        One librarian at a time reads them: it takes a lease on the scan (a conditional
        update of ``memory_scan_claim``, expiring like the entries' leases). Each batch's
        memories and the scan mark move in one transaction, so a librarian killed mid-pass
        loses nothing: its lease expires and the next pass reads the same messages again.
        A proposer that fails leaves the mark where it is; after ``max_attempts`` failures
        in a row the offline proposer stands in."""
        with self.db.transaction() as conn:
            mark = setting_json(conn, MEMORY_MARK)
            if mark is not None and not said_after(conn, int(mark)):
                return 0  # nothing new said since the last scan: no lease taken
        if not self._claim_scan():
            return 0  # another librarian is reading them
        written = 0
        try:
            with self.db.transaction() as conn:
                after = int(self._setting(conn, MEMORY_MARK, "0"))
                messages = user_messages_after(conn, after)
            if self.proposer.settle_minutes and messages:
                # while the person is still talking, wait: one request reads the whole run
                settled = self.clock.now() - timedelta(minutes=self.proposer.settle_minutes)
                if parse_ts(messages[-1].ts) > settled:
                    messages = []
            for batch in proposal_batches(messages):
                private = self.privacy()
                said = [m for m in batch
                        if m.day not in private.days and m.tab not in private.tabs]
                now = self.clock.now()
                known: list[MemoryItem] = []
                if said and self.proposer.reads_known:
                    with self.db.session() as session:
                        known = active_items(session, now)
                replies: dict[int, str] = {}
                if said:
                    with self.db.transaction() as conn:
                        replies = replies_before(conn, said)
                candidates = self._proposals(said, known, replies, report)
                with self.db.session() as session:
                    if not self._holds_scan(session):
                        return written  # the lease ran out and another librarian took over
                    for candidate in candidates:
                        decision = admit(session, candidate, now, private.days,
                                         private.tabs)
                        written += decision.written
                    put_setting(session, MEMORY_MARK, str(batch[-1].id or after))
            return written
        finally:
            self._release_scan()

    def _proposals(self, said: list[Talk], known: list[MemoryItem], replies: dict[int, str],
                   report: LibrarianReport) -> list[Candidate]:
        """The proposer's candidates; when a model proposer fails (an API error, an answer
        that is not JSON, a refusal) or its model keeps failing, the offline rules
        propose in the same pass, so nothing the person asked to be remembered waits on
        the model. The failure is kept in the history (``PROPOSALS_OFFLINE``: across
        runs and processes) until the model answers again, and said by the report."""
        if not said:
            return []
        if not self.proposer.uses_model:
            return self.proposer.propose(said, known, replies)
        if self._model_open(report):
            try:
                candidates = self.proposer.propose(said, known, replies)
            except Exception as exc:  # noqa: BLE001 - the rules propose instead
                log.warning("memory proposal failed, the offline rules propose instead: %s",
                            exc)
                self._model_failed(exc, report)
                self._note_offline_proposals(str(exc) or type(exc).__name__)
            else:
                self._model_answered()
                with self.db.transaction() as conn:
                    if setting_json(conn, PROPOSALS_OFFLINE) is not None:
                        delete_setting(conn, PROPOSALS_OFFLINE)
                return candidates
        else:
            self._note_offline_proposals("the model kept failing")
        report.proposed_offline += 1
        return RuleProposer().propose(said, known, replies)

    def _note_offline_proposals(self, reason: str) -> None:
        with self.db.transaction() as conn:
            stored = setting_json(conn, PROPOSALS_OFFLINE)
            held = json.loads(stored) if stored else {}
            put_setting(conn, PROPOSALS_OFFLINE, json.dumps({
                "since": held.get("since") or self.clock.now().isoformat(),
                "batches": int(held.get("batches", 0)) + 1,
                "reason": reason[:200],
            }))

    def offline_proposals(self) -> str:
        """Why memories are proposed by the offline rules now ("" when the model
        proposes them): kept in the history across runs until the model answers."""
        with self.db.transaction() as conn:
            stored = setting_json(conn, PROPOSALS_OFFLINE)
        if not stored:
            return ""
        held = json.loads(stored)
        return (f"memories proposed by the offline rules since {str(held.get('since'))[:16]} "
                f"({held.get('batches')} batches): the model's proposals failed "
                f"({held.get('reason')})")

    @staticmethod
    def _setting(db: Db, key: str, default: str) -> str:
        """The setting as stored now (made with ``default`` if missing)."""
        stored = setting_json(db, key)
        if stored is None:
            put_setting(db, key, default)
            return default
        return stored

    def _claim_scan(self) -> bool:
        """Take the scan's lease: a compare-and-set of ``memory_scan_claim`` in one short
        transaction, refused while another librarian's lease runs."""
        now = self.lease_clock()
        try:
            with self.db.transaction() as conn:
                self._setting(conn, MEMORY_MARK, "0")
                current = self._setting(conn, MEMORY_CLAIM, "{}")
                held = json.loads(current)
                if held.get("by") not in (None, self.name) and float(held.get("until", 0)) > now:
                    return False
                mine = json.dumps({"by": self.name, "until": now + LEASE_SECONDS})
                return replace_setting(conn, MEMORY_CLAIM, current, mine)
        except (Conflict, DatabaseError):
            return False  # another librarian made the rows, or holds the write lock

    def _holds_scan(self, session: Session) -> bool:
        stored = setting_json(session, MEMORY_CLAIM)
        held = json.loads(stored) if stored is not None else {}
        until = float(held.get("until", 0))
        return bool(held.get("by") == self.name and until > self.lease_clock())

    def _release_scan(self) -> None:
        try:
            with self.db.transaction() as conn:
                stored = setting_json(conn, MEMORY_CLAIM)
                if stored is not None and json.loads(stored).get("by") == self.name:
                    put_setting(conn, MEMORY_CLAIM, "{}")
        except DatabaseError:
            pass  # the lease expires by itself

    # ----- the daily context summary ----------------------------------------------------
    def context_summary_due(self) -> bool:
        """Once a day, from the day boundary (04:00 by default) on, and again when a
        memory was superseded since the last one."""
        today = day_of(self.clock.now(), self.day_start)
        with self.db.transaction() as conn:
            latest = latest_context_summary_when(conn)
            if latest is None or latest[0] < today:
                return True
            # a newer statement superseded an older one: rewrite without the old value
            return superseded_since(conn, parse_ts(latest[1]))

    def write_context_summary(self) -> ContextSummary | None:
        """Summarize the latest 25 persona and 75 recent memories into the context block.
        Stored, written to ``context_summary.txt``; the prompt uses it from the next
        rebuild point. Nothing to summarize: nothing written."""
        now = self.clock.now()
        with self.db.transaction() as conn:
            version = load_prompt(conn).memory_version
            selection = select_memories(conn, read_core(self.db), now)
        if selection.empty:
            return None
        text = self.context_writer.write(selection)
        if not text.strip():
            return None
        row = summary_row(selection, text, self.context_writer.name, now, self.day_start)
        with self.db.session() as session:
            if load_prompt(session).memory_version != version:
                return None  # something was deleted or corrected meanwhile: next pass
            session.add(row)
            detail = {"persona": row.persona_count, "recent": row.recent_count}
            if self.log is not None:
                self.log.event(session, now.isoformat(), EventName.CONTEXT_SUMMARY_CHANGED, detail)
            else:
                add_event(
                    session, now.isoformat(), EventName.CONTEXT_SUMMARY_CHANGED, detail
                )
        write_summary_file(self.db.home, text)
        return row

    def summarize_entry(self, entry_id: int) -> bool:
        """Summarize one pending entry now (if no other librarian holds it)."""
        report = LibrarianReport()
        self._work(entry_id, report)
        return report.written == 1

    # ----- one entry --------------------------------------------------------------------
    def _claim(self, entry_id: int) -> bool:
        now = self.lease_clock()
        with self.db.transaction() as conn:
            return timeline_rows.claim(conn, entry_id, self.name, _utc(now),
                                       _utc(now + LEASE_SECONDS))

    def _release(self, entry_id: int, error: str) -> None:
        with self.db.transaction() as conn:
            timeline_rows.release(conn, entry_id, self.name, error)

    def _write(self, entry_id: int, summary: str, source: str) -> bool:
        with self.db.transaction() as conn:
            return timeline_rows.write(conn, entry_id, self.name, summary, source,
                                       self.clock.now().isoformat())

    def _work(self, entry_id: int, report: LibrarianReport) -> None:
        if not self._model_open(report):
            return  # the placeholder stays until a later pass
        if not self._claim(entry_id):
            report.skipped += 1
            return
        with self.db.transaction() as conn:
            entry = timeline_rows.segment_of(conn, entry_id)
            if entry is None:
                return
            segment_id, attempts = entry
            talk = [m for m in talk_of_segment(conn, segment_id) if not m.hidden]
            turns = [_turn(conn, m, self.db.home) for m in talk]
            files = attachment_files.described(conn, [m.id for m in talk])
        summarizer, source = self.summarizer, self.summarizer.name
        if not turns:  # every message of it was forgotten: nothing to send anywhere
            if self._write(entry_id, FORGOTTEN_TEXT, "forgotten"):
                report.written += 1
            return
        try:
            summary = summarizer.summarize(turns)
            self._model_answered()
        except Exception as exc:  # noqa: BLE001 - any failure keeps the placeholder
            self._model_failed(exc, report)
            if attempts < self.max_attempts:
                log.warning("summary of entry %s failed (attempt %s): %s", entry_id, attempts, exc)
                self._release(entry_id, f"{exc.__class__.__name__}: {exc}")
                report.failed += 1
                report.last_error = str(exc)
                return
            summary, source = self.fallback.summarize(turns), f"{self.fallback.name} (fallback)"
            report.fallback += 1
        summary = (" ".join(summary.split()) or "（内容なし）") + files
        if self._write(entry_id, summary, source):
            report.written += 1
