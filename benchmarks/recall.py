"""Recall: is the evidence in the prompt, or does one ``search_history`` call reach it?

    python benchmarks/recall.py LONGMEMEVAL_JSON [--k 5]

LONGMEMEVAL_JSON is a LongMemEval ``_s``-format file (a list of histories, each with its
``haystack_sessions``, ``haystack_dates``, ``answer_session_ids``, ``question``,
``answer``; evidence turns carry ``has_answer``). Each history goes through MONET as the
app runs it: every message stored (``commit_user_message`` / ``record_reply`` on a clock
at the session's date), a request prepared after each (so sunset and ceiling folds
happen), the offline librarian run after each session (summaries, memories, the context
summary). The question is then asked the next day; its prepared request is the prompt.

Printed, for MONET's search and for the floors to beat, plain Okapi BM25 (k1 = 1.5,
b = 0.75, lower-cased word tokens) and the same without stopwords (NLTK's English list,
the stronger floor) over the same stored messages:

- recall@k at turn level (an evidence turn is among the k results) and at session level
  (a result comes from an answer session);
- for MONET, "in the prompt": an evidence turn is word for word in the prompt's turns,
  or the answer's text is in the prompt (system blocks included; answers of 4
  characters or more, so a bare "3" does not count); and "reachable": in the prompt or
  among the k results of one ``search_history`` call with the question.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cms.clock import ManualClock
from cms.context.tools import recall
from monet_app.services.wiring import Core, build_core, no_model
from storage.talk import Talk

_WORD = re.compile(r"\w+", re.UNICODE)
JST = timezone(timedelta(hours=9))


def _when(text: str) -> datetime:
    """LongMemEval's ``2023/04/25 (Tue) 18:57`` as an aware local time (UTC+9, as the
    public traces place them)."""
    day, _weekday, clock = text.split(" ")
    return datetime.strptime(f"{day} {clock}", "%Y/%m/%d %H:%M").replace(tzinfo=JST)


#: A standard English stopword list (NLTK's 179 words): the stronger floor drops them from
#: the question and the messages alike.
STOPWORDS = frozenset("""
i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself
yourselves he him his himself she she's her hers herself it it's its itself they them
their theirs themselves what which who whom this that that'll these those am is are was
were be been being have has had having do does did doing a an the and but if or because
as until while of at by for with about against between into through during before after
above below to from up down in out on off over under again further then once here there
when where why how all any both each few more most other some such no nor not only own
same so than too very s t can will just don don't should should've now d ll m o re ve y
ain aren aren't couldn couldn't didn didn't doesn doesn't hadn hadn't hasn hasn't haven
haven't isn isn't ma mightn mightn't mustn mustn't needn needn't shan shan't shouldn
shouldn't wasn wasn't weren weren't won won't wouldn wouldn't
""".split())


class OkapiBM25:
    """Okapi BM25 over the tokens ``tokenize`` makes of each text (k1 = 1.5, b = 0.75);
    ties: the newest first."""

    def __init__(self, docs: dict[int, str], tokenize: Callable[[str], list[str]],
                 k1: float = 1.5, b: float = 0.75) -> None:
        self.tokenize, self.k1, self.b = tokenize, k1, b
        self.tokens = {i: Counter(tokenize(t)) for i, t in docs.items()}
        self.lengths = {i: sum(c.values()) for i, c in self.tokens.items()}
        self.avg = sum(self.lengths.values()) / max(1, len(self.lengths))
        df: Counter[str] = Counter()
        for counts in self.tokens.values():
            df.update(counts.keys())
        n = len(docs)
        self.idf = {w: math.log(1 + (n - f + 0.5) / (f + 0.5)) for w, f in df.items()}

    def top(self, query: str, k: int) -> list[int]:
        wanted = set(self.tokenize(query))
        scores: dict[int, float] = {}
        for i, counts in self.tokens.items():
            score = 0.0
            for w in wanted:
                f = counts.get(w, 0)
                if f:
                    norm = self.k1 * (1 - self.b + self.b * self.lengths[i] / self.avg)
                    score += self.idf[w] * f * (self.k1 + 1) / (f + norm)
            if score > 0:
                scores[i] = score
        return [i for i, _ in sorted(scores.items(), key=lambda x: (-x[1], -x[0]))[:k]]

    @classmethod
    def words(cls, docs: dict[int, str],
              stopwords: frozenset[str] = frozenset()) -> OkapiBM25:
        """Over lower-cased word tokens; ``stopwords`` left out of both sides."""
        return cls(docs, lambda text: [w for w in _WORD.findall(text.lower())
                                       if w not in stopwords])


def store(core: Core, clock: ManualClock, history: dict[str, Any],
          seen: Callable[[Talk, str, dict[str, Any]], None] | None = None) -> None:
    """Store ``history``'s sessions through MONET as the app runs it: every message on a
    clock at its session's date, a request prepared after each of the person's (so sunset
    and ceiling folds happen), a librarian pass after each session. ``seen(message,
    session id, turn)`` is told of each message stored."""
    sessions = sorted(zip(history["haystack_dates"], history["haystack_session_ids"],
                          history["haystack_sessions"], strict=True),
                      key=lambda s: _when(s[0]))
    clock.set(_when(sessions[0][0]))
    core.context.app_started()
    for date, session_id, turns in sessions:
        clock.set(_when(date))
        for turn in turns:
            text = str(turn.get("content", "")).strip()
            if not text:
                continue
            if turn["role"] == "user":
                message = core.context.commit_user_message(text, "chat")
                core.context.prepare_request()  # folds happen where the app has them
            else:
                message = core.context.record_reply(text, "chat")
            if seen is not None:
                seen(message, session_id, turn)
            clock.set(clock.now() + timedelta(seconds=30))
        core.librarian_pass()
    clock.set(clock.now().replace(hour=10, minute=0) + timedelta(days=1))


@dataclass
class Built:
    """A LongMemEval history stored through MONET, at the moment its question is asked."""

    core: Core
    question: Talk
    body: dict[str, Any]
    docs: dict[int, str] = field(default_factory=dict)  # message id -> text
    evidence: set[int] = field(default_factory=set)  # turns marked has_answer
    in_answer_session: set[int] = field(default_factory=set)
    session_of: dict[int, str] = field(default_factory=dict)  # message id -> session id


@contextmanager
def built(history: dict[str, Any]) -> Iterator[Built]:
    """Store ``history`` through MONET (``store``, the offline librarian) and ask its
    question the next day; the home is removed afterwards."""
    answer_sessions = set(history["answer_session_ids"])
    docs: dict[int, str] = {}
    evidence: set[int] = set()
    in_answer_session: set[int] = set()
    session_of: dict[int, str] = {}

    def seen(message: Talk, session_id: str, turn: dict[str, Any]) -> None:
        assert message.id is not None
        docs[message.id] = message.text
        session_of[message.id] = session_id
        if turn.get("has_answer"):
            evidence.add(message.id)
        if session_id in answer_sessions:
            in_answer_session.add(message.id)

    with tempfile.TemporaryDirectory() as tmp:
        clock = ManualClock(datetime.now(JST))
        core = build_core(Path(tmp), clock=clock, summarizer="offline", model_factory=no_model)
        try:
            store(core, clock, history, seen)
            question = core.context.commit_user_message(history["question"], "chat")
            core.librarian_pass()
            body = dict(core.context.prepare_request().body)
            yield Built(core, question, body, docs, evidence, in_answer_session, session_of)
        finally:
            core.close()


def run_history(history: dict[str, Any], k: int) -> dict[str, bool]:
    answer = str(history.get("answer", "")).strip().lower()
    with built(history) as b:
        body, docs, evidence, in_answer_session = b.body, b.docs, b.evidence, b.in_answer_session
        with b.core.db.session() as session:
            monet = [hit.id for hit in recall(session, history["question"], k,
                                              before_id=b.question.id, meaning=b.core.meaning)]
    plain = OkapiBM25.words(docs).top(history["question"], k)
    strong = OkapiBM25.words(docs, stopwords=STOPWORDS).top(history["question"], k)
    turns_text = json.dumps(body["messages"], ensure_ascii=False)
    prompt_text = (json.dumps(body["system"], ensure_ascii=False) + turns_text).lower()
    raw_evidence = any(json.dumps(docs[i], ensure_ascii=False)[1:-1] in turns_text
                       for i in evidence)
    in_prompt = raw_evidence or (len(answer) >= 4 and answer in prompt_text)
    return {
        "monet_turn": bool(evidence & set(monet)),
        "monet_session": bool(in_answer_session & set(monet)),
        "bm25_turn": bool(evidence & set(plain)),
        "bm25_session": bool(in_answer_session & set(plain)),
        "nostop_turn": bool(evidence & set(strong)),
        "nostop_session": bool(in_answer_session & set(strong)),
        "has_turn_evidence": bool(evidence),
        "in_prompt": in_prompt,
        "reachable": in_prompt or bool(evidence & set(monet)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="histories built at once (processes)")
    args = parser.parse_args()
    histories = json.loads(args.data.read_text("utf-8"))
    totals: Counter[str] = Counter()
    with_turns = 0
    columns = ("monet_turn", "bm25_turn", "nostop_turn", "monet_session", "bm25_session",
               "nostop_session", "in_prompt", "reachable")
    print("| # | type | MONET turn | BM25 turn | BM25 no stopwords turn | MONET session "
          "| BM25 session | BM25 no stopwords session | in prompt | reachable |")
    print("|---|---|" + "---|" * len(columns))
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = pool.map(run_history, histories, [args.k] * len(histories))
        for n, (history, result) in enumerate(zip(histories, results, strict=True)):
            totals.update(key for key, value in result.items() if value)
            with_turns += result["has_turn_evidence"]
            marks = ["✓" if result[c] else "·" for c in columns]
            print(f"| {n} | {history['question_type']} | " + " | ".join(marks) + " |",
                  flush=True)
    count = len(histories)
    print(f"\nrecall@{args.k} over {count} histories ({with_turns} with marked evidence turns):")
    for name in ("monet", "bm25", "nostop"):
        print(f"  {name:6}  turn {totals[name + '_turn']}/{with_turns}"
              f" = {totals[name + '_turn'] / max(1, with_turns):.2f}   "
              f"session {totals[name + '_session']}/{count}"
              f" = {totals[name + '_session'] / max(1, count):.2f}")
    print(f"  MONET evidence in the prompt {totals['in_prompt']}/{count}; reachable (in the "
          f"prompt or by one search_history call) {totals['reachable']}/{count}")


if __name__ == "__main__":
    main()
