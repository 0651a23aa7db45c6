"""The command line a person uses: replay, export, timeline, and refusing bad settings."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import TRACES

TRACE = TRACES / "synthetic-actions.jsonl"


def monet(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "monet_app.cli", *args],
        capture_output=True, text=True, timeout=300, check=False,
    )


@pytest.mark.slow
def test_replay_export_timeline_end_to_end(tmp_path: Path) -> None:
    home, log = tmp_path / "home", tmp_path / "log.jsonl"
    done = monet("replay", str(TRACE), "--home", str(home), "--request-log", str(log),
                 "--librarian", "off", "--ceiling", "20000", "--day-start", "04:00")
    assert done.returncode == 0, done.stderr
    assert "turns 60" in done.stdout and "folds" in done.stdout

    exported = monet("export", "--home", str(home))
    rows = [json.loads(x) for x in exported.stdout.splitlines()]
    assert len(rows) == 120
    assert set(rows[0]) == {"id", "ts", "day", "tab", "thread", "role", "text", "status"}
    assert rows[0]["text"] == json.loads(TRACE.read_text("utf-8").splitlines()[0])["user"]

    md = tmp_path / "out" / "all.md"
    assert monet("export", "--home", str(home), "--format", "markdown", "--out", str(md)).returncode == 0
    text = md.read_text("utf-8")
    assert text.startswith("# MONET export") and "## 2026-03-09" in text

    one_day = monet("export", "--home", str(home), "--day", "2026-03-08")
    assert one_day.returncode == 0 and one_day.stdout == ""

    timeline = monet("timeline", "--home", str(home))
    assert timeline.returncode == 0
    assert "要約作成中" in timeline.stdout and "# Timeline Index" in timeline.stdout


@pytest.mark.slow
def test_invalid_settings_refused_before_anything_runs(tmp_path: Path) -> None:
    for flags, words in [
        (["--ceiling", "0"], "ceiling"),
        (["--keep", "0"], "exchange"),
        (["--low-water", "1"], "low-water"),
    ]:
        home, log = tmp_path / "home", tmp_path / "log.jsonl"
        done = monet("replay", str(TRACE), "--home", str(home), "--request-log", str(log), *flags)
        assert done.returncode == 2
        assert done.stderr.startswith("monet: Invalid settings") and words in done.stderr
        assert "Traceback" not in done.stderr
        assert not log.exists()
        assert monet("export", "--home", str(home)).stdout == ""


@pytest.mark.slow
def test_bad_trace_line_is_reported_with_its_number(tmp_path: Path) -> None:
    trace = tmp_path / "bad.jsonl"
    trace.write_text('{"ts": "2026-03-02T09:00:00+09:00", "tab": "chat", "user": "a", "assistant": "b"}\nnot json\n')
    done = monet("replay", str(trace), "--home", str(tmp_path / "h"))
    assert done.returncode == 2 and "bad.jsonl:2" in done.stderr
