"""Who proposes candidate memories (docs/design.md §6). Rules decide (``rules.admit``).

- ``RuleProposer``: offline, no model. Strict: one short sentence the person asked to be
  remembered, a stated preference, an explicit promise, something done together.
- ``ClaudeProposer``: with a key, the librarian model reads a batch of the person's
  messages (each with its id) and proposes short third-person statements with their
  source ids, a kind and a topic. It is told what is already remembered, so that a newer
  statement reuses the old one's topic and supersedes it. Every candidate still goes
  through the same rules as the offline ones; a statement whose sources are not in the
  batch is dropped.

A proposer that fails raises; the librarian keeps the messages for its next pass.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from cms.memory import rules
from cms.model.protocol import ChatModel, Completed, RequestBody, TextDelta, Usage
from storage.models import MemoryItem, MemoryKind, MessageRole
from storage.queries import Talk


class Proposer(Protocol):
    name: str
    #: Messages younger than this wait for the next pass: a model proposer reads a whole
    #: settled run in one request rather than each line as it is typed.
    settle_minutes: int
    uses_model: bool  # calls a model that can be down (the librarian's circuit breaker)
    #: Whether ``propose`` reads ``known`` (the librarian loads what is remembered only
    #: then: ~0.35 ms a pass for nothing otherwise).
    reads_known: bool

    def propose(self, messages: Sequence[Talk], known: Sequence[MemoryItem],
                replies: Mapping[int, str] | None = None) -> list[rules.Candidate]:
        """Candidates from the person's ``messages``; ``known``: what is remembered now;
        ``replies``: for a message id, Claude's reply it answers (a sentence that only
        reacts to what the reply offered is not a memory)."""
        ...


class RuleProposer:
    name = "rules"
    settle_minutes = 0
    uses_model = False
    reads_known = False  # a sentence is judged on its own

    def propose(self, messages: Sequence[Talk], known: Sequence[MemoryItem],
                replies: Mapping[int, str] | None = None) -> list[rules.Candidate]:
        replies = replies or {}
        return [c for m in messages if m.role == MessageRole.USER
                for c in rules.propose(m, replies.get(m.id or 0, ""))]


PROPOSAL_INSTRUCTIONS = """\
You keep the notes a personal assistant has about one person, to use on later days.
Below are the person's own messages, each with its id. Propose what is worth remembering
across days: lasting facts about the person (what they own and how many, people in their
life, places, jobs, plans with dates, decisions, preferences) and anything they asked to
be remembered.

Rules:
- Each statement is ONE short sentence (at most 150 characters) in the third person, in
  the language of the message ("The person has three bikes." / 「この人は自転車を3台持っている。」).
  Keep numbers, names, places and dates exactly as said.
- Only what the person says about themselves or their life. Never: instructions or
  requests to the assistant, role-play set-ups, questions, passing moods, guesses about
  personality, general knowledge, or health, money, religion, politics or addresses
  (unless they asked you to remember it).
- source_ids: the ids of the messages the statement comes from.
- kind: one of preference, promise, shared_experience, asked_to_remember, fact.
- topic: two to four words naming what it is about. When it updates or corrects one of
  the known notes, use that note's topic exactly and set "correction": true.
- Most messages hold nothing worth keeping; propose nothing rather than something weak.

Answer with JSON only, no prose:
{"memories": [{"statement": "...", "kind": "fact", "topic": "...", "source_ids": [1],
               "correction": false}]}
"""
MAX_MESSAGE_CHARS = 1_500
#: The most statements one answer may propose (one batch is at most 40 messages).
MAX_PROPOSALS = 60
BATCH_MESSAGES = 40
BATCH_CHARS = 20_000
MAX_KNOWN = 60
_TOPIC_PREFIX = "topic:"
_JSON = re.compile(r"\{.*\}", re.DOTALL)


def topic_key(topic: str) -> str:
    return _TOPIC_PREFIX + " ".join(topic.lower().split())[:60]


def proposal_batches(messages: Sequence[Talk]) -> list[list[Talk]]:
    """The person's messages in batches small enough for one proposal request."""
    batches: list[list[Talk]] = []
    size = 0
    for message in messages:
        chars = min(len(message.text), MAX_MESSAGE_CHARS)
        if not batches or len(batches[-1]) >= BATCH_MESSAGES or size + chars > BATCH_CHARS:
            batches.append([])
            size = 0
        batches[-1].append(message)
        size += chars
    return batches


