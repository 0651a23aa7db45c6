"""Setting up a history server as a household would (issue 43), on a throwaway cluster:
what a database must offer is checked before MONET writes anything there, and said in
words (no traceback, no driver's class, no SQL of MONET's); another program's database
keeps its tables exactly as they were; ``monet check-server`` runs every check and changes
nothing."""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import TRACES
from tests.helpers import run_monet

pytestmark = pytest.mark.heavy  # (each replays a trace and runs monet a few times)

#: What a driver's exception or a page of SQL would show.
NOT_WORDS = re.compile(r"Traceback|psycopg|sqlalchemy|ProgrammingError|\[SQL|"
                       r"CREATE TABLE|INSERT INTO")


_COUNT = itertools.count(1)


def _name(base: str) -> str:
    """A database's or role's name no other test of this run (on any worker) uses."""
    return f"{base}_{os.getpid()}_{next(_COUNT)}"


@pytest.fixture
def admin(pg_server: str | None) -> Iterator[tuple[str, list[str]]]:
    """The superuser's URL and a list to add databases and roles to (dropped after)."""
    if pg_server is None:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    made: list[str] = []
    yield pg_server, made
    import psycopg

    with psycopg.connect(pg_server, autocommit=True) as conn:
        for what in made:  # (databases before the roles that own them)
            conn.execute(what)


def _sql(url: str, *statements: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)


def _on(server: str, database: str, user: str | None = None) -> str:
    base = server.rpartition("/")[0]
    if user is not None:
        scheme, _, rest = base.partition("://")
        base = f"{scheme}://{user}@{rest.rpartition('@')[2]}"
    return f"{base}/{database}"


