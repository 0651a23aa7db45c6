"""The librarian as a process: placeholders filled once, safely beside a replay, through
failures; Claude summaries priced in the ledger; the schedule that runs it daily."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest
from sqlmodel import select

from cms.context.prompt import system_parts
from cms.librarian.runner import Librarian
from cms.librarian.summarizer import ClaudeSummarizer
from cms.summaries import OfflineSummarizer
from monet_app.cli.usage import usage_report
from monet_app.services.gateway import AnthropicModel, make_client
from monet_app.services.standin_server import StandInServer
from storage import Database
from storage.models import TimelineEntry
from tests.conftest import TRACES
from tests.helpers import monet_command, run_monet
from tests.logcheck import read_log


def entries(home: Path) -> list[TimelineEntry]:
    db = Database(home)
    with db.session() as session:
        rows = list(session.exec(select(TimelineEntry).where(TimelineEntry.level == "segment")).all())
    db.close()
    return rows


def split_trace(tmp_path: Path, name: str, cut: int) -> tuple[Path, Path]:
    lines = (TRACES / name).read_text("utf-8").splitlines()
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    first.write_text("\n".join(lines[:cut]) + "\n", "utf-8")
    second.write_text("\n".join(lines[cut:]) + "\n", "utf-8")
    return first, second


@pytest.mark.slow
def test_once_fills_placeholders_and_the_next_day_resolves_once(tmp_path: Path) -> None:
    first, second = split_trace(tmp_path, "lme-01.jsonl", 40)
    home, log = tmp_path / "home", tmp_path / "log.jsonl"
    assert run_monet("replay", str(first), "--home", str(home), "--request-log", str(log),
                     "--librarian", "off").returncode == 0
    assert "要約作成中" in run_monet("timeline", "--home", str(home)).stdout
    done = run_monet("librarian", "--once", "--home", str(home))
    assert done.returncode == 0, done.stderr
    assert "offline summarizer stands in" in done.stdout  # no key in the tests: said so
    assert "要約作成中" not in run_monet("timeline", "--home", str(home)).stdout
    before = len(read_log(log))
    assert run_monet("replay", str(second), "--home", str(home), "--request-log", str(log),
                     "--librarian", "off").returncode == 0
    later = read_log(log)[before:]
    first_request = next(i for i, r in enumerate(later) if r["kind"] == "request")
    names = [r["name"] for r in later[:first_request] if r["kind"] == "event"]
    assert names.count("pending_resolved") == 1


@pytest.mark.slow
def test_watch_beside_a_replay_summarizes_each_segment_exactly_once(tmp_path: Path) -> None:
    home = tmp_path / "home"
    Database(home).close()
    watcher = subprocess.Popen(
        monet_command("librarian", "--watch", "--interval", "0.05", "--home", home),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert watcher.stdout is not None
        first = watcher.stdout.readline()  # it is watching (and takes a stop signal) now
        assert first.startswith("librarian:"), first
        replayed = run_monet("replay", str(TRACES / "synthetic-tabstorm.jsonl"), "--home", str(home),
                             "--librarian", "on")
        assert replayed.returncode == 0, replayed.stderr
        deadline = time.monotonic() + 30
        while any(e.summary is None for e in entries(home)) and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        watcher.terminate()
        out, err = watcher.communicate(timeout=30)
    assert watcher.returncode == 0, err
    out = first + out
    rows = entries(home)
    assert rows and all(e.summary for e in rows)
    # each line was summarized once: either ahead of its fold (a presummary of exactly its
    # run, attempts 0) or after it (one leased attempt); never both, never twice
    db = Database(home)
    with db.session() as session:
        from storage.models import Presummary, Segment

        ahead = {(p.first_message_id, p.last_message_id): p
                 for p in session.exec(select(Presummary)).all()}
        segments = {s.id: s for s in session.exec(select(Segment)).all()}
    db.close()
    assert not [p for p in ahead.values() if p.source.startswith("claim:")]
    for e in rows:
        segment = segments[e.segment_id]
        from_ahead = (segment.first_message_id, segment.last_message_id) in ahead
        assert (e.attempts, from_ahead) in ((0, True), (1, False)), (e.attempts, from_ahead)
    assert all(e.claimed_by is None for e in rows)
    assert "Traceback" not in err and "locked" not in err + out


class Flaky:
    name = "flaky-model"

    def __init__(self) -> None:
        self.down = True
        self.calls = 0

    def close(self) -> None:
        pass

    def summarize(self, turns: object) -> str:
        self.calls += 1
        if self.down:
            raise ConnectionError("the model service is down")
        return "a summary from the model"


def test_a_failing_summarizer_keeps_placeholders_and_a_later_pass_fills_them(tmp_path: Path) -> None:
    from cms.settings import Settings
    from tests.helpers import World

    flaky = Flaky()
    w = World(tmp_path / "home", Settings(), summarizer=flaky)
    w.at("2026-03-02T09:00:00+09:00").turn("day one")
    w.at("2026-03-03T09:00:00+09:00").turn("day two")  # sunset: day one folds
    report = w.librarian.run_pass()
    assert report.failed == 1 and report.written == 0 and "down" in report.last_error
    body = w.at("2026-03-03T09:10:00+09:00").turn("chat keeps working")
    assert "要約作成中" in system_parts(body)[1]
    [entry] = entries(tmp_path / "home")
    assert entry.summary is None and entry.claimed_by is None and "down" in (entry.last_error or "")
    flaky.down = False
    assert w.librarian.run_pass().written == 1
    [entry] = entries(tmp_path / "home")
    assert entry.summary == "a summary from the model" and entry.summary_source == "flaky-model"
    body = w.at("2026-03-03T09:20:00+09:00").turn("and now")
    assert "a summary from the model" in system_parts(body)[1]


def test_repeated_failures_fall_back_to_the_offline_summarizer(tmp_path: Path) -> None:
    from cms.settings import Settings
    from tests.helpers import World

    flaky = Flaky()
    w = World(tmp_path / "home", Settings(), summarizer=flaky)
    w.at("2026-03-02T09:00:00+09:00").turn("京都旅行の計画を立てました。")
    w.at("2026-03-03T09:00:00+09:00").turn("next day")
    for _ in range(2):
        assert w.librarian.run_pass().failed == 1
    report = w.librarian.run_pass()
    assert report.written == 1 and report.fallback == 1
    [entry] = entries(tmp_path / "home")
    assert entry.summary_source == "offline (fallback)" and "京都旅行" in (entry.summary or "")


def test_two_librarians_never_do_one_job_twice(tmp_path: Path) -> None:
    """Two librarians' passes at once on one database. They are made to overlap, whatever
    the timing: each one's first summary waits (at a barrier) until the other is in its
    first summary too, so both hold a job at the same moment, and the one that claimed
    second has met the other's lease on the oldest pending line (both go oldest first)."""
    import threading

    from cms.librarian.runner import LibrarianReport
    from cms.settings import Settings
    from tests.helpers import World

    both_working = threading.Barrier(2, timeout=30)
    met: list[str] = []  # the librarians that reached the barrier and were let through

    class Counting(OfflineSummarizer):
        calls = 0

        def __init__(self) -> None:
            super().__init__()
            self.first = True

        def summarize(self, turns):
            type(self).calls += 1
            if self.first:
                self.first = False
                both_working.wait()  # BrokenBarrierError (the pass fails it) if alone
                met.append(threading.current_thread().name)
            return super().summarize(turns)

    w = World(tmp_path / "home", Settings(ceiling_tokens=200, keep_exchanges=1))
    for i in range(12):
        w.later().turn(f"話題 {i} " + "x" * 80, tab=["chat", "work"][i % 2])
    assert len(w.librarian.closed_runs()) + w.librarian.pending_count() >= 2  # work for two

    reports: dict[str, LibrarianReport] = {}

    def run_pass(name: str) -> None:
        reports[name] = Librarian(w.db, Counting(), w.clock).run_pass()

    threads = [threading.Thread(target=run_pass, args=(n,), name=n) for n in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads)
    assert sorted(met) == ["a", "b"], "the two passes did not overlap"
    assert sum(r.skipped for r in reports.values()) >= 1, reports  # a lease was met
    assert not [r.last_error for r in reports.values() if r.last_error], reports
    rows = entries(tmp_path / "home")
    assert rows and all(e.summary for e in rows)
    from storage.models import Presummary

    with w.db.session() as session:
        ahead = [p for p in session.exec(select(Presummary)).all() if p.summary]
    assert Counting.calls == len(rows) + len(ahead)  # each job once, by one of the two


