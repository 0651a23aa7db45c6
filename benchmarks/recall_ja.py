"""Japanese recall by natural questions: MRR@5 of MONET's search against BM25 baselines.

    python benchmarks/recall_ja.py [--k 5]

The public trace ``rpc-pair-ja`` (RealPersonaChat) is stored as MONET stores it, and each
of the 60 questions of ``tests/data/search/ja_questions.py`` (written by a helper who
never saw the search; casual wording, kana for kanji, short keyword queries, 11 on a word
written in kana only) is asked with no other context, of the word search alone and of
Claude's whole search (the messages embedded as the librarian embeds them). The answer
is one message; printed for each method: MRR@k (the mean of 1/rank of that message
within the first k, 0 when absent) and hits@k. The baselines rank the same messages by
Okapi BM25 (k1 = 1.5, b = 0.75) over character bigrams and over character trigrams of the
NFKC text (the usual way to search Japanese without a dictionary).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import unicodedata
from collections import Counter
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.recall import OkapiBM25
from cms.clock import ManualClock, parse_ts
from cms.context.tools import recall
from monet_app.services.wiring import Core, build_core, no_model
from tests.data.search.ja_questions import QUESTIONS

TRACE = ROOT / "tests" / "data" / "traces" / "rpc-pair-ja.jsonl"
_SKIP = re.compile(r"[\s、。！？!?「」『』（）()・…ー〜~,.]+")


def grams(text: str, n: int) -> list[str]:
    text = _SKIP.sub(" ", unicodedata.normalize("NFKC", text).lower())
    return [piece[i:i + n] for piece in text.split() for i in range(len(piece) - n + 1)]


def stored(home: Path, lines: list[dict[str, Any]]
           ) -> tuple[Core, dict[tuple[int, str], int], dict[int, str]]:
    """A trace's exchanges stored in ``home`` as MONET stores them, each on its time (the
    reply 20 s later): the core, the message id of each (line, "user" | "assistant"),
    and each message's text."""
    clock = ManualClock(parse_ts(lines[0]["ts"]))
    core = build_core(home, clock=clock, summarizer="offline", model_factory=no_model)
    docs: dict[int, str] = {}
    ids: dict[tuple[int, str], int] = {}
    for index, line in enumerate(lines):
        if "user" not in line:
            continue
        clock.set(parse_ts(line["ts"]))
        said = core.context.commit_user_message(line["user"], line.get("tab", "chat"))
        clock.set(clock.now() + timedelta(seconds=20))
        reply = core.context.record_reply(line["assistant"], line.get("tab", "chat"))
        for field, message in (("user", said), ("assistant", reply)):
            assert message.id is not None
            ids[(index, field)] = message.id
            docs[message.id] = message.text
    return core, ids, docs


def _rank(found: list[int], wanted: int) -> float:
    return 1.0 / (found.index(wanted) + 1) if wanted in found else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--show", action="store_true", help="each question's ranks")
    args = parser.parse_args()
    lines = [json.loads(line) for line in TRACE.read_text("utf-8").splitlines()]
    with tempfile.TemporaryDirectory() as tmp:
        core, ids, docs = stored(Path(tmp), lines)
        core.meaning.embed_pending(core.db)  # as the librarian does
        methods = {"bigram BM25": OkapiBM25(docs, lambda text: grams(text, 2)),
                   "trigram BM25": OkapiBM25(docs, lambda text: grams(text, 3))}
        totals: Counter[str] = Counter()
        hits: Counter[str] = Counter()
        with core.db.session() as session:
            for question, index, field, part in QUESTIONS:
                wanted = ids[(index, field)]
                assert part in docs[wanted], (question, part)
                ranked = {
                    "MONET, words": [h.id for h in recall(session, question, args.k)],
                    "MONET, words + meaning": [h.id for h in recall(
                        session, question, args.k, meaning=core.meaning)],
                }
                ranked.update({name: m.top(question, args.k) for name, m in methods.items()})
                for name, found in ranked.items():
                    totals[name] += _rank(found, wanted)
                    hits[name] += wanted in found
                if args.show:
                    marks = "  ".join(f"{name} {_rank(found, wanted):.2f}"
                                      for name, found in ranked.items())
                    print(f"{marks}  {question}")
        core.close()
    count = len(QUESTIONS)
    print(f"{count} questions, {len(docs)} messages, k = {args.k}")
    print("| method | MRR@k | hits@k |")
    print("|---|---|---|")
    for name in ("MONET, words", "MONET, words + meaning", *methods):
        print(f"| {name} | {totals[name] / count:.3f} | {hits[name]}/{count} |")


if __name__ == "__main__":
    main()
