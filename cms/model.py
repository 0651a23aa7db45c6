"""The one narrow protocol for "the model", and the stand-in that replays a trace.

A model takes a request body (the exact keyword arguments of ``messages.stream``) and
yields events: pieces of text, tool calls, and one final ``Completed`` with the usage.
The Anthropic gateway and ``StandInModel`` both satisfy it, so a replay runs the same
code path that talks to Claude.
"""

from __future__ import annotations

import hashlib
import json
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from cms.tokens import TokenEstimator

if TYPE_CHECKING:
    from cms.cache_sim import PromptCacheSimulator


@dataclass(frozen=True)
class Usage:
    input_tokens: int = 0
    cache_creation_input_tokens: int = 0
    cache_read_input_tokens: int = 0
    output_tokens: int = 0
    cache_creation_5m: int = 0
    cache_creation_1h: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "input_tokens": self.input_tokens,
            "cache_creation_input_tokens": self.cache_creation_input_tokens,
            "cache_read_input_tokens": self.cache_read_input_tokens,
            "output_tokens": self.output_tokens,
            "cache_creation": {
                "ephemeral_5m_input_tokens": self.cache_creation_5m,
                "ephemeral_1h_input_tokens": self.cache_creation_1h,
            },
        }


@dataclass(frozen=True)
class TextDelta:
    text: str


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    input: dict[str, Any]


@dataclass(frozen=True)
class Completed:
    stop_reason: str
    usage: Usage
    content: list[dict[str, Any]] = field(default_factory=list)


ModelEvent = TextDelta | ToolCall | Completed


class ChatModel(Protocol):
    def stream(self, body: Mapping[str, Any]) -> Iterator[ModelEvent]: ...


class ModelError(Exception):
    """A failed model call. ``retryable`` says whether trying again later may help."""

    def __init__(self, message: str, *, retryable: bool = False) -> None:
        super().__init__(message)
        self.retryable = retryable


class PromptTooLongError(ModelError):
    """The API answered that the prompt does not fit the context window."""


def body_text_tokens(estimator: TokenEstimator, body: Mapping[str, Any]) -> int:
    """A token estimate for a whole request body (tools, system, messages)."""
    parts: list[str] = [json.dumps(body.get("tools", []), ensure_ascii=False)]
    system = body.get("system", [])
    if isinstance(system, str):
        parts.append(system)
    else:
        parts.extend(str(b.get("text", "")) for b in system)
    for message in body.get("messages", []):
        content = message["content"]
        if isinstance(content, str):
            parts.append(content)
            continue
        for block in content:
            if block.get("type") == "text":
                parts.append(block["text"])
            else:
                parts.append(json.dumps(block, ensure_ascii=False))
    return sum(estimator.count(p) for p in parts)


@dataclass
class ScriptedReply:
    text: str
    recall: str | None = None
    recall_done: bool = False


class StandInModel:
    """Answers with the trace's replies. A turn with ``recall`` first calls
    ``search_history`` with that query, then answers once the tool result is in."""

    usage_source = "standin"

    def __init__(
        self,
        estimator: TokenEstimator,
        chunk_chars: int = 400,
        *,
        cache: PromptCacheSimulator | None = None,
        now: Callable[[], datetime] | None = None,
    ) -> None:
        """With ``cache`` and ``now``, usage is priced as Anthropic's prompt cache would;
        without, all input is reported uncached."""
        self.estimator = estimator
        self.chunk_chars = chunk_chars
        self.cache = cache
        self.now = now
        self._script: deque[ScriptedReply] = deque()
        self.calls = 0

    def expect(self, text: str, recall: str | None = None) -> None:
        self._script.append(ScriptedReply(text=text, recall=recall))

    def stream(self, body: Mapping[str, Any]) -> Iterator[ModelEvent]:
        self.calls += 1
        if not self._script:
            raise ModelError("The stand-in model has no scripted reply for this turn.")
        script = self._script[0]
        if script.recall and not script.recall_done:
            script.recall_done = True
            digest = hashlib.sha256(
                f"{script.recall}|{len(body['messages'])}".encode()
            ).hexdigest()[:20]
            call = ToolCall(
                id=f"toolu_{digest}", name="search_history", input={"query": script.recall, "limit": 5}
            )
            yield call
            block = {"type": "tool_use", "id": call.id, "name": call.name, "input": call.input}
            usage = self._usage(body, self.estimator.count(json.dumps(block)))
            yield Completed("tool_use", usage, [block])
            return
        self._script.popleft()
        text = script.text
        for start in range(0, len(text), self.chunk_chars):
            yield TextDelta(text[start : start + self.chunk_chars])
        usage = self._usage(body, self.estimator.count(text))
        content = [{"type": "text", "text": text}] if text else []
        yield Completed("end_turn", usage, content)

    def _usage(self, body: Mapping[str, Any], output_tokens: int) -> Usage:
        if self.cache is not None and self.now is not None:
            return self.cache.usage(body, self.now(), output_tokens)
        return Usage(
            input_tokens=body_text_tokens(self.estimator, body), output_tokens=output_tokens
        )