def test_claude_summaries_are_priced_under_librarian(tmp_path: Path) -> None:
    from cms.model.ledger import record, usage_record
    from cms.settings import Settings
    from tests.helpers import World

    with StandInServer() as server:
        w = World(tmp_path / "home", Settings())
        w.at("2026-03-02T09:00:00+09:00").turn("an old topic")
        w.at("2026-03-03T09:00:00+09:00").turn("a new day")

        def ledger(usage, model):
            record(w.db, usage_record(ts="2026-03-03T09:01:00+09:00", day="2026-03-03",
                                      purpose="librarian", model=model, usage=usage,
                                      estimated_input=0, source="api"))

        model = AnthropicModel(make_client("any-key", base_url=server.url, max_retries=0))
        summarizer = ClaudeSummarizer(model, "claude-haiku-4-5", ledger)
        assert Librarian(w.db, summarizer, w.clock).run_pass().written == 1
        model.close()
        sent = server.requests[-1]
        assert sent["model"] == "claude-haiku-4-5" and "an old topic" in json.dumps(sent)
    [entry] = entries(tmp_path / "home")
    assert entry.summary and entry.summary_source == "claude-haiku-4-5"
    report = usage_report(w.db)
    assert report.dollars_by_purpose["librarian"] > 0
    assert report.dollars_by_purpose["chat"] >= 0


