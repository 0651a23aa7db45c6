"""Recall by meaning: questions in other words than the message used, and name controls.

    python benchmarks/recall_meaning.py [--show] [--split dev|test|all]

Each public trace named by ``tests/data/search/paraphrase_questions.py`` (written by a
helper who never saw MONET's search; every paraphrase shares no content word with its
target, checked by ``tests/data/search/check_paraphrases.py``) is stored as MONET stores
it, its messages embedded as the librarian embeds them (``cms.meaning.Meaning``), and
each question asked with no other context. Printed, per language and for the name-word
controls: hit@5 and hit@10 (the target message among the first 5 or 10) of

- words: MONET's word search alone (``cms.context.tools.recall`` without meaning);
- meaning: the encoder alone (``Meaning.near``);
- MONET: what ``search_history`` returns, the two fused (``cms.context.tools.recall``);
- BM25: Okapi BM25 over words without stopwords (English) or character bigrams (Japanese).

``--split``: questions at even positions of each list are the development half, the odd
ones the test half; the fusion was designed looking at the development half only.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.recall import STOPWORDS, OkapiBM25
from benchmarks.recall_ja import grams, stored
from cms.context.tools import recall
from cms.meaning import Meaning
from tests.data.search.name_questions import NAMED
from tests.data.search.paraphrase_questions import CONTROLS, PARAPHRASES

TRACES = ROOT / "tests" / "data" / "traces"
Entry = tuple[str, int, str, str, str]


def _half(entries: list[Entry], split: str) -> list[Entry]:
    if split == "all":
        return entries
    return entries[0 if split == "dev" else 1::2]


def _group(entry: Entry, control: str) -> str:
    if control:
        return control
    return "Japanese" if entry[0].startswith("rpc") else "English"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="each question's ranks")
    parser.add_argument("--split", choices=["dev", "test", "all"], default="all")
    args = parser.parse_args()
    asked = [(e, "") for e in _half(PARAPHRASES, args.split)]
    asked += [(e, "controls") for e in _half(CONTROLS, args.split)]
    asked += [(e, "names in a sentence") for e in _half(NAMED, args.split)]
    by_trace: dict[str, list[tuple[Entry, str]]] = defaultdict(list)
    for entry, control in asked:
        by_trace[entry[0]].append((entry, control))
    meaning = Meaning()
    hits: dict[tuple[str, str, int], int] = Counter()
    counts: Counter[str] = Counter()
    embedded = 0
    for trace, entries in sorted(by_trace.items()):
        lines = [json.loads(line) for line in (TRACES / trace).read_text("utf-8").splitlines()]
        with tempfile.TemporaryDirectory() as tmp:
            core, ids, docs = stored(Path(tmp), lines)
            embedded += meaning.embed_pending(core.db)
            japanese = trace.startswith("rpc")
            bm25 = (OkapiBM25(docs, lambda t: grams(t, 2)) if japanese
                    else OkapiBM25.words(docs, STOPWORDS))
            methods: dict[str, Callable[[str], list[int]]] = {}
            with core.db.session() as session:
                methods = {
                    "words": lambda q: [h.id for h in recall(session, q, 10)],
                    "meaning": lambda q: [n.message_id for n in meaning.near(session, q, 10)],
                    "MONET": lambda q: [h.id for h in recall(session, q, 10, meaning=meaning)],
                    "BM25": lambda q, bm25=bm25: bm25.top(q, 10),
                }
                for (name, line, field, part, question), control in entries:
                    wanted = ids[(line, field)]
                    assert part in docs[wanted], (question, part)
                    group = _group((name, line, field, part, question), control)
                    counts[group] += 1
                    marks = []
                    for method, ask in methods.items():
                        found = ask(question)
                        rank = found.index(wanted) + 1 if wanted in found else 0
                        for k in (5, 10):
                            hits[(group, method, k)] += 0 < rank <= k
                        marks.append(f"{method} {rank or '-':>2}")
                    if args.show:
                        print(f"{group[:2]} {'  '.join(marks)}  {question}")
            core.close()
    print(f"{sum(counts.values())} questions ({args.split}), {embedded} messages embedded")
    print("| questions | method | hit@5 | hit@10 |")
    print("|---|---|---|---|")
    for group in ("English", "Japanese", "controls", "names in a sentence"):
        n = counts[group]
        for method in ("words", "BM25", "meaning", "MONET"):
            print(f"| {group} ({n}) | {method} | {hits[(group, method, 5)]} "
                  f"({hits[(group, method, 5)] / max(n, 1):.0%}) | {hits[(group, method, 10)]} "
                  f"({hits[(group, method, 10)] / max(n, 1):.0%}) |")


if __name__ == "__main__":
    main()
