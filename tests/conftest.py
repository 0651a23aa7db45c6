from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.pop("ANTHROPIC_API_KEY", None)

REPO = Path(__file__).resolve().parents[1]

#: The window's fixtures: ``server`` (a local stand-in API) and ``app_for``.
pytest_plugins = ["tests.qt_fixtures"]


#: The public replay traces, copied into the repo with their licences (tests/data/README.md).
TRACES = REPO / "tests" / "data" / "traces"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "home"
    monkeypatch.setenv("MONET_HOME", str(path))
    yield path


@pytest.fixture(scope="session")
def traces() -> list[Path]:
    return sorted(TRACES.glob("*.jsonl"))


@pytest.fixture(autouse=True)
def _close_worlds() -> Iterator[None]:
    yield
    from tests.helpers import OPEN_WORLDS

    while OPEN_WORLDS:
        OPEN_WORLDS.pop().close()