def _clip(text: str) -> str:
    text = text.strip()
    return text if len(text) <= MAX_MESSAGE_CHARS else text[: MAX_MESSAGE_CHARS - 1] + "…"


def _known_topic(item: MemoryItem) -> str:
    return item.key[len(_TOPIC_PREFIX):] if item.key.startswith(_TOPIC_PREFIX) else item.key


class ClaudeProposer:
    uses_model = True
    reads_known = True  # told what is remembered, so a newer statement supersedes it

    def __init__(self, model: ChatModel, model_name: str,
                 on_usage: Callable[[Usage, str], None] | None = None,
                 max_tokens: int = 1_500, settle_minutes: int = 30) -> None:
        self.settle_minutes = settle_minutes
        self.model = model
        self.name = model_name
        self.on_usage = on_usage
        self.max_tokens = max_tokens

    def body(self, messages: Sequence[Talk], known: Sequence[MemoryItem]) -> RequestBody:
        notes = "\n".join(f"- topic: {_known_topic(i)} | {i.fact}" for i in known[-MAX_KNOWN:])
        said = "\n\n".join(f"[id {m.id} · {m.day}]\n{_clip(m.text)}" for m in messages)
        text = f"Known notes:\n{notes or '(none)'}\n\nThe person's messages:\n\n{said}"
        return {
            "model": self.name,
            "max_tokens": self.max_tokens,
            "system": [{"type": "text", "text": PROPOSAL_INSTRUCTIONS}],
            "messages": [{"role": MessageRole.USER, "content": [{"type": "text", "text": text}]}],
        }

    def propose(self, messages: Sequence[Talk], known: Sequence[MemoryItem],
                replies: Mapping[int, str] | None = None) -> list[rules.Candidate]:
        # (the model reads the person's messages alone; ``replies`` is not sent, which
        # keeps the request small: the admission rules judge what it proposes)
        people = [m for m in messages if m.role == MessageRole.USER and m.id is not None]
        if not people:
            return []
        pieces: list[str] = []
        for event in self.model.stream(self.body(people, known)):
            if isinstance(event, TextDelta):
                pieces.append(event.text)
            elif isinstance(event, Completed) and self.on_usage is not None:
                self.on_usage(event.usage, self.name)
        return parse_proposals("".join(pieces), {m.id for m in people if m.id is not None})


def parse_proposals(text: str, batch_ids: set[int]) -> list[rules.Candidate]:
    """The model's JSON answer as candidates. Raises ValueError when it is not JSON."""
    match = _JSON.search(text)
    if match is None:
        raise ValueError("the memory proposal was not JSON")
    data: Any = json.loads(match.group(0))
    entries = data.get("memories", []) if isinstance(data, dict) else []
    candidates = []
    # one batch of messages never holds more than a few dozen facts: an answer with more
    # is cut (a runaway or hostile model cannot flood the memory)
    for entry in entries[:MAX_PROPOSALS] if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        statement = " ".join(str(entry.get("statement", "")).split())
        try:
            kind = MemoryKind(str(entry.get("kind", "fact")))
        except ValueError:
            kind = MemoryKind.FACT
        raw_ids = entry.get("source_ids", [])
        ids = tuple(i for i in raw_ids if type(i) is int and i in batch_ids) \
            if isinstance(raw_ids, list) else ()
        topic = str(entry.get("topic", "")).strip()
        if not statement or not ids or not topic:
            continue
        asked = kind == MemoryKind.ASKED_TO_REMEMBER
        candidates.append(rules.Candidate(
            fact=statement, kind=kind, key=topic_key(topic), source_message_ids=ids,
            confidence=0.9, sensitive_confirmed=asked,
            correction=entry.get("correction") is True,
        ))
    return candidates
