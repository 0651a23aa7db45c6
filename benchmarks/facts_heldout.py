"""Facts that change and requests to remember, on the held-out set (issue 40).

    python benchmarks/facts_heldout.py [--show] [--traces DIR]

Each trace of ``benchmarks/heldout_facts/`` (written by someone who had not read the
memory rules; its README says how) is replayed as a person would, ``monet replay`` with
the offline librarian, on a fresh home. Then, from the last chat request of the request
log and the memories the home holds:

- **newest present**: the newest value of each changed fact (its ``new_terms``, whole
  tokens) is in the last request (system blocks or today's turns);
- **stale active**: an active memory holds an older value of a changed fact (one of its
  ``old_terms``) and none of the newest: Claude would be told the old value as current;
- **requests kept**: each "lasting" request to remember is an active memory whose source
  is that message and which holds the statement's terms;
- **task kept**: a request about the task at hand ("remember the word limit") stored as
  an "asked to remember" memory (should be 0).

``--show`` prints the active memories of each trace and every miss.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlmodel import select

from monet_app.services.replay import replay
from storage import Database
from storage.models import MemoryItem, MemoryKind, MemoryStatus, Message, MessageRole

HELDOUT = ROOT / "benchmarks" / "heldout_facts"
SHOWN = (MemoryStatus.ACTIVE, MemoryStatus.CONTESTED)


def _has(text: str, term: str) -> bool:
    """``term`` in ``text``: a number as a whole number ("4" is not in "14"), a word at
    the start of a word ("peanut" in "peanuts"), CJK anywhere."""
    if re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", term):
        return term in text
    end = r"(?![0-9])" if term[-1].isdigit() else ""
    return re.search(rf"(?<![0-9A-Za-z]){re.escape(term)}{end}", text,
                     re.IGNORECASE) is not None


def _last_chat(log: Path) -> dict[str, Any]:
    last: dict[str, Any] = {}
    for line in log.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row.get("kind") == "request" and row.get("purpose") == "chat":
            last = row["body"]
    return last


def run_trace(trace: Path, facts: list[dict[str, Any]], requests: list[dict[str, Any]],
              show: bool) -> dict[str, int]:
    turns = [json.loads(line) for line in trace.read_text(encoding="utf-8").splitlines()
             if line.strip()]
    said_at = {t["ts"]: t["user"] for t in turns if "user" in t}
    with tempfile.TemporaryDirectory() as tmp:
        home, log = Path(tmp) / "home", Path(tmp) / "log.jsonl"
        replay(trace, home, log, meaning=False)
        body = _last_chat(log)
        db = Database(home)
        try:
            with db.session() as session:
                memories = session.exec(select(MemoryItem)).all()
                messages = session.exec(
                    select(Message).where(Message.role == MessageRole.USER)).all()
        finally:
            db.close()
    told = json.dumps(body.get("system", ""), ensure_ascii=False) + json.dumps(
        body.get("messages", []), ensure_ascii=False)
    active = [m for m in memories if m.status in SHOWN]
    id_of = {m.text: m.id for m in messages}
    figures = {"facts": len(facts), "newest": 0, "stale": 0, "lasting": 0, "kept": 0,
               "task": 0, "task_kept": 0}
    if show:
        print(f"== {trace.stem}: {len(active)} active memories")
        for m in active:
            print(f"   [{m.kind.value}] {m.fact}  ({m.key})")
    for fact in facts:
        newest = all(_has(told, term) for term in fact["new_terms"])
        figures["newest"] += newest
        stale = [m.fact for m in active
                 if any(_has(m.fact, t) for t in fact["old_terms"])
                 and not any(_has(m.fact, t) for t in fact["new_terms"])]
        figures["stale"] += bool(stale)
        if show and (not newest or stale):
            print(f"   MISS {fact['subject']} / {fact['property']}: new {fact['new']!r} "
                  f"{'present' if newest else 'ABSENT'}; stale: {stale}")
    for request in requests:
        source = id_of.get(said_at.get(request["ts"], ""))
        from_it = [m for m in active if source in json.loads(m.source_message_ids)]
        if request["kind"] == "lasting":
            figures["lasting"] += 1
            kept = any(all(_has(m.fact, t) for t in request["statement_terms"])
                       for m in from_it)
            figures["kept"] += kept
            if show and not kept:
                print(f"   LOST request {request['ts']}: {said_at.get(request['ts'])!r}"
                      f" -> {[m.fact for m in from_it]}")
        else:
            figures["task"] += 1
            wrong = [m.fact for m in from_it if m.kind == MemoryKind.ASKED_TO_REMEMBER]
            figures["task_kept"] += bool(wrong)
            if show and wrong:
                print(f"   TASK kept {request['ts']}: {wrong}")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--traces", type=Path, default=HELDOUT)
    parser.add_argument("--show", action="store_true")
    args = parser.parse_args()
    key: dict[str, list[dict[str, Any]]] = {"facts": [], "requests": []}
    for part in sorted(args.traces.glob("key*.json")):  # key.json, or key-en.json + key-ja.json
        loaded = json.loads(part.read_text(encoding="utf-8"))
        for field in key:
            key[field] += loaded.get(field, [])
    totals: dict[str, dict[str, int]] = {}
    for trace in sorted(args.traces.glob("*.jsonl")):
        name = trace.stem
        figures = run_trace(trace, [f for f in key["facts"] if f["trace"] == name],
                            [r for r in key["requests"] if r["trace"] == name], args.show)
        lang = name.split("-")[0]
        into = totals.setdefault(lang, dict.fromkeys(figures, 0))
        for k, v in figures.items():
            into[k] += v
        print(f"{name}: newest present {figures['newest']}/{figures['facts']}, stale active "
              f"{figures['stale']}, requests kept {figures['kept']}/{figures['lasting']}, "
              f"task requests kept as memories {figures['task_kept']}/{figures['task']}")
    for lang, f in totals.items():
        print(f"TOTAL {lang}: newest present {f['newest']}/{f['facts']}, stale active "
              f"{f['stale']}/{f['facts']}, requests lost {f['lasting'] - f['kept']}/"
              f"{f['lasting']}, task requests kept {f['task_kept']}/{f['task']}")


if __name__ == "__main__":
    main()
