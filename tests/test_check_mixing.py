"""``monet check-mixing``: mixed days replayed as the sunset and the thread model, probes
judged by rule, a report, the cost asked first, the ledger, and the window's dialog.

No network: offline runs use the in-process answer-key stand-in; ``--live`` runs go to
a local ``StandInServer`` through ``ANTHROPIC_BASE_URL`` with a dummy key."""

from __future__ import annotations

import argparse
import io
import json
import sys
import threading
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from monet_app import mixing
from monet_app.mixing import check
from monet_app.mixing.days import builtin_days, contains, judge
from monet_app.services.standin_server import StandInServer
from storage import Database
from storage.errors import CheckStopped, InputError, UserFacingError
from storage.models import UsageRecord

DUMMY_KEY = "sk-ant-test-mixing-0000"


def check_mixing(*argv: str) -> int:
    """``monet check-mixing ...`` as the command runs it: through ``monet_app.cli.main`` once
    the subcommand is wired there, else through the same parser and error handling."""
    from monet_app.cli import main as cli

    parser = cli.build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    if "check-mixing" in commands.choices:
        return cli.main(["check-mixing", *argv])
    own = argparse.ArgumentParser(prog="monet")
    mixing.add_parser(own.add_subparsers(dest="command"))
    args = own.parse_args(["check-mixing", *argv])
    try:
        return mixing.main(args, Path(args.sub_home))
    except UserFacingError as exc:
        print(f"monet: {exc}", file=sys.stderr)
        return 2


def ledger(home: Path) -> list[UsageRecord]:
    db = Database(home)
    try:
        with db.session() as session:
            return list(session.exec(select(UsageRecord)).all())
    finally:
        db.close()


@pytest.fixture
def live_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[StandInServer]:
    with StandInServer() as server:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", DUMMY_KEY)
        yield server


# ----- the built-in days and the rules ----------------------------------------------------
def test_the_mixed_days_are_what_the_issue_asks_for() -> None:
    days = builtin_days()
    probes = [(d, p) for d in days for p in d.probes]
    assert len(probes) >= 20
    assert {d.lang for d in days} == {"ja", "en"}
    assert len({p.tab for _d, p in probes}) >= 3
    for day in days:
        tabs = [t.tab for t in day.turns]
        assert len(set(tabs)) >= 3
        switches = sum(1 for a, b in pairwise(tabs) if a != b)
        assert switches >= len(tabs) // 2, f"{day.id}: the tabs are not interleaved"
        assert all(t.ts < day.probes_at for t in day.turns)
        for probe in day.probes:
            # the shared word is talked about in this tab and in another one
            talk = {t.tab for t in day.turns
                    if any(contains(t.user + t.assistant, w) for w in probe.topic)}
            assert probe.tab in talk and len(talk) >= 2, f"{day.id}/{probe.id}: {talk}"
            # the same question is asked in another tab too: only the tab tells them apart
            twins = [q for q in day.probes if q.question == probe.question and q is not probe]
            assert twins and all(q.tab != probe.tab for q in twins), f"{day.id}/{probe.id}"


def test_each_answer_key_is_judged_as_it_should_be() -> None:
    for day in builtin_days():
        for probe in day.probes:
            where = f"{day.id}/{probe.id}"
            assert judge(probe, probe.right).verdict == "right", where
            assert judge(probe, probe.wrong).verdict == "mixed up", where
            assert judge(probe, probe.question).verdict == "other", where


def test_words_are_matched_as_a_person_would_read_them() -> None:
    assert contains("Sam's party", "sam") and not contains("the same request", "sam")
    assert contains("交換は9,800円", "9800") and contains("９８００円", "9800")
    assert contains("It's on June 14th", "june 14") and not contains("June 145", "june 14")
    assert contains("会議室７Ｂを１４時から", "7b") and contains("会議室７Ｂを１４時から", "14時")
    assert not contains("in 1964", "64") and contains("64% retention", "64")
    assert contains("LIGHTGBM", "lightgbm")
    probe = builtin_days()[2].probes[0]  # en-1 work deadline
    both = judge(probe, "Friday at noon (your passport one is June 14).")
    assert both.verdict == "mixed up" and both.right_found == ("friday",)
    assert both.mixed_found == ("june 14", "passport")


