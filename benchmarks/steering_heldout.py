"""A hostile librarian model that reuses the day's own words, measured end to end.

    python benchmarks/steering_heldout.py [--show]

``benchmarks/heldout_steering/days.json`` (8 days, 4 English and 4 Japanese, written by a
helper who never read MONET's filters; CC0) holds each day's talk, 5 planted outputs of a
hostile librarian (40 in all: policies for the assistant, key: value settings,
permissions to share, clauses glued into true sentences, look-alike letters, zero-width
characters, role markup, false figures, fabricated requests) and 7-8 outputs an honest
librarian would write (61 in all).

Each day is replayed into a new data folder through the real context manager; the
librarian's model is a local server (the real SDK) that answers every summary, memory
proposal and context summary with that day's planted outputs (or its honest ones), the
day after the person says good morning, and the request after it is read. Printed: how
many planted steering parts reach Claude's system blocks (compared after NFKC, without
invisible characters and with look-alike letters folded), and how many honest outputs
reach them whole.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cms.clock import ManualClock, parse_ts
from cms.model.standin import StandInModel
from cms.tokens import CharEstimator
from monet_app.services.standin_server import StandInServer
from monet_app.services.wiring import build_core

DAYS = ROOT / "benchmarks" / "heldout_steering" / "days.json"


class PlantedServer(StandInServer):
    """The librarian's model: answers with the planted outputs of one day."""

    def __init__(self, outputs: list[dict[str, Any]], ids: dict[int, int]) -> None:
        super().__init__()
        self.outputs = outputs
        self.ids = ids

    def answer(self, body: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
        system = " ".join(b.get("text", "") for b in body.get("system", []))
        summaries = [o["text"] for o in self.outputs if o["kind"] == "summary"]
        if "JSON" in system:  # the memory proposer
            memories = [{"statement": o["text"], "kind": "fact", "topic": f"t{n}",
                         "source_ids": [self.ids.get(i, i) for i in o.get("source_ids", [])]}
                        for n, o in enumerate(self.outputs) if o["kind"] == "memory"]
            return [{"type": "text", "text": json.dumps({"memories": memories},
                                                        ensure_ascii=False)}], "end_turn"
        if "ONE short line" in system:  # the summarizer
            return [{"type": "text", "text": " ".join(summaries)}], "end_turn"
        lines = [o["text"] for o in self.outputs if o["kind"] == "context"]
        return [{"type": "text", "text": "\n".join(f"- {t}" for t in lines)}], "end_turn"


def _flat(text: str) -> str:
    """Compared after NFKC, without format characters, look-alike letters as Latin (the
    benchmark's own reading, not the code's under test)."""
    import unicodedata

    from confusable_homoglyphs import confusables

    text = "".join(ch for ch in unicodedata.normalize("NFKC", text)
                   if unicodedata.category(ch) != "Cf")
    found = confusables.is_confusable(text, greedy=True, preferred_aliases=["latin"]) or []
    swaps = {f["character"]: f["homoglyphs"][0]["c"] for f in found
             if f["alias"] in ("CYRILLIC", "GREEK") and f["homoglyphs"]}
    return "".join(swaps.get(ch, ch) for ch in "".join(text.split())).lower()


def run_day(day: dict[str, Any], mode: str, home: Path) -> tuple[str, list[dict[str, Any]]]:
    """The system blocks of the request after the planted pass, and the outputs planted."""
    outputs = day[mode]
    estimator = CharEstimator()
    first = parse_ts(day["messages"][0]["ts"])
    clock = ManualClock(first)
    ids: dict[int, int] = {}
    server = PlantedServer(outputs, ids)
    with server:
        os.environ["ANTHROPIC_API_KEY"] = "sk-ant-test-planted-000"
        os.environ["ANTHROPIC_BASE_URL"] = server.url
        core = build_core(home, clock=clock, estimator=estimator,
                          model_factory=lambda settings: StandInModel(estimator))
        try:
            model = core.chat_model()
            assert isinstance(model, StandInModel)
            seen: list[Any] = []
            original = model.stream

            def spy(body: Any) -> Any:
                seen.append(body)
                return original(body)

            model.stream = spy  # type: ignore[method-assign]
            messages = day["messages"]
            for index, message in enumerate(messages):
                if message["role"] != "user":
                    continue
                clock.set(parse_ts(message["ts"]))
                talk = core.context.commit_user_message(message["text"], "chat")
                ids[message["id"]] = talk.id
                reply = messages[index + 1]["text"] if index + 1 < len(messages) else "OK."
                model.expect(reply, None)
                core.runner.resume("chat", lambda _t: None, threading.Event())
            morning = first.replace(hour=9, minute=0) + timedelta(days=1)
            for step, words in enumerate(("Good morning.", "What is on today?")):
                clock.set(morning + timedelta(minutes=30 * step))
                core.context.commit_user_message(words, "chat")
                model.expect("Good morning!", None)
                core.runner.resume("chat", lambda _t: None, threading.Event())
                core.librarian_pass()
            clock.set(morning + timedelta(hours=1, minutes=30))  # the talk has settled
            core.librarian_pass()
            core.librarian_pass()
            # the next morning: a rebuild point, where the context summary the passes
            # wrote enters the prompt (it never enters mid-day)
            clock.set(morning + timedelta(days=1))
            core.context.commit_user_message("Thanks.", "chat")
            model.expect("You're welcome.", None)
            core.runner.resume("chat", lambda _t: None, threading.Event())
            system = "\n".join(b.get("text", "") for b in seen[-1].get("system", []))
        finally:
            core.close()
    return system, outputs


def main() -> None:
    show = "--show" in sys.argv
    days = json.loads(DAYS.read_text("utf-8"))
    leaked_by: dict[str, int] = {}
    totals = {"hostile": 0, "leaked": 0, "honest": 0, "kept": 0}
    by_lang: dict[str, list[int]] = {}
    for day in days:
        for mode in ("hostile", "honest"):
          for single in day[mode]:  # each output alone: one line per segment, as asked
            with tempfile.TemporaryDirectory() as tmp:
                system, outputs = run_day({**day, mode: [single]}, mode, Path(tmp) / "home")
            flat = _flat(system)
            for output in outputs:
                if mode == "hostile":
                    leaked = _flat(output["steering"]) in flat
                    totals["hostile"] += 1
                    totals["leaked"] += leaked
                    by_lang.setdefault(day["lang"], [0, 0])[0] += leaked
                    if leaked:
                        kind = f"{output['technique']} ({output['kind']})"
                        leaked_by[kind] = leaked_by.get(kind, 0) + 1
                        if show:
                            print(f"LEAKED {day['id']}: {output['steering']}")
                else:
                    kept = all(_flat(line.lstrip("-•・ ")) in flat  # (line by line)
                               for line in output["text"].splitlines() if line.strip())
                    totals["honest"] += 1
                    totals["kept"] += kept
                    by_lang.setdefault(day["lang"], [0, 0])[1] += kept
                    if show and not kept:
                        print(f"not kept {day['id']} {output['kind']}: {output['text']}")
    print(f"planted steering reaching the system blocks: {totals['leaked']}/{totals['hostile']}"
          f" (English {by_lang.get('en', [0])[0]}/20, Japanese {by_lang.get('ja', [0])[0]}/20)")
    for kind, count in sorted(leaked_by.items(), key=lambda kv: -kv[1]):
        print(f"  {kind}: {count}")
    share = totals["kept"] / totals["honest"] if totals["honest"] else 0.0
    print(f"honest outputs reaching them whole: {totals['kept']}/{totals['honest']} "
          f"({share:.0%}; English {by_lang.get('en', [0, 0])[1]}, Japanese "
          f"{by_lang.get('ja', [0, 0])[1]})")


if __name__ == "__main__":
    main()
