"""Recall with Claude as the librarian, the answerer and the grader (spends money).

    python benchmarks/live_recall.py LONGMEMEVAL_JSON [--histories N] [--yes]
    python benchmarks/live_recall.py LONGMEMEVAL_JSON --offline [--histories N]

Each LongMemEval history is stored through MONET as ``benchmarks/recall.py`` stores it,
but the librarian is Claude's (``librarian_model``: the Timeline Index lines, the memory
proposals, the context summary), so what the offline benchmarks cannot measure is: the
lines and memories a real model writes. The question is then asked through MONET's own
prompt and tools (``search_history``, ``read_day``) with the person's chat model, and a
grader (``librarian_model``) reads the question, the expected answer and MONET's answer
and says CORRECT or INCORRECT (an abstention question is answered correctly by saying the
history does not hold it).

Money is spent only with ``--yes``. Without it, the run is made once offline against
the stand-in server (the real SDK over HTTP; the same requests, with the stand-in's
short answers), and the estimate is printed from those exact requests: their input as
the prompt-cache simulator counts it, and an answer of typical length per kind of request
("expected"), or every input token uncached and every answer at its ``max_tokens`` ("at
most"). ``--offline`` runs the stand-in only (the plumbing, and the estimate): it needs no
key and no network. Live runs read the key as MONET does (``ANTHROPIC_API_KEY``, or the
keyring) and honour ``ANTHROPIC_BASE_URL``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import threading
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.recall import JST, store
from cms.clock import ManualClock
from cms.librarian.summarizer import SUMMARY_INSTRUCTIONS
from cms.memory.context_summary import CONTEXT_INSTRUCTIONS
from cms.memory.proposer import PROPOSAL_INSTRUCTIONS
from cms.model.pricing import dollars
from cms.model.protocol import ChatModel, RequestBody, TextDelta, Usage
from cms.settings import Settings
from monet_app.services.standin_server import StandInServer
from monet_app.services.wiring import build_core, gateway_model
from storage.models import MessageRole

GRADER_SYSTEM = (
    "You grade a personal assistant's answer to a question about the person's own past "
    "conversations. You are given the question, the expected answer and the assistant's "
    "answer. Say CORRECT if the assistant's answer gives the expected answer (other words, "
    "or more detail, are fine; for a count or a date, the value must match). When the "
    "expected answer says the information is not available, say CORRECT if the assistant "
    "says it does not know or that the history does not hold it. Otherwise INCORRECT. "
    "Reply with one word."
)
GRADER_MAX_TOKENS = 5
_KINDS = {SUMMARY_INSTRUCTIONS: "summary", PROPOSAL_INSTRUCTIONS: "proposal",
          CONTEXT_INSTRUCTIONS: "context", GRADER_SYSTEM: "grader"}
#: Typical answer lengths by kind of request, for the expected cost (tokens).
TYPICAL_ANSWER = {"summary": 40, "proposal": 250, "context": 500, "chat": 350, "grader": 2}


def kind_of(body: dict[str, Any]) -> str:
    """Which of MONET's requests a body is: the librarian's and the grader's carry their
    instructions as their one system block; a chat request carries MONET's prompt."""
    system = " ".join(b.get("text", "") for b in body.get("system", []))
    return _KINDS.get(system, "chat")


@dataclass
class Outcome:
    question_type: str
    question: str
    expected: str
    answer: str = ""
    verdict: str = "unclear"
    error: str = ""


@dataclass
class Spend:
    requests: Counter[str] = field(default_factory=Counter)
    expected: float = 0.0
    most: float = 0.0


def grader_body(model: str, outcome: Outcome) -> RequestBody:
    text = (f"Question: {outcome.question}\nExpected answer: {outcome.expected}\n\n"
            f"The assistant's answer:\n{outcome.answer or '(no answer)'}")
    return {
        "model": model, "max_tokens": GRADER_MAX_TOKENS,
        "system": [{"type": "text", "text": GRADER_SYSTEM}],
        "messages": [{"role": MessageRole.USER, "content": [{"type": "text", "text": text}]}],
    }


def verdict_of(text: str) -> str:
    found = re.search(r"\b(INCORRECT|CORRECT)\b", text.upper())
    return found.group(1).lower() if found else "unclear"


def _grade(model: ChatModel, body: RequestBody) -> str:
    pieces = [e.text for e in model.stream(body) if isinstance(e, TextDelta)]
    return verdict_of("".join(pieces))


