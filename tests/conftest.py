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


# ----- PostgreSQL (issue 31) ---------------------------------------------------------------
#: Set by .ci/run to the throwaway cluster it started (``tests/pg_cluster.py``).
TEST_SERVER_ENV = "MONET_TEST_DATABASE_URL"
#: ``postgresql``: every test of the run keeps its history on a fresh PostgreSQL database
#: (.ci/run runs the storage and context tests a second time so).
STORE_ENV = "MONET_TEST_STORE"


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str | None]:
    """A PostgreSQL server's URL for the tests (its ``postgres`` database, as a superuser):
    $MONET_TEST_DATABASE_URL, or a cluster started for this session when PostgreSQL's
    programs are installed; None when neither (the PostgreSQL tests skip)."""
    from tests import pg_cluster

    given = os.environ.get(TEST_SERVER_ENV)
    if given:
        yield given
        for url in _LEFT:  # (dropped at the end: a window's thread may still read one)
            drop_database(given, url)
        return
    if not pg_cluster.available():
        yield None
        return
    import tempfile

    # (not under pytest's folder: as root, that is closed to the postgres user)
    folder = Path(tempfile.mkdtemp(prefix="monet-pg-"))
    url = pg_cluster.start(folder)
    try:
        yield url
    finally:
        pg_cluster.stop(folder)


_DATABASES = iter(range(1, 1_000_000))
#: The databases the store mode made for data folders, dropped when the session ends.
_LEFT: list[str] = []


@pytest.fixture
def pg_url(pg_server: str | None) -> Iterator[str]:
    """A fresh, empty PostgreSQL database's URL, dropped after the test."""
    if pg_server is None:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    url = new_database(pg_server)
    try:
        yield url
    finally:
        drop_database(pg_server, url)


def new_database(server: str) -> str:
    import psycopg

    name = f"monet_test_{os.getpid()}_{next(_DATABASES)}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    return f"{server.rpartition('/')[0]}/{name}"


def drop_database(server: str, url: str) -> None:
    import psycopg

    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{url.rpartition("/")[2]}" WITH (FORCE)')


@pytest.fixture(autouse=True)
def _store(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Under MONET_TEST_STORE=postgresql, each data folder a test opens keeps its history
    on a fresh PostgreSQL database of its own: the first ``Database`` of a folder makes
    one and names it in the folder's ``device.json`` (as a person's device would), so the
    ``monet`` commands the test runs on that folder afterwards use it too. A test marked
    ``sqlite_only`` is about the file itself and is skipped."""
    if os.environ.get(STORE_ENV) != "postgresql":
        yield
        return
    if request.node.get_closest_marker("sqlite_only"):
        pytest.skip("about the SQLite file itself")
    server = request.getfixturevalue("pg_server")
    if server is None:
        pytest.skip("PostgreSQL is not installed")
    # A window test's warm-up thread may still hold a pooled connection when the window
    # closes and disposes of the engine; psycopg says so when it is collected (sqlite3's
    # connections are collected silently). Not a leak of the product's: said, not failed.
    import warnings

    warnings.filterwarnings("ignore", message=".*psycopg.Connection.*deleted while still open",
                            category=ResourceWarning)
    import storage.database
    from storage.where import database_url as real
    from storage.where import read_device, write_device

    made: list[str] = []

    def per_folder(home: Path, url: str | None = None) -> str | None:
        if url is not None or os.environ.get("MONET_DATABASE_URL") is not None \
                or read_device(home).get("database_url"):
            return real(home, url)
        made.append(new_database(server))
        write_device(home, "database_url", made[-1])
        return made[-1]

    monkeypatch.setattr(storage.database, "database_url", per_folder)
    yield
    _LEFT.extend(made)