def _tables(url: str) -> list[tuple[str, str]]:
    import psycopg

    with psycopg.connect(url) as conn:
        return [(str(a), str(b)) for a, b in conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = 'public' ORDER BY table_name, ordinal_position").fetchall()]


def _objects(url: str) -> int:
    import psycopg

    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT (SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = "
            "c.relnamespace WHERE nspname = 'public') + (SELECT count(*) FROM pg_proc p JOIN "
            "pg_namespace n ON n.oid = p.pronamespace WHERE nspname = 'public') + "
            "(SELECT count(*) FROM pg_extension)").fetchone()
        assert row is not None
        return int(row[0])


def _folder_with_history(tmp_path: Path) -> Path:
    home = tmp_path / "laptop"
    run_monet("replay", TRACES / "synthetic-actions.jsonl", "--database-url", "", home=home,
              check=True)
    return home


def test_a_login_that_does_not_own_its_database_is_told_what_to_change(
        tmp_path: Path, admin: tuple[str, list[str]]) -> None:
    """PostgreSQL 15 gives a login that does not own the database no CREATE there: the
    first command says so, with the statement to run and who owns it now, and writes
    nothing; once the login owns it, the same command goes through."""
    server, made = admin
    user, family = _name("householder"), _name("family")
    _sql(server, f"CREATE ROLE {user} LOGIN", f"CREATE DATABASE {family}")
    made += [f"DROP DATABASE IF EXISTS {family} WITH (FORCE)", f"DROP ROLE IF EXISTS {user}"]
    home = _folder_with_history(tmp_path)
    url = _on(server, family, user)
    before = _objects(_on(server, family))
    moved = run_monet("migrate-to", url, home=home)
    assert moved.returncode == 2
    assert f"{user} may not create tables in the database {family}" in moved.stderr
    assert f"ALTER DATABASE {family} OWNER TO {user}" in moved.stderr
    assert "Nothing was changed" in moved.stderr
    assert not NOT_WORDS.search(moved.stderr + moved.stdout), moved.stderr
    assert _objects(_on(server, family)) == before
    opened = run_monet("timeline", "--database-url", url, home=tmp_path / "desktop")
    assert opened.returncode == 2 and "may not create tables" in opened.stderr
    assert not NOT_WORDS.search(opened.stderr), opened.stderr

    _sql(server, f"ALTER DATABASE {family} OWNER TO {user}")
    moved = run_monet("migrate-to", url, home=home)
    assert moved.returncode == 0, moved.stderr
    assert "copied 120 messages" in moved.stdout


@pytest.mark.parametrize("foreign", ["notes", "message"])
def test_another_programs_database_keeps_its_tables_exactly(
        tmp_path: Path, admin: tuple[str, list[str]], foreign: str) -> None:
    """A database holding another program's tables (one named as MONET's own, too) is
    refused in words, and its tables, functions and extensions stay exactly as they were."""
    server, made = admin
    notes_app = _name("notes_app")
    _sql(server, f"CREATE DATABASE {notes_app}")
    made.append(f"DROP DATABASE IF EXISTS {notes_app} WITH (FORCE)")
    url = _on(server, notes_app)
    _sql(url, f"CREATE TABLE {foreign} (id integer PRIMARY KEY, body text)",
         f"INSERT INTO {foreign} VALUES (1, 'buy milk')")
    tables, objects = _tables(url), _objects(url)
    home = _folder_with_history(tmp_path)
    for command in (("migrate-to", url), ("timeline", "--database-url", url),
                    ("export", "--database-url", url)):
        done = run_monet(*command, home=home if command[0] == "migrate-to" else tmp_path / "d")
        assert done.returncode == 2, done.stdout
        assert f"already holds tables MONET did not make ({foreign})" in done.stderr
        assert "Nothing was changed" in done.stderr
        assert not NOT_WORDS.search(done.stderr), done.stderr
    assert _tables(url) == tables and _objects(url) == objects
    import psycopg

    with psycopg.connect(url) as conn:
        assert conn.execute(f"SELECT body FROM {foreign}").fetchall() == [("buy milk",)]


def test_a_c_locale_database_is_refused_for_japanese_search(
        tmp_path: Path, admin: tuple[str, list[str]]) -> None:
    """In the C locale pg_trgm takes no Japanese letter for a letter: such a database is
    refused with the statement that makes a right one, before anything is written."""
    server, made = admin
    plain = _name("plain")
    _sql(server, f"CREATE DATABASE {plain} ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C' "
                 "TEMPLATE template0")
    made.append(f"DROP DATABASE IF EXISTS {plain} WITH (FORCE)")
    url = _on(server, plain)
    done = run_monet("migrate-to", url, home=_folder_with_history(tmp_path))
    assert done.returncode == 2
    assert "by the C locale" in done.stderr and "LC_CTYPE 'C.UTF-8'" in done.stderr
    assert _tables(url) == []


def test_check_server_runs_every_check_and_changes_nothing(
        tmp_path: Path, admin: tuple[str, list[str]]) -> None:
    server, made = admin
    guest, fresh, taken = _name("guest"), _name("fresh"), _name("taken")
    _sql(server, f"CREATE ROLE {guest} LOGIN", f"CREATE DATABASE {fresh}",
         f"CREATE DATABASE {taken}")
    made += [f"DROP DATABASE IF EXISTS {fresh} WITH (FORCE)",
             f"DROP DATABASE IF EXISTS {taken} WITH (FORCE)", f"DROP ROLE IF EXISTS {guest}"]
    _sql(_on(server, taken), "CREATE TABLE notes (id integer)")
    home = tmp_path / "not-made"

    new = run_monet("check-server", _on(server, fresh), home=home)
    assert new.returncode == 0, new.stdout
    assert "ok   no tables yet" in new.stdout and "ok   character type" in new.stdout
    assert "MONET can keep a history here." in new.stdout
    assert _tables(_on(server, fresh)) == []

    visitor = run_monet("check-server", _on(server, fresh, guest), home=home)
    assert visitor.returncode == 2
    assert f"FIX  {guest} may not create tables: ALTER DATABASE {fresh} OWNER TO {guest}" \
        in visitor.stdout

    other = run_monet("check-server", _on(server, taken), home=home)
    assert other.returncode == 2 and f"FIX  The database {taken}" in other.stdout

    missing = run_monet("check-server", _on(server, "nowhere"), home=home)
    assert missing.returncode == 2
    assert "has no database named nowhere" in missing.stdout
    assert not NOT_WORDS.search(missing.stdout + missing.stderr)

    run_monet("timeline", "--database-url", _on(server, fresh), home=tmp_path / "made",
              check=True)
    made_now = run_monet("check-server", "--database-url", _on(server, fresh), home=home)
    assert made_now.returncode == 0 and "a MONET history at schema" in made_now.stdout
    assert not home.exists()  # nothing written on this device either


@pytest.mark.slow
def test_joining_a_shared_history_is_one_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """On a server that wants a password (its own throwaway cluster, SCRAM): ``monet join``
    with a wrong password is refused in words and writes nothing; with the right one it
    names the history in device.json without the password, keeps the password in the OS
    keyring, and the next opening of that folder reaches the history. ``monet
    server-password`` tries a password before keeping it. A folder holding its own
    history is not joined."""
    import io
    import json
    import tempfile

    from monet_app.cli.main import main
    from storage import Database, server_password
    from storage.errors import DatabaseError
    from tests import pg_cluster
    from tests.helpers import memory_keyring

    if not pg_cluster.available():
        pytest.skip("PostgreSQL is not installed")
    folder = Path(tempfile.mkdtemp(prefix="monet-pg-join-"))
    server = pg_cluster.start(folder, password="s3cret-pw")
    scheme, _, rest = server.partition("://")
    with_pw = f"{scheme}://monet:s3cret-pw@{rest.rpartition('@')[2]}"
    bare = with_pw.replace(":s3cret-pw@", "@")
    try:
        with memory_keyring() as kept:
            Database(tmp_path / "laptop", url=with_pw).close()  # the first device's history
            desktop = tmp_path / "desktop"
            wrong = with_pw.replace("s3cret-pw", "not-it")
            assert main(["join", wrong, "--home", str(desktop)]) == 2
            said = capsys.readouterr().err
            assert "refused the login" in said and "not-it" not in said
            assert not (desktop / "device.json").exists() and kept == {}

            assert main(["join", with_pw, "--home", str(desktop)]) == 0
            out = capsys.readouterr().out
            assert "schema 0021" in out and "OS keyring" in out and "s3cret" not in out
            device = json.loads((desktop / "device.json").read_text("utf-8"))
            assert device == {"database_url": bare}
            for path in desktop.rglob("*"):
                if path.is_file():
                    assert b"s3cret-pw" not in path.read_bytes(), path
            assert list(kept.values()) == ["s3cret-pw"]
            db = Database(desktop)  # device.json and the keyring: no URL given
            assert db.server and db.schema_revision() == "0021"
            db.close()

            monkeypatch.setattr("sys.stdin", io.StringIO("not-it\n"))
            assert main(["server-password", "--home", str(desktop)]) == 2
            assert "refused the login" in capsys.readouterr().err
            assert list(kept.values()) == ["s3cret-pw"]  # the wrong one was not kept
            monkeypatch.setattr("sys.stdin", io.StringIO("s3cret-pw\n"))
            assert main(["server-password", "--home", str(desktop)]) == 0
            assert "the server accepted it" in capsys.readouterr().out

            own = tmp_path / "own"
            run_monet("replay", TRACES / "synthetic-actions.jsonl", "--database-url", "",
                      home=own, check=True)
            with pytest.raises(DatabaseError):  # (the operation itself, for its sentence)
                from monet_app.operations.moving import join

                join(tmp_path / "nowhere", wrong)
            assert main(["join", bare, "--home", str(own)]) == 2
            assert "holds a history of its own" in capsys.readouterr().err
            assert not (own / "device.json").exists()
            server_password.forget_password(bare)
    finally:
        pg_cluster.stop(folder)


# ----- the librarian service (item 7) -----------------------------------------------------
def _service_unit(home: str, env: dict[str, str], cwd: Path) -> tuple[int, str, str]:
    import subprocess

    from tests.helpers import monet_command, monet_env

    done = subprocess.run(
        monet_command("librarian", "install-schedule", "--kind", "service",
                      "--database-url", "postgresql://monet@nas.example/monet", "--home", home),
        env=monet_env(env), cwd=cwd, capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


def test_the_service_unit_names_absolute_paths_its_key_and_linger(tmp_path: Path) -> None:
    """Given a relative data folder, the unit names it by its absolute path (systemd starts
    it in the home folder); it reads the key from an environment file of the person's
    (mode 0600, refused otherwise) and says whether linger is on (a ``loginctl`` that
    answers as systemd's does)."""
    fake_home, work, bin_dir = tmp_path / "user", tmp_path / "work", tmp_path / "bin"
    for folder in (fake_home, work, bin_dir):
        folder.mkdir()
    loginctl = bin_dir / "loginctl"
    loginctl.write_text("#!/bin/sh\necho no\n", "utf-8")
    loginctl.chmod(0o755)
    env = {"HOME": str(fake_home), "PATH": f"{bin_dir}:/usr/bin:/bin",
           "ANTHROPIC_API_KEY": "", "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    code, out, err = _service_unit("nas-home", env, work)
    assert code == 0, err
    assert f"--home {work / 'nas-home'} " in out and " --home nas-home" not in out
    key_file = fake_home / ".config" / "monet" / "librarian.env"
    assert f"EnvironmentFile=-{key_file}" in out
    assert "summarize offline" in out and "Linger: off" in out
    assert "sudo loginctl enable-linger" in out
    key_file.parent.mkdir(parents=True)
    key_file.write_text("ANTHROPIC_API_KEY=sk-ant-test-0123456789\n", "utf-8")
    key_file.chmod(0o644)
    code, out, err = _service_unit("nas-home", env, work)
    assert code == 2 and "chmod 600" in err and "sk-ant-test" not in out + err
    key_file.chmod(0o600)
    loginctl.write_text("#!/bin/sh\necho yes\n", "utf-8")
    code, out, err = _service_unit(str(work / "nas-home"), env, work)
    assert code == 0, err
    assert f"reads it from {key_file}" in out and "Linger: on" in out
    assert "sk-ant-test" not in out


def test_a_window_with_a_key_never_leaves_its_passes_to_an_offline_service(
        tmp_path: Path, pg_url: str) -> None:
    """A service's heartbeat says how it summarizes: a window whose librarian has a model
    leaves its passes to a service that summarizes with Claude (and shows where it runs
    and when its last pass ended), never to one that summarizes offline."""
    from datetime import datetime, timedelta

    from monet_app.operations.librarian import SERVICE_KEY, librarian_pass
    from monet_app.services.clock import SystemClock
    from monet_app.services.wiring import build_core, no_model
    from monet_app.window.navigator import Navigator
    from storage.prompt_state import set_turn_state
    from storage.settings import write_value
    from tests.helpers import CountingSummarizer

    window = build_core(tmp_path / "laptop", clock=SystemClock(), database_url=pg_url,
                        model_factory=no_model, summarizer=CountingSummarizer())
    try:
        until = (datetime.now().astimezone() + timedelta(minutes=5)).isoformat()
        last = (datetime.now().astimezone() - timedelta(minutes=3)).isoformat()
        for summarizer, left in (("offline", False), ("model", True)):
            with window.db.session() as session:
                write_value(session, SERVICE_KEY, {"host": "nas", "pid": 1, "until": until,
                                                   "summarizer": summarizer})
                set_turn_state(session, librarian_last_run_ts=last)
            report = librarian_pass(window).value
            assert bool(report.service) is left, summarizer
        assert report.service == "nas" and window.service is not None
        figures = Navigator(window).status()
        assert figures.service == "nas"  # (a date too when it was before today's start)
        assert figures.service_last.endswith(datetime.fromisoformat(last).strftime("%H:%M"))
        offline = build_core(tmp_path / "desktop", clock=SystemClock(), database_url=pg_url,
                             model_factory=no_model, summarizer="offline")
        try:  # a window without a key is no better than an offline service: it leaves
            with offline.db.session() as session:
                write_value(session, SERVICE_KEY, {"host": "nas", "pid": 1, "until": until,
                                                   "summarizer": "offline"})
            assert librarian_pass(offline).value.service == "nas"
        finally:
            offline.close()
    finally:
        window.close()


# ----- TLS (item 1, step 6 of docs/postgresql.md) ----------------------------------------
def _openssl(*args: str, cwd: Path) -> None:
    import subprocess

    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


@pytest.mark.slow
def test_tls_with_a_home_ca_is_verified_and_every_refusal_is_said_in_words(
        tmp_path: Path) -> None:
    """The docs' step 6 on a throwaway cluster: a CA of one's own signs the server's
    certificate (for the name ``localhost``); ``sslmode=verify-full`` with that CA is
    encrypted and MONET makes its history there; another CA's, a name not in the
    certificate, a CA file that is missing and a server without TLS are each refused in a
    sentence, nothing written."""
    import shutil
    import tempfile

    from tests import pg_cluster
    from tests.conftest import new_database

    if not pg_cluster.available() or shutil.which("openssl") is None:
        pytest.skip("PostgreSQL or openssl is not installed")
    certs = Path(tempfile.mkdtemp(prefix="monet-tls-"))
    _openssl("req", "-new", "-x509", "-days", "30", "-nodes", "-subj", "/CN=MONET home CA",
             "-keyout", "ca.key", "-out", "ca.crt", cwd=certs)
    _openssl("req", "-new", "-nodes", "-subj", "/CN=localhost", "-keyout", "server.key",
             "-out", "server.csr", cwd=certs)
    (certs / "server.ext").write_text("subjectAltName=DNS:localhost\n", "utf-8")
    _openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
             "-CAcreateserial", "-days", "30", "-extfile", "server.ext", "-out", "server.crt",
             cwd=certs)
    _openssl("req", "-new", "-x509", "-days", "30", "-nodes", "-subj", "/CN=Other CA",
             "-keyout", "other.key", "-out", "other.crt", cwd=certs)
    (certs / "server.key").chmod(0o600)
    if os.geteuid() == 0:
        for name in ("server.key", "server.crt"):
            shutil.chown(certs / name, "postgres", "postgres")
        certs.chmod(0o755)
    folder = Path(tempfile.mkdtemp(prefix="monet-pg-tls-"))
    plain = Path(tempfile.mkdtemp(prefix="monet-pg-plain-"))
    try:
        server = pg_cluster.start(folder, options=(
            f"-c ssl=on -c ssl_cert_file={certs / 'server.crt'} "
            f"-c ssl_key_file={certs / 'server.key'}"))
        url = new_database(server).replace("127.0.0.1", "localhost")
        good = f"{url}?sslmode=verify-full&sslrootcert={certs / 'ca.crt'}"
        checked = run_monet("check-server", good)
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert "encrypted (TLS)" in checked.stdout
        made = run_monet("search", "anything", "--database-url", good, home=tmp_path / "a")
        assert made.returncode == 0, made.stderr
        refusals = {
            "signed by an unknown CA":
                f"{url}?sslmode=verify-full&sslrootcert={certs / 'other.crt'}",
            "the name does not match": good.replace("localhost", "127.0.0.1"),
            "is not on this device":
                f"{url}?sslmode=verify-full&sslrootcert={certs / 'missing.crt'}",
        }
        plain_url = pg_cluster.start(plain)
        refusals["does not offer TLS"] = f"{new_database(plain_url)}?sslmode=require"
        for said, target in refusals.items():
            home = tmp_path / f"h{len(said)}"
            done = run_monet("search", "anything", "--database-url", target, home=home)
            assert done.returncode == 2 and said in done.stderr, done.stderr
            assert not NOT_WORDS.search(done.stdout + done.stderr)
            check = run_monet("check-server", target)
            assert check.returncode == 2 and said in check.stdout + check.stderr
    finally:
        pg_cluster.stop(folder)
        pg_cluster.stop(plain)
        shutil.rmtree(certs, ignore_errors=True)