def ask(history: dict[str, Any], grader: ChatModel, settings: Settings) -> Outcome:
    """Store ``history`` with Claude as the librarian, ask its question, grade the answer."""
    outcome = Outcome(history["question_type"], history["question"], str(history["answer"]))
    with tempfile.TemporaryDirectory() as tmp:
        clock = ManualClock(datetime.now(JST))
        core = build_core(Path(tmp), clock=clock, settings=settings,
                          model_factory=gateway_model)
        try:
            store(core, clock, history)
            core.librarian_pass()
            core.chat_model()
            result = core.runner.send(history["question"], "chat", cancel=threading.Event())
            outcome.error = result.error or ""
            outcome.answer = result.reply.text if result.reply is not None else ""
        finally:
            core.close()
    outcome.verdict = _grade(grader, grader_body(settings.librarian_model, outcome))
    return outcome


def run(histories: list[dict[str, Any]], settings: Settings) -> list[Outcome]:
    grader = gateway_model(settings)
    try:
        return [ask(history, grader, settings) for history in histories]
    finally:
        grader.close()


def estimate(server: StandInServer, settings: Settings) -> Spend:
    """What the requests the stand-in answered would cost live."""
    spend = Spend()
    for body, reported in zip(server.requests, server.reported, strict=False):
        kind = kind_of(body)
        spend.requests[kind] += 1
        model = str(body.get("model", settings.model))
        usage = Usage(input_tokens=int(reported.get("input_tokens", 0)),
                      cache_creation_input_tokens=int(
                          reported.get("cache_creation_input_tokens", 0)),
                      cache_read_input_tokens=int(reported.get("cache_read_input_tokens", 0)),
                      output_tokens=TYPICAL_ANSWER[kind])
        spend.expected += dollars(usage, model)
        total = (usage.input_tokens + usage.cache_creation_input_tokens
                 + usage.cache_read_input_tokens)
        spend.most += dollars(Usage(input_tokens=total,
                                    output_tokens=int(body.get("max_tokens", 0))), model)
    return spend


class _StandIn(StandInServer):
    """The stand-in, answering each of MONET's requests in the shape its reader expects
    (a proposal is JSON, with nothing proposed), so the dry run makes the requests a
    live run makes."""

    def answer(self, body: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
        kind = kind_of(body)
        if kind == "proposal":
            return [{"type": "text", "text": '{"memories": []}'}], "end_turn"
        if kind == "grader":
            return [{"type": "text", "text": "(stand-in)"}], "end_turn"
        return super().answer(body)


def offline(histories: list[dict[str, Any]], settings: Settings) -> tuple[list[Outcome], Spend]:
    """The run against the stand-in server (a dummy key, no network): the plumbing, and
    the requests the estimate is made from."""
    saved = {name: os.environ.get(name) for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL")}
    with _StandIn(answer_prefix="stand-in: ") as server:
        os.environ["ANTHROPIC_API_KEY"] = "sk-ant-standin-000000000000"
        os.environ["ANTHROPIC_BASE_URL"] = server.url
        try:
            outcomes = run(histories, settings)
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
        return outcomes, estimate(server, settings)


def report(outcomes: list[Outcome]) -> None:
    print("| # | type | verdict | answer |")
    print("|---|---|---|---|")
    for n, o in enumerate(outcomes):
        answer = " ".join((o.error or o.answer).split())[:90].replace("|", "/")
        print(f"| {n} | {o.question_type} | {o.verdict} | {answer} |")
    counts = Counter(o.verdict for o in outcomes)
    print(f"\ncorrect {counts['correct']}/{len(outcomes)}, incorrect {counts['incorrect']}, "
          f"unclear {counts['unclear']}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--histories", type=int, default=0, help="only the first N")
    parser.add_argument("--offline", action="store_true",
                        help="the stand-in server only: no key, no network, no money")
    parser.add_argument("--yes", action="store_true", help="spend the estimated money")
    args = parser.parse_args()
    histories = json.loads(args.data.read_text("utf-8"))
    if args.histories:
        histories = histories[: args.histories]
    settings = Settings(librarian_summarizer="claude")
    outcomes, spend = offline(histories, settings)
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(spend.requests.items()))
    print(f"{len(histories)} histories: {sum(spend.requests.values())} requests ({kinds}); "
          f"chat {settings.model}, librarian and grader {settings.librarian_model}")
    print(f"estimated cost: ${spend.expected:.2f} expected, at most ${spend.most:.2f}")
    if args.offline:
        print("\noffline (the stand-in answered; its verdicts say nothing of recall):")
        report(outcomes)
        return 0
    if not args.yes:
        print("Nothing was spent. Run again with --yes to ask Claude.")
        return 2
    report(run(histories, settings))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
