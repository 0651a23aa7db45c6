"""What Claude is told about the past, read at the moment a LongMemEval question is asked.

    python benchmarks/told.py LONGMEMEVAL_JSON [--show] [--jobs N]
    python benchmarks/told.py --traces

Each history is stored through MONET as ``benchmarks/recall.py`` does (offline librarian)
and its question asked the next day. Printed per history and in total:

- **repeated**: Timeline Index lines whose text is also in the context block (the same
  line after its date and tab, or nine tenths of its content words in one block line);
- **older values**: for the knowledge-update histories, whether the system blocks carry
  an older value of the asked fact without the newest (``STALE``: the older and newest
  values, read by hand from each history);
- **memories**: "asked to remember" items whose source message holds no request to
  remember (``_ASKED``: "remember that/this…" or "覚えて…" said to the assistant, not
  "I need to remember that…"), and items that are reactions to a reply ("I like the
  sound of…", "that sounds…", "I think I'll go with…");
- **TI lines** stored: how many are only a request (a question or an imperative to the
  assistant, ``cms.records.instruction_like`` or ending in "?"), how many say what came
  of the talk (an outcome from Claude's side), and for the questions with an answer in
  the history, whether a line holds one of the answer's words.

``--show`` prints the memories and the TI lines of each history. ``--traces`` (or no
file) prints, for the public traces replayed offline, the Timeline Index lines they
store: only a request, with an outcome, their mean length.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlmodel import select

from benchmarks.recall import built
from cms.context.context_block import clean_line
from cms.context.prompt import system_parts
from cms.records import instruction_like
from cms.summaries import OUTCOME_JOINT, terms
from storage.models import MemoryItem, MemoryKind, Message, TimelineEntry

#: The knowledge-update histories of the public sample: the older and the newest values
#: of the asked fact, as the history words them (read by hand).
STALE: dict[str, tuple[list[str], list[str]]] = {
    "a1eacc2a": (["written four", "four short stories", "four stories"],
                 ["7 short stories", "seven short stories"]),
    "b6019101": (["4 MCU films"], ["5 MCU films"]),
    "031748ae_abs": (["team of 4 engineers", "4 engineers"],
                     ["team of five engineers", "five engineers", "5 engineers"]),
    "2133c1b5_abs": (["it's been a month now", "been a month"], ["for 3 months now"]),
}

#: A request to remember, said to the assistant (not "I need to remember that…").
_ASKED = re.compile(
    r"(?:^|[.!?]\s+|\b(?:please|can you|could you|will you|would you)\s+)"
    r"(?:please\s+)?(?:remember|note|keep in mind|don't forget)\b|覚えて(?:おいて|て|ね|ください)|"
    r"メモして|記録して", re.IGNORECASE)
_REACTION = re.compile(
    r"\b(?:I like the sound of|that sounds|sounds (?:good|great|like)|I think I'll go with|"
    r"I'll go with|I love (?:that|this|the idea)|that's (?:a )?(?:great|good|helpful)|"
    r"thanks? for|thank you)\b", re.IGNORECASE)


def _content(text: str) -> set[str]:
    return {t[:5] for t in terms(text)}


def _repeated(ti: str, context: str) -> int:
    ti_lines = [clean_line(line) for line in ti.splitlines() if re.match(r"^\d{4}-", line)]
    block = [clean_line(line.lstrip("- ")) for line in context.splitlines()
             if line.startswith("- ")]
    count = 0
    for line in ti_lines:
        mine = _content(line)
        if not mine:
            continue
        if any(line == other or len(mine & _content(other)) >= 0.9 * len(mine)
               for other in block):
            count += 1
    return count


def _request_only(line: str) -> bool:
    text = clean_line(line)
    return text.rstrip().endswith(("?", "？")) or instruction_like(text)


def run(history: dict[str, Any], show: bool) -> tuple[dict[str, int], str]:
    """The history's figures, and with ``show`` what it stored (printed by ``main``)."""
    out: Counter[str] = Counter()
    shown: list[str] = []

    with built(history) as b:
        _pinned, ti, context = system_parts(b.body)
        out["repeated"] = _repeated(ti, context)
        out["ti_lines"] = sum(1 for line in ti.splitlines() if re.match(r"^\d{4}-", line))
        system = ti + "\n" + context
        olds, newests = STALE.get(history["question_id"], ([], []))
        lowered = system.lower()
        if any(old.lower() in lowered for old in olds):
            out["older_without_newest"] = int(not any(n.lower() in lowered for n in newests))
        with b.core.db.session() as session:
            items = session.exec(select(MemoryItem)).all()
            lines = [e for e in session.exec(select(TimelineEntry)).all() if e.summary]
            said = {m.id: m for m in session.exec(select(Message)).all()}
        out["memories"] = len(items)
        for item in items:
            sources = [said[i].text for i in json.loads(item.source_message_ids) if i in said]
            junk = item.kind == MemoryKind.ASKED_TO_REMEMBER and not any(
                _ASKED.search(text) for text in sources)
            reaction = bool(_REACTION.search(item.fact))
            out["asked_without_request"] += junk
            out["reactions"] += reaction
            if show:
                mark = "JUNK " if junk else "REACT" if reaction else "     "
                shown.append(f"   {mark} [{item.kind}] {item.fact[:110]}")
        out["stored_lines"] = len(lines)
        for entry in lines:
            text = entry.summary or ""
            out["request_only"] += _request_only(text)
            out["with_outcome"] += OUTCOME_JOINT in text
            if show:
                shown.append(f"   TI {'REQ ' if _request_only(text) else '    '}{text[:160]}")
        answer = _content(str(history["answer"])) - _content(str(history["question"]))
        if answer and "not enough" not in str(history["answer"]):
            out["answers"] = 1
            out["answer_in_a_line"] = int(any(answer & _content(e.summary or "")
                                              for e in lines))
    return dict(out), "\n".join(shown)


