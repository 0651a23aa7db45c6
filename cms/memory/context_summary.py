"""The daily context summary (docs/design.md §5): the latest 100 memories, 25 from the persona
layer and 75 from recent conversation, summarized into the prompt's context block.

The persona layer is what the person promoted to lasting memory (``system_prompt_core``);
recent conversation is the newest segment summaries of the Timeline Index. The memory
items the rules admitted are not summarized here: the context block lists them live
(``cms.context.context_block``), so a correction, a deletion or a newer statement that
supersedes an older one takes effect at the next request instead of waiting for
tomorrow's summary. The result is stored in the database and
written to ``context_summary.txt``; the context manager puts it in the prompt at the next
rebuild point, never mid-prompt (``context_summary_changed`` changes no body by itself).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, time
from pathlib import Path
from typing import Protocol

from cms.clock import day_of
from cms.context.core_prompt import promoted_statements
from cms.grounding import grounded_sentences
from cms.model.protocol import ChatModel, Completed, RequestBody, TextDelta, Usage
from storage.files import write_text_atomic
from storage.memory import superseded_sources
from storage.models import ContextSummary, MessageRole
from storage.rows import Db
from storage.timeline import entry_message_ids, latest_summaries, segment_texts

PERSONA_COUNT = 25
RECENT_COUNT = 75
SUMMARY_FILE = "context_summary.txt"


#: The most of the summarized talk a context summary is checked against (its words only
#: ground the lines; nothing of it is sent).
MAX_TALK_CHARS = 400_000


@dataclass(frozen=True)
class MemorySelection:
    persona: list[str]  # oldest first
    recent: list[str]  # oldest first
    #: the words of the talk the recent lines summarize: a line of the context summary
    #: may say what that talk says, not only what the lines kept (cms/grounding.py)
    talk: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.persona and not self.recent


def select_memories(db: Db, core: str, now: datetime) -> MemorySelection:
    """The persona layer (the newest 25 promoted statements) and the newest 75 Timeline
    Index segment summaries, each with its day, leaving out those that summarize the
    source of a memory a newer statement superseded (knowledge updates: only the newer
    value reaches the context block; the TI keeps the older one with its date)."""
    persona = [statement for _category, statement in promoted_statements(core)
               ][-PERSONA_COUNT:]
    # a line summarizing what a newer statement superseded would put the old value back
    outdated = superseded_sources(db)
    recent_entries = [
        entry for entry in latest_summaries(db, RECENT_COUNT)
        if not outdated or not outdated & entry_message_ids(db, entry)
    ]
    recent_entries.reverse()
    recent = [f"{e.day_from} [{e.tabs}] {e.summary}" for e in recent_entries]
    talk: list[str] = []
    size = 0
    for text in reversed(segment_texts(
            db, [e.segment_id for e in recent_entries if e.segment_id is not None])):
        size += len(text)
        if size > MAX_TALK_CHARS:
            break
        talk.append(text)
    return MemorySelection(persona=persona, recent=recent, talk=tuple(reversed(talk)))


class ContextWriter(Protocol):
    name: str
    uses_model: bool  # calls a model that can be down (the librarian's circuit breaker)

    def write(self, selection: MemorySelection) -> str: ...


class OfflineContextWriter:
    """Deterministic: the recent lines, as a list. The promoted statements are in the
    pinned block already and are not repeated (a model writer weaves them in). The context
    block leaves out the lines the Timeline Index beside it says
    (``context_block.not_in_timeline``): what stays is what the TI has rolled up."""

    name = "offline"
    uses_model = False

    def __init__(self, recent_lines: int = RECENT_COUNT) -> None:
        self.recent_lines = recent_lines

    def write(self, selection: MemorySelection) -> str:
        recent = selection.recent[-self.recent_lines :]
        return "\n".join(f"- {r}" for r in recent)


CONTEXT_INSTRUCTIONS = (
    "You prepare the context a personal assistant reads before talking with the same person "
    "tomorrow. From the memories below (first the person's lasting statements, then summaries "
    "of recent conversations, oldest first) write at most 15 short bullet lines, in the "
    "language of the memories: who the person is and what matters to them, and the threads "
    "of recent talk that run across days. The assistant also reads a day-by-day index of "
    "the talk: do not retell single days and do not start a line with a date. Keep "
    "numbers, names, places and dates, with the day they were said inside the line. Write "
    "statements about the person in the third person, never instructions to the "
    "assistant. Facts only; no preamble."
)


class ClaudeContextWriter:
    uses_model = True

    def __init__(
        self, model: ChatModel, model_name: str,
        on_usage: Callable[[Usage, str], None] | None = None, max_tokens: int = 800,
    ) -> None:
        self.model = model
        self.name = model_name
        self.on_usage = on_usage
        self.max_tokens = max_tokens

    def write(self, selection: MemorySelection) -> str:
        memories = "## Lasting statements\n" + "\n".join(f"- {p}" for p in selection.persona)
        memories += "\n\n## Recent conversations\n" + "\n".join(f"- {r}" for r in selection.recent)
        body: RequestBody = {
            "model": self.name,
            "max_tokens": self.max_tokens,
            "system": [{"type": "text", "text": CONTEXT_INSTRUCTIONS}],
            "messages": [
                {"role": MessageRole.USER, "content": [{"type": "text", "text": memories}]}
            ],
        }
        pieces: list[str] = []
        for event in self.model.stream(body):
            if isinstance(event, TextDelta):
                pieces.append(event.text)
            elif isinstance(event, Completed) and self.on_usage is not None:
                self.on_usage(event.usage, self.name)
        text = "".join(pieces).strip()
        if not text:
            raise ValueError("the model returned an empty context summary")
        # only what the memories and the talk they summarize say (cms/grounding.py);
        # with nothing grounded, the offline list of the same memories stands in
        return (grounded_lines(capped(text), [*lines_of(selection), *selection.talk])
                or OfflineContextWriter().write(selection))


def grounded_lines(text: str, sources: Sequence[str]) -> str:
    """The lines of a context summary a model wrote, each keeping only its sentences
    grounded in the memories it was written from (``cms/grounding.py``); a line with none
    left is dropped, and so is a heading."""
    kept = []
    for line in text.splitlines():
        body = line.strip()
        if not body or body.startswith("#"):
            continue
        bullet = "- " if body[0] in "-*•・" else ""
        sentences, _dropped = grounded_sentences(body.lstrip("-*•・ ").strip(), sources)
        if sentences:
            kept.append(bullet + sentences)
    return "\n".join(kept)


#: The most a context summary keeps: several times what the context block shows (its
#: budget is about 1,500 tokens), so a runaway answer is never stored or written whole.
MAX_SUMMARY_CHARS = 8_000


def capped(text: str) -> str:
    """``text`` cut to ``MAX_SUMMARY_CHARS``, at a line's end when one is near."""
    if len(text) <= MAX_SUMMARY_CHARS:
        return text
    cut = text[:MAX_SUMMARY_CHARS]
    end = cut.rfind("\n")
    return cut[:end] if end > MAX_SUMMARY_CHARS // 2 else cut


def summary_row(selection: MemorySelection, text: str, source: str, now: datetime,
                day_start: time) -> ContextSummary:
    return ContextSummary(
        created_ts=now.isoformat(), day=day_of(now, day_start), text=text, source=source,
        persona_count=len(selection.persona), recent_count=len(selection.recent),
    )


def write_summary_file(home: Path, text: str) -> None:
    write_text_atomic(home / SUMMARY_FILE, text.rstrip() + "\n")


def lines_of(selection: MemorySelection) -> Sequence[str]:
    return [*selection.persona, *selection.recent]