@pytest.mark.parametrize("kind, needle", [
    ("cron", "librarian --once --home"),
    ("systemd", "OnCalendar=*-*-* 04:00:00"),
    ("launchd", "<key>StartCalendarInterval</key>"),
])
@pytest.mark.slow
def test_install_schedule_prints_each_kind(tmp_path: Path, kind: str, needle: str) -> None:
    done = run_monet("librarian", "install-schedule", "--kind", kind, "--home", str(tmp_path / "h"))
    assert done.returncode == 0 and needle in done.stdout
    assert str(tmp_path / "h") in done.stdout


@pytest.mark.slow
def test_install_schedule_writes_files(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    done = run_monet("librarian", "install-schedule", "--kind", "launchd", "--write",
                     "--home", str(tmp_path / "h"), env=env)
    assert done.returncode == 0, done.stderr
    plist = tmp_path / "Library" / "LaunchAgents" / "app.monet.librarian.plist"
    assert plist.exists() and "--once" in plist.read_text()
    assert "launchctl load -w" in done.stdout


@pytest.mark.slow
def test_promotion_groups_statements_and_rebuilds_the_next_request(tmp_path: Path) -> None:
    from cms.settings import Settings
    from tests.helpers import World

    home = tmp_path / "home"
    w = World(home, Settings())
    first = w.later().turn("こんにちは")
    assert run_monet("promote", "--category", "values", "--home", str(home),
                     "正直さを何より大事にする").returncode == 0
    assert run_monet("promote", "--category", "facts", "--home", str(home),
                     "猫を二匹飼っている").returncode == 0
    assert run_monet("promote", "--category", "values", "--home", str(home),
                     "急がば回れ").returncode == 0
    from cms.context.core_prompt import read_core

    core = read_core(w.db)  # (the file here; the history's own row on a server)
    assert core.index("## 価値観・判断基準") < core.index("- 正直さを何より大事にする")
    assert core.index("- 急がば回れ") < core.index("## 永続的な事実") < core.index("- 猫を二匹飼っている")
    body = w.later().turn("覚えてる？")
    assert w.events()[-1] == "settings_changed"
    pinned = body["system"][0]["text"]
    assert pinned.startswith(first["system"][0]["text"].rstrip()) and "猫を二匹飼っている" in pinned
    again = w.later().turn("もう一度")
    assert again["system"][0] == body["system"][0]  # stable until the next promotion
    bad = run_monet("promote", "--category", "values", "--home", str(home), "   ")
    assert bad.returncode == 2 and "empty" in bad.stderr


@pytest.mark.slow
def test_context_summary_draws_25_persona_and_75_recent(tmp_path: Path) -> None:
    from cms.context.core_prompt import promote, read_core
    from cms.memory.context_summary import select_memories
    from cms.settings import Settings
    from tests.helpers import World

    home = tmp_path / "home"
    w = World(home, Settings(ceiling_tokens=60, keep_exchanges=1, low_water_fraction=0.1))
    for i in range(30):
        promote(w.db, ["values", "decisions", "facts"][i % 3], f"statement {i}")
    for i in range(90):
        w.later().turn(f"topic number {i} with some words")
    w.librarian.run_pass()
    with w.db.session() as session:
        selection = select_memories(session, read_core(w.db), w.clock.now())
    assert len(selection.persona) == 25 and len(selection.recent) == 75
    # the newest 25 promoted statements (grouped by category in the file), newest talk last
    assert "statement 29" in selection.persona and "statement 0" not in selection.persona
    assert "topic number 88" in selection.recent[-1]
    assert "topic number 0 " not in " ".join(selection.recent)


def test_a_context_summary_line_may_say_what_the_summarized_talk_says(tmp_path: Path) -> None:
    """Issue 41: a model's context line was checked against the TI lines only, so a true
    line naming what the talk said (and a short offline line left out) was dropped; it
    is checked against the talk those lines summarize, and a line it does not say is not
    kept."""
    from cms.context.core_prompt import read_core
    from cms.memory.context_summary import (
        ClaudeContextWriter,
        grounded_lines,
        lines_of,
        select_memories,
    )
    from cms.model.standin import StandInModel
    from cms.settings import Settings
    from cms.tokens import CharEstimator
    from tests.helpers import World

    w = World(tmp_path / "home", Settings())
    w.at("2026-03-01T19:00:00+09:00").turn(
        "The migration moved about 1.2 million customer records with zero downtime, and "
        "after the rota change our pages dropped from eleven a week to three.",
        reply="That is a strong story.")
    w.later().turn("My promotion panel for senior engineer is on Thursday the 20th, with "
                   "Dave and Sarah Coyle.", reply="Good luck with the panel!")
    w.at("2026-03-02T09:00:00+09:00").turn("Morning.")  # sunset: yesterday folds
    w.librarian.run_pass()
    with w.db.session() as session:
        selection = select_memories(session, read_core(w.db), w.clock.now())
    assert any("Sarah Coyle" in text for text in selection.talk)
    assert any("Good luck" in text for text in selection.talk)  # both sides of the talk
    line = "- The promotion panel for senior engineer is on Thursday the 20th, with Sarah Coyle."
    model = StandInModel(CharEstimator())
    model.expect(line + "\n- Lives in Oslo with two cats named Pip and Ola.", None)
    assert ClaudeContextWriter(model, "test").write(selection) == line
    assert grounded_lines(line, lines_of(selection)) == ""  # the TI line alone: too little


def test_context_summary_reaches_the_next_rebuild_not_the_current_prompt(tmp_path: Path) -> None:
    from cms.context.core_prompt import promote
    from cms.context.prompt import extends
    from cms.settings import Settings
    from tests.helpers import World

    home = tmp_path / "home"
    w = World(home, Settings(ceiling_tokens=100_000))
    promote(w.db, "facts", "東京に住んでいる")
    w.at("2026-03-01T10:00:00+09:00").turn("昨日は山に登った")
    w.at("2026-03-02T09:00:00+09:00").turn("今日は雨")  # sunset: yesterday folds
    w.librarian.run_pass()  # summaries, and the day's context summary
    summary_file = (home / "context_summary.txt").read_text("utf-8")
    assert "山に登った" in summary_file
    assert "東京に住んでいる" not in summary_file  # promoted: the pinned block carries it
    assert "context_summary_changed" in w.events()
    mid_day = w.at("2026-03-02T09:10:00+09:00").turn("昼の話")  # pending_resolved re-render
    before = w.at("2026-03-02T09:20:00+09:00").turn("午後の話")
    assert extends(mid_day, before)
    w.at("2026-03-03T09:00:00+09:00").turn("次の日")  # the next rebuild point: sunset
    body = w.bodies[-1]
    # the offline summary is TI lines: the block leaves out what the TI says (said once)
    assert "山に登った" in system_parts(body)[1] and "山に登った" not in system_parts(body)[2]
    assert "東京に住んでいる" in body["system"][0]["text"]

    class Writer:  # a model's summary: words of its own reach the block
        name, uses_model = "test", False

        def write(self, selection: object) -> str:
            # (a line headed by a day the TI holds would retell it: issue 40)
            return "- 登山が趣味で、週末はよく山へ行く（2026-03-01）"

    w.librarian.context_writer = Writer()
    w.at("2026-03-03T09:30:00+09:00")
    w.librarian.write_context_summary()
    w.at("2026-03-04T09:00:00+09:00").turn("また次の日")
    assert "登山が趣味" in system_parts(w.bodies[-1])[2]
    assert w.librarian.context_summary_due() is True  # a new day: due again


def test_runs_summarized_ahead_make_a_sunset_a_single_rebuild(tmp_path: Path) -> None:
    from cms.settings import Settings
    from tests.helpers import World

    w = World(tmp_path / "home", Settings())
    w.at("2026-03-02T09:00:00+09:00").turn("朝の仕事の段取りを決めた", tab="work")
    w.at("2026-03-02T09:05:00+09:00").turn("雑談: 週末は海に行く", tab="chat")
    w.at("2026-03-02T21:00:00+09:00").turn("夜の雑談", tab="chat")
    report = w.librarian.run_pass()  # at 21:00: the two morning runs are closed, the last is not
    assert report.ahead == 2
    w.at("2026-03-02T23:30:00+09:00")
    assert w.librarian.run_pass().ahead == 1  # the evening run closed by the pause
    body = w.at("2026-03-03T08:00:00+09:00").turn("おはよう")  # sunset
    ti = system_parts(body)[1]
    assert "要約作成中" not in ti and "週末は海に行く" in ti
    w.at("2026-03-03T08:10:00+09:00").turn("続き")
    events = w.events()
    assert events.count("sunset_fold") == 1 and "pending_resolved" not in events


def test_a_run_folded_while_its_summary_is_written_keeps_one_summary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process folds a run after the librarian checked it and before it writes the
    summary ahead: the write refuses (the statement itself checks the fold), the claim is
    dropped, and the line is summarized once, as the fold's pending entry."""
    from cms.settings import Settings
    from storage.models import Presummary
    from tests.helpers import World

    w = World(tmp_path / "home", Settings())
    w.at("2026-03-02T09:00:00+09:00").turn("朝の仕事の段取りを決めた", tab="work")
    w.at("2026-03-02T21:00:00+09:00").turn("夜の雑談", tab="chat")
    folded: list[object] = []

    def fold_between(_db: object, _run: object) -> bool:
        if not folded:  # the sunset of the next morning, as the app would fold it
            folded.append(w.at("2026-03-03T08:00:00+09:00").turn("おはよう"))
        return True  # the check itself passed: the fold came just after it

    monkeypatch.setattr(Librarian, "_run_intact", staticmethod(fold_between))
    report = w.librarian.run_pass()
    assert folded and report.ahead == 0
    with w.db.session() as session:
        assert session.exec(select(Presummary)).all() == []  # no summary ahead, no claim
    monkeypatch.undo()
    w.librarian.run_pass()
    rows = [e for e in entries(w.home) if e.first_message_id == 1]
    assert len(rows) == 1 and rows[0].summary and rows[0].attempts == 1


def test_with_the_api_down_a_pass_stops_calling_and_backs_off(tmp_path: Path) -> None:
    """The circuit breaker: after a few failures in a row a pass stops calling the model,
    keeps the placeholders, says why, and the next passes wait longer."""
    from cms.librarian.runner import BREAKER_FAILURES, Librarian
    from cms.librarian.summarizer import ClaudeSummarizer
    from cms.settings import Settings
    from monet_app.services.gateway import AnthropicModel, make_client
    from monet_app.services.standin_server import StandInServer
    from tests.helpers import World

    w = World(tmp_path / "home", Settings())
    for hour in range(8, 20):  # twelve runs, an hour apart: twelve Timeline Index lines
        w.at(f"2026-03-01T{hour:02d}:00:00+09:00").turn(f"{hour}時の話です")
    w.at("2026-03-02T09:00:00+09:00").turn("次の日")  # sunset: twelve placeholders
    with StandInServer() as server:
        server.failures.extend({"status": 529, "type": "overloaded_error",
                                "headers": {"retry-after-ms": "1"}} for _ in range(500))
        model = AnthropicModel(make_client("sk-ant-test-0000", base_url=server.url,
                                           max_retries=2))
        librarian = Librarian(w.db, ClaudeSummarizer(model, "claude-haiku-4-5"), w.clock)
        try:
            report = librarian.run_pass()
            print(f"injected: every request 529; one pass made {len(server.requests)} requests")
            assert len(server.requests) == BREAKER_FAILURES * 3  # each call: 1 + 2 SDK retries
            assert report.written == 0 and report.held_back >= 12 - BREAKER_FAILURES
            assert "stopped calling the model" in report.text()
            assert librarian.pending_count() == 12  # the placeholders stay
            w.at("2026-03-02T09:06:00+09:00")
            assert not librarian.due()  # backed off: twice the interval
            w.at("2026-03-02T09:11:00+09:00")
            assert librarian.due()
            server.failures.clear()  # the API is back
            assert librarian.run_pass().written == 12
        finally:
            model.close()


def test_a_pass_counts_ahead_the_lines_the_next_rebuild_renders(tmp_path: Path) -> None:
    """After a librarian pass in this process, the Timeline Index lines it made ready (the
    runs it summarized ahead of their fold) are already counted: the sunset's rebuild, with
    the person waiting, encodes none of them (``ContextManager.count_ahead``)."""
    from cms.context.manager import PreparedRequest
    from cms.settings import Settings
    from cms.tokens import CharEstimator
    from tests.helpers import World

    class Remembering(CharEstimator):
        """Counts as CharEstimator does; records each text the first time it is counted
        (what a remembering estimator would encode)."""

        def __init__(self) -> None:
            self.known: set[str] = set()
            self.new: list[str] = []
            self.recording = False

        def count(self, text: str) -> int:
            if text not in self.known:
                self.known.add(text)
                if self.recording:
                    self.new.append(text)
            return len(text)

    estimator = Remembering()
    w = World(tmp_path / "home", Settings(), estimator=estimator)
    w.at("2026-03-02T09:00:00+09:00").turn("朝の仕事の段取りを決めた", tab="work")
    w.at("2026-03-02T09:12:00+09:00").turn("資料は昼までに送る", tab="work")  # a run of minutes
    w.at("2026-03-02T09:15:00+09:00").turn("雑談: 週末は海に行く", tab="chat")
    w.at("2026-03-02T21:00:00+09:00").turn("夜の雑談", tab="chat")
    w.at("2026-03-02T23:30:00+09:00")
    w.core.librarian_pass()  # the three runs, summarized ahead of their fold
    prepare = w.cm.prepare_request

    def recorded() -> PreparedRequest:  # what the request's preparation encodes
        estimator.recording = True
        try:
            return prepare()
        finally:
            estimator.recording = False

    w.cm.prepare_request = recorded  # type: ignore[method-assign]
    body = w.at("2026-03-03T08:00:00+09:00").turn("おはよう")  # sunset
    ti = system_parts(body)[1]
    assert "要約作成中" not in ti and "週末は海に行く" in ti
    lines = [line for line in ti.split("\n") if line.startswith("2026-03-02")]
    assert len(lines) == 3 and any(line.startswith("2026-03-02 09:00–09:12") for line in lines)
    assert estimator.new  # the rebuild counted something new (the context block's date)
    assert [text for text in estimator.new if any(line in text for line in lines)] == []


def test_a_pass_whose_counting_ahead_fails_is_still_a_pass(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Counting ahead is for speed: a locked database there leaves the counting to the
    rebuild, and the pass (its summaries are stored) still reports what it wrote."""
    from cms.settings import Settings
    from storage.errors import DatabaseError
    from tests.helpers import World

    w = World(tmp_path / "home", Settings())
    w.at("2026-03-02T09:00:00+09:00").turn("朝の仕事の段取りを決めた", tab="work")
    w.at("2026-03-03T08:00:00+09:00").turn("おはよう")  # sunset: one placeholder

    def locked() -> None:
        raise DatabaseError("The database is locked by another program.")

    w.cm.count_ahead = locked  # type: ignore[method-assign]
    assert w.core.librarian_pass() == 1
    assert "counting ahead skipped" in caplog.text and "Traceback" not in caplog.text

    def broken() -> None:  # a bug: still a pass, and its traceback goes to the log
        raise RuntimeError("a bug")

    w.cm.count_ahead = broken  # type: ignore[method-assign]
    w.core.librarian_pass()
    assert "RuntimeError: a bug" in caplog.text
