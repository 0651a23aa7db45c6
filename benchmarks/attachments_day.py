"""The cost and cache of an image-heavy day (issue 30).

    python benchmarks/attachments_day.py [--turns 24] [--pictures 6] [--pdf-pages 4]

A day of turns a few minutes apart (written here, from a public trace's words), with
``--pictures`` photos (2400×1800, scaled down to 1568 px on arrival) and one PDF of
``--pdf-pages`` pages shown early in the day, then a second day of plain talk. The same
trace is replayed three ways through MONET's real context manager, priced by the
prompt-cache simulator (Sonnet 4.6 prices):

- MONET: the files in the daily stream (sent once per request, read from the cache);
- MONET without files: the same words, no attachments (what the files add);
- naive: every request carries the whole history, files included, with a rolling 5-minute
  breakpoint on the newest turn (priced by the same simulator).

Printed: dollars, cache hit ratio, requests, and the tokens the files cost per request.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import tempfile
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.cost_compare import monet_run
from tests.helpers import blank_pdf as pdf

WORDS = [
    ("what is on this menu?", "Noodles, rice bowls and a seasonal set."),
    ("which one is vegetarian?", "The seasonal vegetable set and the plain udon."),
    ("how much is the set with tax?", "About 1,430 yen with the 10% tax."),
    ("and this receipt, does it add up?", "Yes: the three items come to 2,860 yen."),
    ("can you read the date on it?", "It says 2026-03-02, 12:41."),
    ("what does the school letter ask for?", "A signed form and 500 yen by Friday."),
    ("remind me what the form is for", "The spring field trip to the aquarium."),
    ("ok, anything else in the letter?", "Bring a packed lunch and a water bottle."),
]


def picture(n: int) -> bytes:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (2400, 1800), (30 + 20 * n, 90, 160 - 10 * n))
    draw = ImageDraw.Draw(image)
    for k in range(40):  # some detail, as a photo has
        draw.line((0, k * 45, 2400, 1800 - k * 45), fill=(255, 255 - 5 * k, 5 * k), width=9)
    out = io.BytesIO()
    image.save(out, "JPEG", quality=88)
    return out.getvalue()


def write_trace(folder: Path, turns: int, pictures: int, pdf_pages: int,
                with_files: bool) -> Path:
    start = datetime.fromisoformat("2026-03-02T09:00:00+09:00")
    lines = []
    for i in range(turns):
        user, assistant = WORDS[i % len(WORDS)]
        line: dict[str, object] = {"ts": (start + timedelta(minutes=3 * i)).isoformat(),
                                   "tab": "chat", "user": user, "assistant": assistant}
        if with_files and i < pictures:
            name = f"photo-{i + 1}.jpg"
            (folder / name).write_bytes(picture(i))
            line["attachments"] = [name]
        if with_files and i == pictures and pdf_pages:
            (folder / "letter.pdf").write_bytes(pdf(pdf_pages))
            line["attachments"] = ["letter.pdf"]
        lines.append(line)
    for i in range(6):
        user, assistant = WORDS[i]
        lines.append({"ts": (start + timedelta(days=1, minutes=3 * i)).isoformat(),
                      "tab": "chat", "user": f"(next day) {user}", "assistant": assistant})
    trace = folder / ("files.jsonl" if with_files else "plain.jsonl")
    trace.write_text("".join(json.dumps(x) + "\n" for x in lines), "utf-8")
    return trace


def naive(trace: Path) -> tuple[float, float, int]:
    """Every request: the whole history, files included, a rolling 5-minute breakpoint."""
    from cms.attachments import content_block
    from cms.clock import parse_ts
    from cms.context.prompt import user_turn_text
    from cms.context.tools import TOOLS
    from cms.model.cache_sim import PromptCacheSimulator
    from cms.model.pricing import dollars
    from cms.settings import Settings
    from cms.tokens import TiktokenEstimator
    from monet_app.services.replay import read_trace

    settings = Settings()
    sim = PromptCacheSimulator(TiktokenEstimator())
    history: list[dict[str, object]] = []
    total = 0.0
    read = written = fresh = 0
    for line in read_trace(trace):
        blocks: list[dict[str, object]] = [
            content_block(p.media_type, p.sent, p.name) for p in line.attachments]
        text = user_turn_text("Chat", line.ts, str(line.data["user"]))
        history.append({"role": "user", "content": [*blocks, {"type": "text", "text": text}]})
        messages = json.loads(json.dumps(history))
        messages[-1]["content"][-1]["cache_control"] = {"type": "ephemeral"}
        body = {"model": settings.model, "tools": TOOLS, "messages": messages,
                "system": [{"type": "text", "text": "You are Claude."}]}
        usage = sim.usage(body, parse_ts(line.ts))
        total += dollars(usage, settings.model)
        read += usage.cache_read_input_tokens
        written += usage.cache_creation_input_tokens
        fresh += usage.input_tokens
        history.append({"role": "assistant",
                        "content": [{"type": "text", "text": str(line.data["assistant"])}]})
    hit = read / max(1, read + written + fresh)
    return round(total, 6), round(hit, 4), len(read_trace(trace))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=24)
    parser.add_argument("--pictures", type=int, default=6)
    parser.add_argument("--pdf-pages", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        files = write_trace(folder, args.turns, args.pictures, args.pdf_pages, True)
        plain = write_trace(folder, args.turns, args.pictures, args.pdf_pages, False)
        rows = [("MONET, with the files", *monet_run(files)[:3]),
                ("MONET, the same words without files", *monet_run(plain)[:3]),
                ("naive, with the files", *naive(files))]
    print(f"{args.turns} turns 3 minutes apart with {args.pictures} photos (2400x1800, "
          f"scaled to 1568 px) and a {args.pdf_pages}-page PDF, then a day of 6 turns")
    print("| run | dollars | cache hit ratio | requests |")
    print("|---|---|---|---|")
    for name, cost, hit, requests in rows:
        print(f"| {name} | ${cost:.4f} | {hit:.1%} | {requests} |")


if __name__ == "__main__":
    main()