# ----- offline: both models, every probe, a report ----------------------------------------
@pytest.mark.heavy
def test_offline_check_runs_both_models_on_every_probe_and_writes_a_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home, out = tmp_path / "home", tmp_path / "report.json"
    assert check_mixing("--home", str(home), "--out", str(out)) == 0
    table = capsys.readouterr().out
    report = json.loads(out.read_text("utf-8"))
    assert report == json.loads((home / check.REPORT_FILE).read_text("utf-8"))
    assert check.last_report(home) == report
    every = [f"{d.id}/{p.id}" for d in builtin_days() for p in d.probes]
    assert [p["id"] for p in report["probes"]] == every
    for probe in report["probes"]:
        for shape in ("sunset", "thread"):
            outcome = probe[shape]
            assert outcome["verdict"] == "right", (probe["id"], shape, outcome["answer"])
            assert outcome["requests"] == 1 and outcome["prompt_tokens"] > 0
            assert outcome["dollars"] > 0
        # one stream carries every tab; a thread carries its own tab only
        assert len(probe["sunset"]["tabs_in_request"]) >= 3
        assert probe["thread"]["tabs_in_request"] == [probe["tab_label"]]
    for shape in ("sunset", "thread"):
        totals = report["totals"][shape]
        assert (totals["right"], totals["mixed_up"], totals["other"]) == (len(every), 0, 0)
        assert totals["requests"] == len(every) and totals["prompt_tokens"] > 0
    assert report["answers"] == "stand-in" and report["finding"] == "no_sign"
    assert check.STANDIN_NOTE in report["verdict"]
    assert report["verdict"].startswith(f"sunset model: {len(every)}/{len(every)} right, 0 mixed")
    for probe_id in every:
        assert probe_id in table
    assert "verdict: " + report["verdict"] in table
    assert "仕事" in table and "Research" in table
    assert not ledger(home), "an offline check spends nothing"


@pytest.mark.heavy
def test_wrong_answers_are_reported_as_mixed_up(tmp_path: Path) -> None:
    """The checker can fail: the stand-in gives the other tab's fact."""
    report = check.run_check(tmp_path / "home", check.CheckOptions(standin="wrong",
                                                                   days=("ja-1",)))
    for shape in ("sunset", "thread"):
        assert report["totals"][shape]["mixed_up"] == 6
        assert report["totals"][shape]["right"] == 0
    assert all(p["sunset"]["mixed_found"] for p in report["probes"])
    assert report["finding"] == "both_mix"
    assert "0/6 right, 6 mixed up" in report["verdict"]


@pytest.mark.heavy
def test_a_tab_blind_reader_mixes_up_in_one_stream_and_not_in_threads(tmp_path: Path) -> None:
    """A reader that ignores the tab labels: the check tells the two models apart."""
    report = check.run_check(tmp_path / "home", check.CheckOptions(standin="tab-blind",
                                                                   days=("en-1", "ja-2")))
    sunset, thread = report["totals"]["sunset"], report["totals"]["thread"]
    assert sunset["mixed_up"] >= 4 and thread["mixed_up"] == 0
    assert thread["right"] == thread["probes"] == 12
    assert report["finding"] == "stream_mixes_more"
    assert "before turning the sunset model on" in check.report_table(report)


@pytest.mark.heavy
def test_echoed_questions_are_other_and_the_verdict_says_it_cannot_tell(tmp_path: Path) -> None:
    report = check.run_check(tmp_path / "home", check.CheckOptions(standin="echo",
                                                                   days=("en-2",)),
                             keep=False)
    assert report["totals"]["sunset"]["other"] == 6 and report["finding"] == "cannot_tell"
    assert not (tmp_path / "home" / check.REPORT_FILE).exists()


