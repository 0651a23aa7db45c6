"""Recall: does one ``search_history`` call with the question reach the evidence?

    python benchmarks/recall.py LONGMEMEVAL_JSON [--k 5]

LONGMEMEVAL_JSON is a LongMemEval ``_s``-format file (a list of histories, each with its
``haystack_sessions``, ``haystack_dates``, ``answer_session_ids``, ``question``; evidence
turns carry ``has_answer``). Each history is stored in a fresh MONET home exactly as the
app stores talk (``commit_user_message`` / ``record_reply``, on a clock at the session's
date), then the question goes to the same search Claude's ``search_history`` tool runs.

The floor to beat is plain Okapi BM25 (k1 = 1.5, b = 0.75, lower-cased word tokens) over
the same stored messages. Printed: recall@k at turn level (an evidence turn is among the
k results) and at session level (a result comes from an answer session), for both.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import tempfile
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cms.clock import ManualClock
from cms.context.tools import query_terms
from monet_app.wiring import build_core, no_model
from storage import fts

_WORD = re.compile(r"\w+", re.UNICODE)
JST = timezone(timedelta(hours=9))


def _when(text: str) -> datetime:
    """LongMemEval's ``2023/04/25 (Tue) 18:57`` as an aware local time (UTC+9, as the
    public traces place them)."""
    day, _weekday, clock = text.split(" ")
    return datetime.strptime(f"{day} {clock}", "%Y/%m/%d %H:%M").replace(tzinfo=JST)


class PlainBM25:
    def __init__(self, docs: dict[int, str], k1: float = 1.5, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self.tokens = {i: Counter(_WORD.findall(t.lower())) for i, t in docs.items()}
        self.lengths = {i: sum(c.values()) for i, c in self.tokens.items()}
        self.avg = sum(self.lengths.values()) / max(1, len(self.lengths))
        df: Counter[str] = Counter()
        for counts in self.tokens.values():
            df.update(counts.keys())
        n = len(docs)
        self.idf = {w: math.log(1 + (n - f + 0.5) / (f + 0.5)) for w, f in df.items()}

    def top(self, query: str, k: int) -> list[int]:
        words = _WORD.findall(query.lower())
        scores: dict[int, float] = {}
        for i, counts in self.tokens.items():
            score = 0.0
            for w in words:
                f = counts.get(w, 0)
                if f:
                    norm = self.k1 * (1 - self.b + self.b * self.lengths[i] / self.avg)
                    score += self.idf[w] * f * (self.k1 + 1) / (f + norm)
            if score > 0:
                scores[i] = score
        return [i for i, _ in sorted(scores.items(), key=lambda x: (-x[1], -x[0]))[:k]]


def run_history(history: dict[str, Any], k: int) -> dict[str, bool]:
    sessions = sorted(
        zip(history["haystack_dates"], history["haystack_session_ids"],
            history["haystack_sessions"], strict=True),
        key=lambda s: _when(s[0]),
    )
    answer_sessions = set(history["answer_session_ids"])
    evidence: set[int] = set()
    in_answer_session: set[int] = set()
    docs: dict[int, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        clock = ManualClock(_when(sessions[0][0]))
        core = build_core(Path(tmp), clock=clock, summarizer="offline", model_factory=no_model)
        try:
            for date, session_id, turns in sessions:
                clock.set(_when(date))
                for turn in turns:
                    text = str(turn.get("content", "")).strip()
                    if not text:
                        continue
                    if turn["role"] == "user":
                        message = core.context.commit_user_message(text, "chat")
                    else:
                        message = core.context.record_reply(text, "chat")
                    assert message.id is not None
                    docs[message.id] = text
                    if turn.get("has_answer"):
                        evidence.add(message.id)
                    if session_id in answer_sessions:
                        in_answer_session.add(message.id)
                    clock.set(clock.now() + timedelta(seconds=30))
            with core.db.session() as session:
                monet = [hit.id for hit in fts.search_any(
                    session, query_terms(history["question"]), k)]
        finally:
            core.close()
    plain = PlainBM25(docs).top(history["question"], k)
    return {
        "monet_turn": bool(evidence & set(monet)),
        "monet_session": bool(in_answer_session & set(monet)),
        "bm25_turn": bool(evidence & set(plain)),
        "bm25_session": bool(in_answer_session & set(plain)),
        "has_turn_evidence": bool(evidence),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--k", type=int, default=5)
    args = parser.parse_args()
    histories = json.loads(args.data.read_text("utf-8"))
    totals: Counter[str] = Counter()
    with_turns = 0
    print("| # | type | MONET turn | BM25 turn | MONET session | BM25 session |")
    print("|---|---|---|---|---|---|")
    for n, history in enumerate(histories):
        result = run_history(history, args.k)
        totals.update(key for key, value in result.items() if value)
        with_turns += result["has_turn_evidence"]
        marks = ["✓" if result[k] else "·" for k in
                 ("monet_turn", "bm25_turn", "monet_session", "bm25_session")]
        print(f"| {n} | {history['question_type']} | " + " | ".join(marks) + " |", flush=True)
    count = len(histories)
    print(f"\nrecall@{args.k} over {count} histories ({with_turns} with marked evidence turns):")
    for name in ("monet", "bm25"):
        print(f"  {name:5}  turn {totals[name + '_turn']}/{with_turns}"
              f" = {totals[name + '_turn'] / max(1, with_turns):.2f}   "
              f"session {totals[name + '_session']}/{count}"
              f" = {totals[name + '_session'] / max(1, count):.2f}")


if __name__ == "__main__":
    main()
