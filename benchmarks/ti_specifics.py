"""Do Timeline Index lines keep what people ask about later?

    python benchmarks/ti_specifics.py LONGMEMEVAL_JSON

For every LongMemEval history (``_s`` format), the answer session is cut into runs of six
turns (about a segment); each run holding an evidence turn is summarized by the offline
summarizer, as the librarian does without a key. Printed: in how many of those lines a
word of the expected answer survives, and how many of the evidence turns' specifics
(numbers and capitalised names) the lines keep.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cms.summaries import OfflineSummarizer, Turn

SPECIFIC = re.compile(r"\d+|[A-Z][a-z]+")
RUN_TURNS = 6


def main() -> None:
    histories = json.loads(Path(sys.argv[1]).read_text("utf-8"))
    summarizer = OfflineSummarizer()
    lines = answers_kept = specifics = specifics_kept = 0
    for history in histories:
        answer_words = re.findall(r"\w{3,}|\d+", str(history["answer"]).lower())
        for session_id, turns in zip(history["haystack_session_ids"],
                                     history["haystack_sessions"], strict=True):
            if session_id not in history["answer_session_ids"]:
                continue
            for start in range(0, len(turns), RUN_TURNS):
                run = turns[start : start + RUN_TURNS]
                evidence = " ".join(t["content"] for t in run if t.get("has_answer"))
                if not evidence:
                    continue
                line = summarizer.summarize([Turn(t["role"], t["content"]) for t in run])
                lines += 1
                answers_kept += any(w in line.lower() for w in answer_words)
                found = set(SPECIFIC.findall(evidence))
                specifics += len(found)
                specifics_kept += sum(1 for w in found if w in line)
    print(f"lines summarizing evidence: {lines}")
    print(f"  a word of the answer kept: {answers_kept}/{lines}")
    print(f"  specifics of the evidence kept: {specifics_kept}/{specifics}")


if __name__ == "__main__":
    main()
