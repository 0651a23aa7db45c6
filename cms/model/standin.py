"""The stand-in model: answers with a trace's replies through the same code path as Claude.

It satisfies ``cms.model.protocol.ChatModel``; with a ``PromptCacheSimulator`` it reports
usage as Anthropic's prompt cache would (``docs/anthropic-caching.md``).
"""

from __future__ import annotations

import hashlib
import json
from collections import deque
from collections.abc import Callable, Generator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cms.model.cache_sim import PromptCacheSimulator
from cms.model.errors import ModelError
from cms.model.protocol import (
    Completed,
    ModelEvent,
    RequestBody,
    TextDelta,
    ToolCall,
    Usage,
    body_text_tokens,
)
from cms.tokens import TokenEstimator


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

    def close(self) -> None:
        """Nothing to release."""

    def stream(self, body: RequestBody) -> Generator[ModelEvent, None, None]:
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
                id=f"toolu_{digest}",
                name="search_history",
                input={"query": script.recall, "limit": 5},
            )
            yield call
            block: dict[str, Any] = {
                "type": "tool_use", "id": call.id, "name": call.name, "input": call.input
            }
            usage = self._usage(body, self.estimator.count(json.dumps(block)))
            yield Completed("tool_use", usage, [block])
            return
        self._script.popleft()
        text = script.text
        for start in range(0, len(text), self.chunk_chars):
            yield TextDelta(text[start : start + self.chunk_chars])
        usage = self._usage(body, self.estimator.count(text))
        content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
        yield Completed("end_turn", usage, content)

    def _usage(self, body: RequestBody, output_tokens: int) -> Usage:
        if self.cache is not None and self.now is not None:
            return self.cache.usage(body, self.now(), output_tokens)
        return Usage(
            input_tokens=body_text_tokens(self.estimator, body), output_tokens=output_tokens
        )
