"""``monet --demo``: MONET alive in a minute, on a bundled sample history.

The sample (``demo_trace.jsonl``, original text written for MONET, MIT; see this
folder's README.md) is replayed into a throwaway data folder, its dates shifted so that
its last day is today (yesterday when its talk would be later than now), with the
offline librarian, so the window opens on several days, all four tabs, Timeline Index
lines and a few memories. Replies then come from the built-in stand-in of Anthropic's
API (``monet_app.services.standin_server``) through the real SDK, never from the network. The
window says it is a demo. The person's own data folder is never opened: a folder given
with ``--home`` that holds a history which is not a demo is refused.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from datetime import date, datetime, timedelta
from importlib import resources
from pathlib import Path

from storage import Database
from storage.database import DB_FILENAME
from storage.errors import DemoError
from storage.settings import read_value, write_value

#: The ``setting`` key that marks a data folder as a demo.
DEMO_KEY = "demo"
#: What the stand-in says before echoing, in the demo (both UI languages).
DEMO_ANSWER = ("（デモ: 内蔵の代役が答えています。API キーを設定すると Claude が答えます / "
               "demo: a built-in stand-in answers; with an API key, Claude does）")


def demo_trace_text() -> str:
    return resources.files("monet_app.demo").joinpath("demo_trace.jsonl").read_text("utf-8")


def shifted(trace_text: str, now: datetime) -> str:
    """The trace with its dates moved so its last day is today (or yesterday, when its
    last talk is later in the day than ``now``), wall-clock times kept, in ``now``'s
    time zone."""
    lines = [json.loads(line) for line in trace_text.splitlines() if line.strip()]
    stamps = [datetime.fromisoformat(line["ts"]) for line in lines]
    last = max(stamps)
    target = now.date() if last.time() <= now.time() else now.date() - timedelta(days=1)
    days = (target - last.date()).days
    zone = now.tzinfo
    out = []
    for line, stamp in zip(lines, stamps, strict=True):
        moved = (stamp + timedelta(days=days)).replace(tzinfo=zone)
        line["ts"] = moved.isoformat()
        if "date" in line:
            line["date"] = (date.fromisoformat(line["date"]) + timedelta(days=days)).isoformat()
        out.append(json.dumps(line, ensure_ascii=False))
    return "\n".join(out) + "\n"


def is_demo(home: Path) -> bool:
    if not (home / DB_FILENAME).exists():
        return False
    db = Database(home)
    try:
        with db.session() as session:
            return bool(read_value(session, DEMO_KEY))
    finally:
        db.close()


#: What a folder may hold and still be a new one for the demo (a log written while
#: MONET looked at it, a desktop's own files).
_NOT_THE_PERSONS = re.compile(r"^(?:monet\.log(?:\.\d+)?|\.DS_Store|desktop\.ini|Thumbs\.db)$")


def _holds_something(home: Path) -> bool:
    """Does ``home`` hold anything of a person's: messages, but also settings, a usage
    ledger, a core prompt, backups (a home with no messages yet is still theirs)?"""
    try:
        return any(not _NOT_THE_PERSONS.match(entry.name) for entry in home.iterdir())
    except FileNotFoundError:
        return False
    except NotADirectoryError:
        return True


def prepare(home: Path, now: datetime) -> bool:
    """Fill ``home`` with the demo history unless it already holds it. Returns whether
    it replayed. Refuses a folder holding a history that is not a demo."""
    from monet_app.services.replay import replay

    if _holds_something(home):
        if not (home / DB_FILENAME).is_file() or not is_demo(home):
            raise DemoError(
                "{home} is not empty and is not the demo's folder (it may hold a MONET "
                "history, settings or a core prompt); the demo never touches a real data "
                "folder. Give --home an empty or new folder, or leave it out.", home=home)
        return False
    home.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        trace = Path(tmp) / "demo_trace.jsonl"
        trace.write_text(shifted(demo_trace_text(), now), "utf-8")
        replay(trace, home, None, librarian=True)
    db = Database(home)
    try:
        with db.session() as session:
            write_value(session, DEMO_KEY, True)
    finally:
        db.close()
    return True


def run_demo(home: Path | None) -> int:
    """Open the window on the demo history: in ``home`` (kept), or in a throwaway folder
    removed when the window closes."""
    from monet_app.services.standin_server import StandInServer
    from monet_app.window.desktop import run_app

    throwaway = home is None
    folder = Path(tempfile.mkdtemp(prefix="monet-demo-")) if home is None else home
    try:
        prepare(folder, datetime.now().astimezone())
        with StandInServer(answer_prefix=DEMO_ANSWER) as server:
            return run_app(folder, demo_url=server.url)
    finally:
        if throwaway:
            shutil.rmtree(folder, ignore_errors=True)
