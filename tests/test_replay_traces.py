"""Every public trace, both models: nothing lost, the cache prefix kept, folds bounded."""

from __future__ import annotations

import collections
import json
from pathlib import Path

import pytest

from cms.clock import day_of, parse_ts
from cms.context import context_block
from cms.context.prompt import system_parts
from cms.context.timeline import PENDING_MARKER
from cms.records import instruction_like, sentences_of
from cms.settings import Settings
from cms.tokens import TiktokenEstimator
from monet_app.cli.export import export_records
from monet_app.cli.main import main
from monet_app.services.replay import read_trace
from storage import Database
from tests.conftest import TRACES
from tests.logcheck import FOLD_EVENTS, REBUILD_EVENTS, check_log, read_log

pytestmark = pytest.mark.slow

TRACE_FILES = sorted(TRACES.glob("*.jsonl"))


def test_public_traces_are_there() -> None:
    assert len(TRACE_FILES) >= 7, f"expected at least 7 traces in {TRACES}"


def _replay(trace: Path, home: Path, log: Path, *extra: str) -> None:
    code = main(["replay", str(trace), "--home", str(home), "--request-log", str(log), *extra])
    assert code == 0


@pytest.mark.parametrize("sunset", ["on", "off"])
@pytest.mark.parametrize("trace", TRACE_FILES, ids=[t.stem for t in TRACE_FILES])
def test_public_trace(trace: Path, sunset: str, tmp_path: Path) -> None:
    home, log = tmp_path / "home", tmp_path / "log.jsonl"
    _replay(trace, home, log, "--sunset", sunset, "--meaning", "off")  # the cache, not recall
    lines = read_trace(trace)
    records = read_log(log)
    report = check_log(records)

    # every trace message is in the export
    db = Database(home)
    exported = collections.Counter((r["role"], r["text"]) for r in export_records(db))
    wanted: collections.Counter[tuple[str, str]] = collections.Counter()
    for line in lines:
        if "user" in line.data:
            wanted[("user", line.data["user"])] += 1
            wanted[("assistant", line.data.get("assistant", ""))] += 1
    assert not wanted - exported

    # between rebuild points, each chat body extends the one before
    assert report.breaks == []
    assert report.pinned_changes == 0
    assert report.chat_requests >= sum(1 for line in lines if "user" in line.data)

    # at most two rebuilds per fold
    per_fold: collections.Counter[int] = collections.Counter()
    for r in records:
        if r["kind"] == "event" and r["name"] in REBUILD_EVENTS and r["detail"].get("fold_id"):
            for fold_id in r["detail"].get("fold_ids", [r["detail"]["fold_id"]]):
                per_fold[fold_id] += 1
    assert all(n <= 2 for n in per_fold.values())
    assert report.rebuilds <= 2 * max(report.folds, 1)

    if sunset == "on":
        start = Settings().day_start_time
        days: list[str] = []
        for line in lines:
            if "user" in line.data:
                day = day_of(parse_ts(line.ts), start)
                if not days or day > days[-1]:
                    days.append(day)
        assert report.events.get("sunset_fold", 0) == len(days) - 1
        assert report.events.get("day_started", 0) == len(days)

    # the context block: within its budget, notes about the person, no instruction in it
    budget = Settings().context_budget_tokens
    estimator = TiktokenEstimator()
    blocks = {system_parts(r["body"])[2] for r in records if r["kind"] == "request"}
    for block in blocks:
        notes = block.split("\n\n", 1)[1] if "\n\n" in block else ""  # after today's date
        assert block.startswith("# 今日\n")
        assert not notes or notes.startswith(context_block.HEADER)
        assert estimator.count(notes) <= budget
        for note in notes.splitlines()[3:]:  # a record's sentences, as as_record reads it
            sentences = sentences_of(context_block.clean_line(note.removeprefix("- ")))
            assert not any(instruction_like(s) for s in sentences), note

    # the librarian (on by default) leaves no placeholder
    timeline = _timeline(home)
    assert PENDING_MARKER not in timeline
    db.close()


def _timeline(home: Path) -> str:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["timeline", "--home", str(home)]) == 0
    return out.getvalue()