@pytest.mark.heavy
def test_a_stopped_check_reports_nothing(tmp_path: Path) -> None:
    stop = threading.Event()
    seen: list[tuple[int, int]] = []

    def progress(done: int, total: int) -> None:
        seen.append((done, total))
        stop.set()

    with pytest.raises(CheckStopped):
        check.run_check(tmp_path / "home", check.CheckOptions(days=("ja-1",)),
                        progress=progress, cancel=stop)
    assert seen == [(1, 12)]
    assert check.last_report(tmp_path / "home") is None


def test_options_that_do_not_go_together_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = str(tmp_path / "home")
    assert check_mixing("--home", home, "--grader") == 2
    assert "needs --live" in capsys.readouterr().err
    assert check_mixing("--home", home, "--live", "--standin", "wrong") == 2
    assert "--standin" in capsys.readouterr().err
    assert check_mixing("--home", home, "--day", "xx-9") == 2
    assert "ja-1" in capsys.readouterr().err
    with pytest.raises(InputError):
        check.CheckOptions(core_prompt="  ").checked()


@pytest.mark.heavy
def test_pinned_instructions_can_be_measured_before_they_are_changed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--core-prompt FILE``: a before/after with this check, the setting untouched."""
    trial = tmp_path / "pinned.txt"
    trial.write_text("タブのラベルを必ず確かめてから答えてください。\n", "utf-8")
    home = tmp_path / "home"
    assert check_mixing("--home", str(home), "--core-prompt", str(trial), "--day", "ja-1",
                        "--json") == 0
    report = json.loads(capsys.readouterr().out)
    assert report["core_prompt"]["source"] == str(trial)
    assert report["totals"]["sunset"]["right"] == 6
    assert check.person_settings(home).core_prompt != trial.read_text("utf-8")


# ----- live: through the gateway to a local stand-in server -------------------------------
@pytest.mark.heavy
def test_live_requests_carry_one_stream_or_one_tab_and_are_in_the_ledger(
    tmp_path: Path, live_server: StandInServer, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "home"
    assert check_mixing("--home", str(home), "--live", "--yes", "--day", "ja-1",
                        "--day", "en-2") == 0
    out = capsys.readouterr().out
    assert out.startswith("check-mixing --live: about $")
    assert "for 24 requests to claude-sonnet-4-6" in out.split("\n")[0]
    requests = live_server.requests
    assert len(requests) == 24  # 2 days x 6 probes x 2 models; the estimate stayed offline
    for index, body in enumerate(requests):
        labels = check.request_labels(body)
        if (index // 6) % 2 == 0:  # per day: the sunset model's six, then the thread model's
            assert len(labels) >= 3, labels
        else:
            assert len(labels) == 1, labels
        assert body["messages"][-1]["content"][-1]["text"].endswith(
            ("？", "?"))  # the probe is the newest turn
    rows = ledger(home)
    assert len(rows) == 24
    assert {r.purpose for r in rows} == {check.PURPOSE} and {r.source for r in rows} == {"api"}
    assert sum(r.dollars for r in rows) > 0
    report = check.last_report(home)
    assert report is not None and report["answers"] == "claude"
    assert report["endpoint"] == live_server.url
    assert check.STANDIN_NOTE not in report["verdict"]


@pytest.mark.heavy
def test_live_asks_first_and_refuses_input_that_is_not_a_terminal(
    tmp_path: Path, live_server: StandInServer, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "home"
    monkeypatch.setattr(sys, "stdin", io.StringIO("y\n"))
    assert check_mixing("--home", str(home), "--live", "--day", "en-1") == 2
    captured = capsys.readouterr()
    assert "about $" in captured.out and "--yes" in captured.err
    assert live_server.requests == [] and not ledger(home)
    assert check.last_report(home) is None


def test_the_cost_question_at_a_terminal() -> None:
    estimate = check.CostEstimate(model="claude-sonnet-4-6", requests=48, dollars=0.42,
                                  most_dollars=1.05)

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    out = io.StringIO()
    asked: list[str] = []

    def answer(word: str) -> Any:
        def ask(prompt: str) -> str:
            asked.append(prompt)
            return word
        return ask

    assert not check.confirm(estimate, yes=False, stdin=Terminal(), out=out, ask=answer(""))
    assert check.confirm(estimate, yes=False, stdin=Terminal(), out=out, ask=answer("y"))
    assert asked == ["Continue? [y/N] "] * 2
    assert "about $0.42 for 48 requests to claude-sonnet-4-6" in out.getvalue()
    assert check.confirm(estimate, yes=True, stdin=io.StringIO(), out=out)


def test_live_without_a_key_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setattr("monet_app.services.keys._keyring", lambda: None)
    assert check_mixing("--home", str(tmp_path / "home"), "--live", "--yes") == 2
    assert "needs an Anthropic API key" in capsys.readouterr().err


@pytest.mark.heavy
def test_the_grader_gives_a_second_opinion_reported_apart(
    tmp_path: Path, live_server: StandInServer
) -> None:
    day = next(d for d in builtin_days() if d.id == "en-1")
    for _shape in ("sunset", "thread"):
        for probe in day.probes:
            live_server.replies.append(probe.right)  # the probe's answer
            live_server.replies.append("MIXED" if probe.tab == "work" else "RIGHT")
    home = tmp_path / "home"
    report = check.run_check(home, check.CheckOptions(live=True, grader=True, days=("en-1",)))
    for shape in ("sunset", "thread"):
        totals = report["totals"][shape]
        assert totals["right"] == 6  # the rule's verdict stands on its own
        assert totals["grader"]["mixed_up"] == 2 and totals["grader"]["right"] == 4
    assert report["grader_model"] == "claude-haiku-4-5"
    graded = [b for b in live_server.requests if b["model"] == "claude-haiku-4-5"]
    assert len(graded) == 12 and all(not check.request_labels(b) for b in graded)
    rows = ledger(home)
    assert len(rows) == 24 and {r.purpose for r in rows} == {check.PURPOSE}
    assert "grader (claude-haiku-4-5, a second opinion)" in check.report_table(report)


@pytest.mark.heavy
def test_the_estimate_prices_the_exact_requests_before_anything_is_sent(
    tmp_path: Path, live_server: StandInServer
) -> None:
    estimate = check.estimate_cost(tmp_path / "home",
                                   check.CheckOptions(live=True, grader=True, days=("ja-2",)))
    assert estimate.requests == 12 and estimate.grader_requests == 12
    assert 0 < estimate.dollars < estimate.most_dollars < 1
    assert 0 < estimate.grader_dollars < estimate.dollars
    assert live_server.requests == []
    assert check.last_report(tmp_path / "home") is None


# ----- the window's dialog --------------------------------------------------------------
def _small_run(home: Path) -> check.WindowCheck:
    """The window's check on one day (fast); otherwise as the window calls it."""

    class OneDay(check.WindowCheck):
        def run(self, live: bool, grader: bool, progress: Any,
                cancel: threading.Event) -> dict[str, Any]:
            return check.run_check(self.home, check.CheckOptions(days=("ja-1",)),
                                   progress=progress, cancel=cancel)

    return OneDay(home, "claude-sonnet-4-6", has_key=False)


