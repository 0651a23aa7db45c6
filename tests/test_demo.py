"""``monet --demo``: the bundled sample history, shifted to end today, in a throwaway
folder, answered by the built-in stand-in, never touching the person's data folder."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from cms.memory import rules as memory
from monet_app import demo
from storage import Database
from storage.errors import DemoError
from storage.talk import day_message_counts
from storage.timeline import top_level_entries


def test_the_bundled_history_is_bilingual_and_uses_every_tab() -> None:
    lines = [json.loads(line) for line in demo.demo_trace_text().splitlines() if line.strip()]
    turns = [line for line in lines if "user" in line]
    assert len({line["ts"][:10] for line in turns}) >= 5
    assert {line["tab"] for line in turns} == {"chat", "research", "work", "social"}
    english = [t for t in turns if t["user"].isascii()]
    assert len(turns) / 8 < len(english) < len(turns)  # Japanese and English
    stamps = [datetime.fromisoformat(line["ts"]) for line in lines]
    assert stamps == sorted(stamps)


def test_dates_shift_so_the_history_ends_today_or_yesterday() -> None:
    text = demo.demo_trace_text()
    zone = timezone(timedelta(hours=-5))
    late = datetime(2027, 6, 1, 23, 59, tzinfo=zone)
    moved = [json.loads(line) for line in demo.shifted(text, late).splitlines()]
    original = [json.loads(line) for line in text.splitlines() if line.strip()]
    assert moved[-1]["ts"].startswith("2027-06-01")
    assert moved[-1]["ts"].endswith("-05:00")
    assert moved[0]["ts"][11:19] == original[0]["ts"][11:19]  # wall-clock times kept
    early = datetime(2027, 6, 1, 0, 30, tzinfo=zone)  # earlier than the last talk's time
    moved = [json.loads(line) for line in demo.shifted(text, early).splitlines()]
    assert moved[-1]["ts"].startswith("2027-05-31")


@pytest.mark.heavy
def test_prepare_fills_a_new_folder_once_and_marks_it(tmp_path: Path) -> None:
    home = tmp_path / "demo"
    assert demo.prepare(home, datetime.now().astimezone()) is True
    db = Database(home)
    with db.session() as session:
        days = day_message_counts(session)
        entries = top_level_entries(session)
        memories = memory.active_items(session, datetime.now().astimezone())
    db.close()
    assert len(days) >= 5 and entries and not any(e.summary is None for e in entries)
    assert len(memories) >= 3  # "覚えておいて" / "remember that" statements
    assert demo.is_demo(home)
    assert demo.prepare(home, datetime.now().astimezone()) is False  # kept, not replayed


def test_a_real_history_is_never_touched(tmp_path: Path) -> None:
    from tests.helpers import write_past_day

    home = tmp_path / "real"
    write_past_day(home)
    before = {p.name: p.stat().st_mtime_ns for p in home.iterdir()}
    with pytest.raises(DemoError, match="not the demo"):
        demo.prepare(home, datetime.now().astimezone())
    assert {p.name: p.stat().st_mtime_ns for p in home.iterdir()} == before


@pytest.mark.heavy
def test_monet_demo_uses_a_throwaway_folder_and_leaves_the_real_one_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from monet_app.cli import main as cli
    from monet_app.window import desktop

    real = tmp_path / "real-home"
    monkeypatch.setenv("MONET_HOME", str(real))
    seen: dict[str, object] = {}

    def fake_run_app(home: Path, demo_url: str | None = None) -> int:
        seen.update(home=home, url=demo_url, is_demo=demo.is_demo(home))
        return 0

    monkeypatch.setattr(desktop, "run_app", fake_run_app)
    assert cli.main(["--demo"]) == 0
    assert seen["is_demo"] is True and str(seen["url"]).startswith("http://127.0.0.1:")
    assert not Path(str(seen["home"])).exists()  # the throwaway folder is gone
    assert not real.exists()  # not even a log in the person's folder
    kept = tmp_path / "kept-demo"
    assert cli.main(["--demo", "--home", str(kept)]) == 0
    assert demo.is_demo(kept)


@pytest.mark.heavy
def test_the_demo_window_says_so_and_the_stand_in_answers(qtbot, tmp_path: Path) -> None:
    from PySide6.QtCore import Qt

    from monet_app.services.standin_server import StandInServer
    from monet_app.services.wiring import standin_model
    from monet_app.window.app import AppController

    home = tmp_path / "demo"
    demo.prepare(home, datetime.now().astimezone())
    with StandInServer(answer_prefix=demo.DEMO_ANSWER) as server:
        c = AppController(home, model_factory=standin_model(server.url), needs_key=False,
                          demo=True)
        qtbot.addWidget(c.window)
        c.window.show()
        try:
            assert "demo" in c.window.windowTitle() or "デモ" in c.window.windowTitle()
            assert not c.window.key_box.isVisible()
            assert c.window.transcript.model.rowCount() > 0  # today (or the last day) has talk
            c.window.compose.field.setFocus()
            qtbot.keyClicks(c.window.compose.field, "hello demo")
            qtbot.keyClick(c.window.compose.field, Qt.Key.Key_Return)
            qtbot.waitUntil(lambda: not c.stream.busy, timeout=10_000)
            assert c.window.transcript.model.rows[-1].text.startswith(demo.DEMO_ANSWER)
            assert len(server.requests) == 1
        finally:
            c.close()


@pytest.mark.heavy
@pytest.mark.parametrize("what", ["core prompt", "settings and ledger"])
def test_a_home_with_no_messages_but_the_persons_settings_is_never_touched(
        tmp_path: Path, what: str) -> None:
    """A home before its first message already holds the person's settings, usage
    ledger or core prompt; the demo used to fill it because it had no messages."""
    from cms.context.core_prompt import promote
    from cms.settings import Settings
    from monet_app.services.wiring import build_core

    home = tmp_path / "fresh"
    if what == "core prompt":
        home.mkdir()
        promote(home, "values", "I prefer short answers.")
    else:
        from cms.clock import ManualClock

        clock = ManualClock(datetime.now().astimezone())
        build_core(home, clock=clock, settings=Settings(max_tokens=900)).close()
    before = {p.name: p.read_bytes() for p in home.iterdir() if p.is_file()}
    with pytest.raises(DemoError, match="not empty"):
        demo.prepare(home, datetime.now().astimezone())
    assert {p.name: p.read_bytes() for p in home.iterdir() if p.is_file()} == before
    (tmp_path / "new").mkdir()
    (tmp_path / "new" / "monet.log").write_text("looked at\n")
    assert demo.prepare(tmp_path / "new", datetime.now().astimezone()) is True