def test_longday_ceiling_folds_and_raw_turns_stay_under(tmp_path: Path) -> None:
    trace = TRACES / "synthetic-longday.jsonl"
    home, log = tmp_path / "home", tmp_path / "log.jsonl"
    _replay(trace, home, log, "--ceiling", "20000")
    records = read_log(log)
    assert sum(1 for r in records if r.get("name") == "ceiling_fold") >= 1
    estimator = TiktokenEstimator()
    for r in records:
        if r["kind"] != "request":
            continue
        messages = r["body"]["messages"]
        # the newest exchange starts at the last user turn typed by the person
        starts = [
            i
            for i, m in enumerate(messages)
            if m["role"] == "user" and any(b["type"] == "text" for b in m["content"])
        ]
        older = messages[: starts[-1]]
        tokens = sum(
            estimator.count(b["text"]) for m in older for b in m["content"] if b["type"] == "text"
        )
        assert tokens <= 20000


def test_librarian_off_leaves_placeholders_and_a_later_run_resolves_once(tmp_path: Path) -> None:
    trace = TRACES / "lme-00.jsonl"
    lines = trace.read_text("utf-8").splitlines()
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text("\n".join(lines[:60]) + "\n", "utf-8")
    second.write_text("\n".join(lines[60:80]) + "\n", "utf-8")
    home, log = tmp_path / "home", tmp_path / "log.jsonl"
    _replay(first, home, log, "--librarian", "off")
    assert PENDING_MARKER in _timeline(home)
    _replay(second, home, log)
    records = read_log(log)
    report = check_log(records)
    assert report.breaks == []
    assert PENDING_MARKER not in _timeline(home)


def test_restart_mid_day_second_run_extends_first(tmp_path: Path) -> None:
    trace = TRACES / "rpc-pair-ja.jsonl"
    rows = [json.loads(x) for x in trace.read_text("utf-8").splitlines()]
    day = [r for r in rows if r["ts"].startswith("2022-08-17")]
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in day[:30]), "utf-8")
    second.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in day[30:]), "utf-8")
    home, log = tmp_path / "home", tmp_path / "log.jsonl"
    _replay(first, home, log)
    count_first = sum(1 for r in read_log(log) if r["kind"] == "request")
    _replay(second, home, log)
    records = read_log(log)
    requests = [r for r in records if r["kind"] == "request"]
    last_of_first, first_of_second = requests[count_first - 1], requests[count_first]
    between = records[records.index(last_of_first) + 1 : records.index(first_of_second)]
    names = [r["name"] for r in between]
    assert names[0] == "app_started" and not set(names) & REBUILD_EVENTS
    from cms.context.prompt import extends

    assert extends(last_of_first["body"], first_of_second["body"])


def test_recall_turn_calls_search_history_for_real(tmp_path: Path) -> None:
    trace = TRACES / "lme-00.jsonl"
    home, log = tmp_path / "home", tmp_path / "log.jsonl"
    _replay(trace, home, log)
    records = read_log(log)
    recall = next(json.loads(x)["recall"] for x in trace.read_text("utf-8").splitlines() if "recall" in x)
    after_tool = [
        r
        for r in records
        if r["kind"] == "request"
        and any(
            b.get("type") == "tool_result"
            for b in r["body"]["messages"][-1]["content"]
        )
    ]
    assert after_tool, "the stand-in model should have called search_history"
    result = after_tool[0]["body"]["messages"][-1]["content"][0]
    found = json.loads(result["content"])
    assert found["query"] == recall
    assert found["results"], "the search found nothing in the stored history"
    assert all({"day", "tab", "time", "text"} <= set(hit) for hit in found["results"])
    exported = [r for r in export_records(Database(home)) if r["role"] == "tool"]
    assert exported and exported[0]["text"] == result["content"]


def test_events_are_logged_before_the_request_they_affect(tmp_path: Path) -> None:
    trace = TRACES / "synthetic-tabstorm.jsonl"
    home, log = tmp_path / "home", tmp_path / "log.jsonl"
    _replay(trace, home, log, "--librarian", "off")
    records = read_log(log)
    names = [r.get("name") for r in records]
    assert names[0] == "app_started"
    checked = 0
    for i, r in enumerate(records):
        if r.get("name") in FOLD_EVENTS and r["detail"].get("pending"):
            nxt = next(x for x in records[i + 1 :] if x["kind"] == "request")
            assert PENDING_MARKER in system_parts(nxt["body"])[1]
            checked += 1
    assert checked  # folds whose summaries were not ready show placeholders at once
