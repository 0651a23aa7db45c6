"""Summaries of folded talk written by Claude (a cheaper model), for the librarian.

The ``Summarizer`` protocol and the offline summarizer that stands in without a key are
in ``cms/summaries.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cms.grounding import grounded_sentences
from cms.model.protocol import ChatModel, Completed, RequestBody, TextDelta, Usage
from cms.summaries import OfflineSummarizer, Turn
from storage.models import MessageRole

SUMMARY_INSTRUCTIONS = (
    "You write one line for a personal conversation log's timeline. Summarize the talk below "
    "in ONE short line (at most 80 characters), in the language of the talk. Keep what the "
    "person may ask about later: numbers and counts, names, places, dates, prices and "
    "decisions, exactly as said. No preamble, no quotes, no line breaks."
)
MAX_TRANSCRIPT_CHARS = 24_000


class ClaudeSummarizer:
    """Summaries from Claude (a cheaper model) through MONET's model protocol.

    ``on_usage(usage, model)`` receives the reported usage of every call (the ledger's
    ``librarian`` rows). A failure raises, so the librarian keeps the placeholder. A
    sentence of the answer that the talk does not ground is left out."""

    def __init__(
        self,
        model: ChatModel,
        model_name: str,
        on_usage: Callable[[Usage, str], None] | None = None,
        max_tokens: int = 200,
    ) -> None:
        self.model = model
        self.name = model_name
        self.on_usage = on_usage
        self.max_tokens = max_tokens

    def close(self) -> None:
        self.model.close()

    def body(self, turns: Sequence[Turn]) -> RequestBody:
        lines = []
        for turn in turns:
            if turn.role == MessageRole.TOOL:
                continue
            who = "Person" if turn.role == MessageRole.USER else "Claude"
            lines.append(f"{who}: {turn.text.strip()}")
        transcript = "\n".join(lines)
        if len(transcript) > MAX_TRANSCRIPT_CHARS:
            half = MAX_TRANSCRIPT_CHARS // 2
            transcript = transcript[:half] + "\n…\n" + transcript[-half:]
        return {
            "model": self.name,
            "max_tokens": self.max_tokens,
            "system": [{"type": "text", "text": SUMMARY_INSTRUCTIONS}],
            "messages": [
                {
                    "role": MessageRole.USER,
                    "content": [{"type": "text", "text": transcript or "（空）"}],
                }
            ],
        }

    def summarize(self, turns: Sequence[Turn]) -> str:
        pieces: list[str] = []
        for event in self.model.stream(self.body(turns)):
            if isinstance(event, TextDelta):
                pieces.append(event.text)
            elif isinstance(event, Completed) and self.on_usage is not None:
                self.on_usage(event.usage, self.name)
        line = " ".join("".join(pieces).split())
        if not line:
            raise ValueError("the model returned an empty summary")
        # only what the talk says (cms/grounding.py); a line with nothing grounded is
        # replaced by the offline summarizer's extract of the same turns
        kept, _dropped = grounded_sentences(line[:400], [turn.text for turn in turns])
        return (kept or OfflineSummarizer().summarize(turns))[:200]
