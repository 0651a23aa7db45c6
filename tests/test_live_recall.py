"""The live recall benchmark (issue 27): offline, against the stand-in server through the
real SDK, it makes the requests a live run makes, estimates their cost, and spends
nothing without --yes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import monet_env

REPO = Path(__file__).resolve().parents[1]
HISTORY = {
    "question_id": "t1", "question": "How many bikes do I own?", "answer": "3",
    "question_type": "knowledge-update",
    "answer_session_ids": ["s2"], "haystack_session_ids": ["s1", "s2"],
    "haystack_dates": ["2023/05/01 (Mon) 10:00", "2023/05/03 (Wed) 18:30"],
    "haystack_sessions": [
        [{"role": "user", "content": "I own two bikes, a road bike and a city bike."},
         {"role": "assistant", "content": "Two bikes: road and city."}],
        [{"role": "user", "content": "I now have three bikes: road, gravel and city.",
          "has_answer": True},
         {"role": "assistant", "content": "Three bikes, nice."}],
    ],
}


@pytest.mark.slow
def test_the_live_benchmark_runs_offline_and_spends_nothing_without_yes(tmp_path: Path) -> None:
    data = tmp_path / "histories.json"
    data.write_text(json.dumps([HISTORY]), "utf-8")
    env = monet_env(without=("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"))
    script = str(REPO / "benchmarks" / "live_recall.py")
    done = subprocess.run([sys.executable, script, str(data), "--offline"], env=env,
                          capture_output=True, text=True, timeout=300, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert "1 histories:" in done.stdout and "summary" in done.stdout
    assert "chat" in done.stdout and "grader" in done.stdout
    assert "estimated cost: $" in done.stdout
    assert "| 0 | knowledge-update |" in done.stdout  # the question went through MONET
    refused = subprocess.run([sys.executable, script, str(data)], env=env,
                             capture_output=True, text=True, timeout=300, cwd=REPO)
    assert refused.returncode == 2 and "Nothing was spent" in refused.stdout
