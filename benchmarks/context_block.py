"""The context block in request logs: its size against the budget, and what it holds.

    python benchmarks/context_block.py LOG.jsonl [LOG.jsonl ...]

For each request log (``monet replay --request-log``; docs/replay.md) prints the chat
requests, how many carried a context block, how many distinct blocks were sent, the
largest in tokens (tiktoken) against ``context_budget_tokens``, its memory lines and
summary lines at the largest, lines that read like instructions (should be 0), and the
extension breaks between rebuild points (should be 0).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cms.context import context_block
from cms.context.prompt import system_parts
from cms.records import instruction_like
from cms.settings import Settings
from cms.tokens import TiktokenEstimator
from tests.logcheck import check_log, read_log


def main() -> None:
    estimator = TiktokenEstimator()
    budget = Settings().context_budget_tokens
    print(f"budget {budget} tokens")
    print("| log | chat requests | with a block | distinct blocks | largest (tokens) "
          "| memories / summary lines | instruction-like lines | breaks |")
    print("|---|---|---|---|---|---|---|---|")
    for name in sys.argv[1:]:
        records = read_log(Path(name))
        bodies = [r["body"] for r in records if r["kind"] == "request"]
        blocks = [notes for notes in (system_parts(b)[2].partition("\n\n")[2] for b in bodies)
                  if notes]
        distinct = list(dict.fromkeys(blocks))
        sizes = [estimator.count(b) for b in distinct]
        largest = distinct[sizes.index(max(sizes))] if distinct else ""
        memories = summary = 0
        section = ""
        for line in largest.splitlines():
            if line.startswith("## "):
                section = line
            elif line.startswith("- "):
                if section == context_block.MEMORY_HEADING:
                    memories += 1
                else:
                    summary += 1
        bad = sum(1 for b in distinct for line in b.splitlines()[3:]
                  if line.startswith("- ") and instruction_like(line[2:]))
        breaks = len(check_log(records).breaks)
        print(f"| {Path(name).stem} | {len(bodies)} | {len(blocks)} | {len(distinct)} | "
              f"{max(sizes, default=0)} | {memories} / {summary} | {bad} | {breaks} |")


if __name__ == "__main__":
    main()
