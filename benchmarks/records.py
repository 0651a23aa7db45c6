"""How well ``cms/records.py`` keeps instructions out of the system blocks, in figures.

    python benchmarks/records.py [TRACE.jsonl ...]

Prints, for the phrase sets of ``tests/data/injection`` (written by people who never saw
the filter; the tuned sets were used to widen its rules, the held-out set never was), how
many steering sentences are left out and how many records are touched; then, for each
honest model summary of a trace's stretch and each steering sentence added to one, what
the grounding check keeps; then, for each trace replayed offline with the librarian, how
many Timeline Index lines and memories lose a sentence (records wrongly touched, or real
requests in the talk).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlmodel import select

from cms.grounding import grounded_sentences
from cms.records import LEFT_OUT, as_record, instruction_like, sentences_of
from monet_app.services.replay import replay
from storage import Database
from storage.models import MemoryItem, TimelineEntry
from tests.data.injection import phrases
from tests.data.injection.honest_summaries import HONEST, stretch

TRACES = sorted((ROOT / "tests" / "data" / "traces").glob("*.jsonl"))


def _caught(texts: list[str]) -> int:
    return sum(LEFT_OUT in as_record(t) for t in texts)


def grounding() -> None:
    """The grounding check on model-written summaries (cms/grounding.py): the honest
    one-line summaries of trace stretches, and each steering sentence added to one."""
    sentences = whole = 0
    kept_sentences = 0
    for name, first, count, summary in HONEST:
        talk = stretch(name, first, count)
        kept, dropped = grounded_sentences(summary, talk)
        sentences += len(sentences_of(summary))
        kept_sentences += len(sentences_of(summary)) - dropped
        whole += not dropped
    print(f"honest summaries kept whole {whole}/{len(HONEST)}, "
          f"sentences kept {kept_sentences}/{sentences}")
    for label, hostile in (("tuned", phrases.TUNED_HOSTILE),
                           ("held out", phrases.HELD_OUT_HOSTILE)):
        for how, joint in (("own sentence", ". "), ("glued on", " ")):
            passed = both = 0
            for index, text in enumerate(hostile):
                name, first, count, summary = HONEST[index % len(HONEST)]
                base = summary.rstrip(".") + joint
                kept, _ = grounded_sentences(base + text, stretch(name, first, count))
                extra = [s for s in sentences_of(kept) if s not in sentences_of(base)]
                passed += bool(extra)
                both += any(not instruction_like(s) for s in extra)
            print(f"{label:9} steering as {how:12} grounded {passed:3}/{len(hostile)}, "
                  f"past grounding and the filter {both:2}/{len(hostile)}")


def main(traces: list[Path]) -> None:
    grounding()
    for name, hostile, benign in (
        ("tuned", phrases.TUNED_HOSTILE, phrases.TUNED_BENIGN),
        ("held out", phrases.HELD_OUT_HOSTILE, phrases.HELD_OUT_BENIGN),
    ):
        print(f"{name:9} steering left out {_caught(hostile):3}/{len(hostile)}   "
              f"records touched {_caught(benign):3}/{len(benign)}")
    for trace in traces:
        with tempfile.TemporaryDirectory() as tmp:
            replay(trace, Path(tmp) / "home", None)
            db = Database(Path(tmp) / "home")
            with db.session() as session:
                lines = [e.summary for e in session.exec(select(TimelineEntry)).all()
                         if e.summary]
                facts = [m.fact for m in session.exec(select(MemoryItem)).all()]
            db.close()
        print(f"{trace.stem:20} TI lines touched {_caught(lines):3}/{len(lines):3}   "
              f"memories touched {_caught(facts):2}/{len(facts):2}")


if __name__ == "__main__":
    main([Path(a) for a in sys.argv[1:]] or TRACES)