@pytest.mark.heavy
def test_the_dialog_without_a_key_runs_the_stand_in_and_shows_the_verdict(
    qtbot, tmp_path: Path
) -> None:
    from PySide6.QtCore import Qt

    from ui.mixing_dialog import MixingDialog

    home = tmp_path / "home"
    hooks = _small_run(home)
    dialog = MixingDialog(hooks.model, hooks.has_key, hooks.estimate, hooks.run, hooks.last())
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.claude.isEnabled() and dialog.standin.isChecked()
    assert "checks the path, not Claude" in dialog.cost.text()
    assert dialog.key_note.isVisible() and not dialog.grader.isEnabled()
    assert dialog.run_button.isEnabled() and dialog.table.rowCount() == 0
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dialog.running, timeout=60_000)
    assert dialog.problem.text() == ""
    assert "6/6 right, 0 mixed up" in dialog.verdict.text()
    assert "checks the path, not Claude" in dialog.verdict.text()
    verdict = dialog.table.item(0, 2)
    assert dialog.table.rowCount() == 6 and verdict is not None and verdict.text() == "right"
    assert dialog.status.text() == "Done."
    kept = check.last_report(home)
    assert kept is not None and kept == dialog.report

    again = MixingDialog(hooks.model, hooks.has_key, hooks.estimate, hooks.run, hooks.last())
    qtbot.addWidget(again)
    assert again.verdict.text() == dialog.verdict.text()  # the last report, when opened
    assert again.table.rowCount() == 6 and "Last check" in again.checked_when.text()