def traces() -> None:
    """The lines the public traces' replays store (offline librarian): how many are only
    a request, how many say what came of the talk, their mean length."""
    import tempfile

    from monet_app.services.replay import replay
    from storage import Database

    print("| trace | lines | only a request | with an outcome | mean characters |")
    print("|---|---|---|---|---|")
    for trace in sorted((ROOT / "tests" / "data" / "traces").glob("*.jsonl")):
        with tempfile.TemporaryDirectory() as tmp:
            replay(trace, Path(tmp) / "home", None)
            db = Database(Path(tmp) / "home")
            with db.session() as session:
                lines = [e.summary for e in session.exec(select(TimelineEntry)).all()
                         if e.summary and e.level == "segment"]
            db.close()
        request = sum(_request_only(line) for line in lines)
        outcome = sum(OUTCOME_JOINT in line for line in lines)
        mean = sum(len(line) for line in lines) / max(1, len(lines))
        print(f"| {trace.stem} | {len(lines)} | {request} | {outcome} | {mean:.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, nargs="?")
    parser.add_argument("--traces", action="store_true",
                        help="the public traces' stored lines instead")
    parser.add_argument("--show", action="store_true")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="histories built at once (processes)")
    args = parser.parse_args()
    if args.traces or args.data is None:
        traces()
        return
    histories = json.loads(args.data.read_text("utf-8"))
    totals: Counter[str] = Counter()
    keys = ("repeated", "ti_lines", "older_without_newest", "memories",
            "asked_without_request", "reactions", "stored_lines", "request_only",
            "with_outcome", "answers", "answer_in_a_line")
    print("| # | type | " + " | ".join(keys) + " |")
    print("|---|---|" + "---|" * len(keys))
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = pool.map(run, histories, [args.show] * len(histories))
        for n, (history, (result, shown)) in enumerate(zip(histories, results, strict=True)):
            if args.show:
                print(f"## {n} {history['question_type']}: {history['question']} "
                      f"-> {history['answer']}\n{shown}")
            totals.update(result)
            print(f"| {n} | {history['question_type']} | "
                  + " | ".join(str(result.get(k, 0)) for k in keys) + " |", flush=True)
    print("| all | | " + " | ".join(str(totals.get(k, 0)) for k in keys) + " |")


if __name__ == "__main__":
    main()
