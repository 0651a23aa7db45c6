"""The tables MONET stores.

A *thread* holds messages. In the sunset model every day is a thread created
automatically (``ThreadKind.DAY``); in the thread model the person's own threads have
``ThreadKind.TOPIC``. A *segment* is a run of consecutive exchanges that has been folded out
of the raw prompt; each segment has one *timeline entry* (a Timeline Index line) whose
``summary`` is ``None`` while it is pending. Roll-up entries (day / week / month) group
older entries through ``parent_id``. A *fold* records one rebuild that moved exchanges
into segments, so its single ``pending_resolved`` re-render can be found later.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any, TypeVar

from sqlalchemy import UniqueConstraint
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator
from sqlmodel import AutoString, Field, SQLModel


class MessageRole(StrEnum):
    """Who a stored message is from. A ``tool`` row holds one tool call and its result."""

    USER = "user"
    ASSISTANT = "assistant"
    TOOL = "tool"


class MessageStatus(StrEnum):
    COMPLETE = "complete"
    INCOMPLETE = "incomplete"  # the reply broke off or was stopped; what arrived is kept


class ThreadKind(StrEnum):
    DAY = "day"  # sunset model: one thread per day, made automatically
    TOPIC = "topic"  # thread model: the person's own threads


class FoldKind(StrEnum):
    """What moved exchanges out of the raw prompt (each logs its own ``*_fold`` event)."""

    SUNSET = "sunset"
    CEILING = "ceiling"
    EMERGENCY = "emergency"
    THREAD_SWITCH = "thread_switch"


class TimelineLevel(StrEnum):
    """A Timeline Index line: one segment, or a roll-up of older lines."""

    SEGMENT = "segment"
    DAY = "day"
    WEEK = "week"
    MONTH = "month"
    YEAR = "year"  # past years' months, once a TI holds more than a year


class MemoryKind(StrEnum):
    PREFERENCE = "preference"
    PROMISE = "promise"
    SHARED_EXPERIENCE = "shared_experience"
    ASKED_TO_REMEMBER = "asked_to_remember"
    PERSONA = "persona"
    FACT = "fact"  # something the person said about themselves or their life


class MemoryStatus(StrEnum):
    ACTIVE = "active"
    SUPERSEDED = "superseded"  # replaced by a correction; no longer sent
    CONTESTED = "contested"  # contradicts another item; shown to the person and to Claude


_E = TypeVar("_E", bound=StrEnum)


class EnumString(TypeDecorator[_E]):
    """A plain string column (the same ``VARCHAR`` as a ``str`` field) whose values come
    back as members of ``enum``. The stored text is the member's value, as before; a
    value this code does not know is returned as the plain string it is."""

    impl = AutoString
    cache_ok = True

    def __init__(self, enum: type[_E]) -> None:
        super().__init__()
        self.enum = enum

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        return value.value if isinstance(value, self.enum) else value

    def process_result_value(self, value: Any, dialect: Dialect) -> Any:
        if value is None:
            return None
        try:
            return self.enum(value)
        except ValueError:
            return value

    def result_processor(self, dialect: Dialect, coltype: Any) -> Callable[[Any], Any]:
        """``process_result_value`` as one dictionary look-up (a render reads every TI
        line's level; the layered default cost ~0.8 us a value)."""
        members = {member.value: member for member in self.enum}
        return lambda value: members.get(value, value)


class Thread(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    kind: ThreadKind = Field(index=True, sa_type=EnumString(ThreadKind))
    day: str | None = Field(default=None, index=True)  # YYYY-MM-DD for day threads
    title: str
    created_ts: str
    # The first message of this thread still sent raw; older ones were folded.
    raw_from_message_id: int = 0


class Message(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    thread_id: int = Field(foreign_key="thread.id", index=True)
    day: str = Field(index=True)
    tab: str
    tab_label: str
    role: MessageRole = Field(sa_type=EnumString(MessageRole))
    text: str
    # Exact API content for tool rows: {"call": [...assistant blocks], "result": [...]}.
    content_json: str | None = None
    ts: str  # ISO 8601 with the offset the clock gave
    token_estimate: int
    status: MessageStatus = Field(
        default=MessageStatus.COMPLETE, sa_type=EnumString(MessageStatus)
    )
    segment_id: int | None = Field(default=None, foreign_key="segment.id", index=True)
    # Forgotten: kept in the person's browsable history, never sent to Claude again (not in
    # prompts, summaries, search_history or read_day). See cms/memory/forget.py.
    hidden: bool = False
    # Drawn at random by a trigger at its insert and at any change (migrations 0011, 0012):
    # what a reader that keeps messages between turns compares (storage.talk.TalkReader).
    rev: int = Field(default=0, sa_column_kwargs={"server_default": "0"})


class Fold(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    kind: FoldKind = Field(sa_type=EnumString(FoldKind))
    day: str
    thread_id: int | None = Field(default=None, foreign_key="thread.id")
    created_ts: str
    segment_count: int
    resolved_ts: str | None = None


class Segment(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    thread_id: int = Field(foreign_key="thread.id", index=True)
    fold_id: int | None = Field(default=None, foreign_key="fold.id", index=True)
    day: str = Field(index=True)
    tab: str
    first_message_id: int
    last_message_id: int
    start_ts: str
    end_ts: str
    tokens: int


class TimelineEntry(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    level: TimelineLevel = Field(index=True, sa_type=EnumString(TimelineLevel))
    segment_id: int | None = Field(default=None, foreign_key="segment.id", index=True)
    parent_id: int | None = Field(default=None, foreign_key="timelineentry.id", index=True)
    day_from: str = Field(index=True)
    day_to: str
    start_ts: str
    end_ts: str
    tabs: str  # comma-separated tab ids
    first_message_id: int = Field(index=True)  # orders the TI (message ids follow time)
    summary: str | None = None  # None while pending
    summary_source: str | None = None  # "offline" | model name | "rollup"
    summarized_ts: str | None = None
    attempts: int = 0
    # A librarian's lease on a pending entry, so two librarians never do one job twice.
    claimed_by: str | None = None
    claimed_until: str | None = None
    last_error: str | None = None
    # Drawn at random by a trigger at its insert and at any change (migration 0012): what
    # a reader that keeps lines between renders compares (storage.timeline.LineReader).
    rev: int = Field(default=0, sa_column_kwargs={"server_default": "0"})


class Event(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    ts: str
    name: str = Field(index=True)
    detail_json: str = "{}"


class ReplyVersion(SQLModel, table=True):
    """A version of the reply to the person's message ``user_message_id`` (migration
    0018): regenerating keeps the earlier ones; ``current`` is the one the conversation
    holds as its message."""

    __tablename__ = "reply_version"
    id: int | None = Field(default=None, primary_key=True)
    user_message_id: int
    number: int
    text: str
    ts: str
    current: bool = False


class Attachment(SQLModel, table=True):
    """A file attached to the person's message ``message_id`` (migration 0019); its bytes
    are in the data folder's ``attachments/`` under ``sha256`` (and ``sent_sha256``)."""

    id: int | None = Field(default=None, primary_key=True)
    message_id: int
    position: int
    name: str
    media_type: str  # of the original
    size: int  # the original's bytes
    sha256: str
    sent_media_type: str
    sent_sha256: str
    width: int = 0
    height: int = 0
    pages: int = 0
    tokens: int = 0


class Setting(SQLModel, table=True):
    key: str = Field(primary_key=True)
    value_json: str


class PromptState(SQLModel, table=True):
    """What was rendered at the last rebuild point, so a restart sends the same body."""

    id: int = Field(default=1, primary_key=True)
    fingerprint: str = ""
    pinned_text: str = ""
    context_text: str = ""
    pinned_tokens: int = 0
    context_tokens: int = 0
    ti_text: str = ""
    # The part of ti_text sent as its own cached block; the rest is the tail (docs/design.md
    # §2): the head stays byte-identical across sunsets until a roll-up or the tail's size
    # moves it, so a sunset writes only the new lines to the cache.
    ti_head_text: str = ""
    ti_tokens: int = 0
    ti_rendered_day: str = ""
    # Timeline entry ids rendered as placeholders (JSON list): their fold's one re-render.
    ti_pending_ids_json: str = "[]"
    # The day (sunset model) or thread (thread model) the rendered prompt belongs to.
    prompt_day: str = ""
    prompt_thread_id: int | None = None
    current_day: str = ""
    current_thread_id: int | None = None
    current_tab: str = ""
    librarian_last_run_ts: str = ""
    # Bumped when the person edits or deletes what is remembered; the prompt is rebuilt
    # (memory_changed) at the next request when it differs from the rendered one.
    memory_version: int = 0
    memory_rendered: int = 0


class UsageRecord(SQLModel, table=True):
    """One request to a model (chat or librarian) with its usage and price: the ledger."""

    id: int | None = Field(default=None, primary_key=True)
    ts: str
    day: str = Field(index=True)
    purpose: str = Field(index=True)  # "chat" | "librarian" | ...
    model: str
    source: str  # "api" (reported by Anthropic) | "standin" (simulated)
    input_tokens: int
    cache_write_5m: int
    cache_write_1h: int
    cache_read: int
    output_tokens: int
    dollars: float
    estimated_input: int = 0  # our estimate of the same input, for calibration
    # a chat request's conversation breakpoint lifetime: "5m" | "1h" (migration 0020)
    turn_ttl: str = Field(default="", sa_column_kwargs={"server_default": ""})


class ContextSummary(SQLModel, table=True):
    """The librarian's daily summary of recent context (the prompt's context block)."""

    id: int | None = Field(default=None, primary_key=True)
    created_ts: str
    day: str = Field(index=True)
    text: str
    source: str  # the summarizer: a model name or "offline"
    persona_count: int
    recent_count: int


class Presummary(SQLModel, table=True):
    __table_args__ = (
        UniqueConstraint("first_message_id", "last_message_id", name="uq_presummary_run"),
    )

    """A summary the librarian wrote ahead for a closed run of talk still in the prompt
    (ended by a tab change or a pause). When a fold later cuts exactly that run into a
    segment, the segment starts summarized: no placeholder, no second re-render."""

    id: int | None = Field(default=None, primary_key=True)
    first_message_id: int = Field(index=True)
    last_message_id: int
    summary: str
    source: str
    created_ts: str


class MemoryItem(SQLModel, table=True):
    """Something MONET remembers about the person (docs/design.md §6): a fact with its source
    messages, confidence, time and expiry. Written only through the rules in
    ``cms.memory``; corrected, superseded or deleted by the person."""

    id: int | None = Field(default=None, primary_key=True)
    fact: str
    kind: MemoryKind = Field(sa_type=EnumString(MemoryKind))
    key: str = Field(index=True)  # what the fact is about, to notice corrections
    source_message_ids: str  # JSON list of message ids (the person's own messages)
    confidence: float
    created_ts: str
    expires_ts: str | None = None  # UTC ISO; None: does not expire
    status: MemoryStatus = Field(
        default=MemoryStatus.ACTIVE, index=True, sa_type=EnumString(MemoryStatus)
    )
    supersedes_id: int | None = None