def test_the_dialog_with_a_key_shows_the_cost_before_it_runs(
    qtbot, tmp_path: Path
) -> None:
    from ui.mixing_dialog import MixingDialog

    estimate = check.CostEstimate(model="claude-sonnet-4-6", requests=48, dollars=0.42,
                                  most_dollars=1.05, grader_model="claude-haiku-4-5",
                                  grader_requests=48, grader_dollars=0.01)
    gate = threading.Event()
    runs: list[tuple[bool, bool]] = []
    stopped: list[threading.Event] = []

    def slow_estimate() -> dict[str, Any]:
        gate.wait(10)
        return estimate.as_dict()

    def run(live: bool, grader: bool, progress: Any, cancel: threading.Event) -> dict[str, Any]:
        runs.append((live, grader))
        stopped.append(cancel)
        progress(1, 2)
        raise CheckStopped("The check was stopped; nothing was reported.")

    dialog = MixingDialog("claude-sonnet-4-6", True, slow_estimate, run, None)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.claude.isChecked() and "Estimating" in dialog.cost.text()
    assert not dialog.run_button.isEnabled()  # the cost comes first
    assert "No check has been run yet" in dialog.checked_when.text()
    gate.set()
    qtbot.waitUntil(lambda: dialog.estimate is not None, timeout=10_000)
    assert "$0.42 for 48 requests to claude-sonnet-4-6" in dialog.cost.text()
    assert "$1.05" in dialog.cost.text() and "grader" not in dialog.cost.text()
    dialog.grader.setChecked(True)
    assert "$0.01 for 48 requests to claude-haiku-4-5" in dialog.cost.text()
    assert dialog.run_button.isEnabled()
    dialog.start()
    assert not dialog.run_button.isEnabled() and not dialog.standin.isEnabled()
    qtbot.waitUntil(lambda: not dialog.running, timeout=10_000)
    assert runs == [(True, True)]
    assert "stopped" in dialog.problem.text() and dialog.run_button.isEnabled()
    dialog.standin.setChecked(True)
    assert "checks the path, not Claude" in dialog.cost.text()
    assert not dialog.grader.isEnabled()
    dialog.reject()
    assert stopped[0].is_set()  # closing stops a run before its next question


def test_settings_offers_the_check_beside_the_sunset_switch(
    qtbot, app_for, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QDialog, QPushButton

    from ui import mixing_dialog
    from ui.main_window import MainWindow

    if not hasattr(MainWindow, "check_mixing_requested"):
        pytest.skip("Settings → Check topic mixing… is not wired into the window yet")
    shown: list[mixing_dialog.MixingDialog] = []

    def exec_(self: mixing_dialog.MixingDialog) -> int:
        shown.append(self)
        return 0

    monkeypatch.setattr(mixing_dialog.MixingDialog, "exec", exec_)
    c = app_for()
    parents: list[object] = []

    def press() -> None:
        settings = QApplication.activeModalWidget()
        if settings is None:  # (the dialog opens once the keyring has been asked)
            QTimer.singleShot(50, press)
            return
        button = settings.findChild(QPushButton, "checkMixing")
        assert button is not None and button.text() == "Check topic mixing…"
        button.click()
        parents.append(settings)
        assert isinstance(settings, QDialog)
        settings.reject()

    QTimer.singleShot(200, press)
    c.open_settings()
    qtbot.waitUntil(lambda: len(shown) == 1, timeout=10_000)
    assert len(shown) == 1 and shown[0].parent() is parents[0]
    # the window's model here is a stand-in: the check offers no spending at all
    assert not shown[0].claude.isEnabled() and shown[0].standin.isChecked()
    shown[0].close()
