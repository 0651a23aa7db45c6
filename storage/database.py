"""Opening the database: where it lives, connection pragmas, and migrations.

The data folder is ``MONET_HOME`` if set, else the platform's user data folder
(platformdirs). The history lives in the SQLite file ``monet.db`` there, or, when a
database URL is given (``database_url``: the ``--database-url`` option, then
``MONET_DATABASE_URL``, then the data folder's ``device.json``), on a PostgreSQL server
(15 or later, through psycopg 3; issue 31, docs/postgresql.md). The data folder stays
this device's either way: its lock, its attachments' copies, its window.

The schema is managed by Alembic from the first version on; a database written by a
newer MONET (a revision this code does not know) is refused rather than guessed at. On
PostgreSQL the same chain runs: a server's history begins at revision 0019, whose
baseline makes its schema at once (0001-0018 do nothing there), and every later revision
runs on both; a revision branches on the dialect where it must. This module, the
migrations and ``storage.fts`` know which server they talk to (``storage.direct`` knows
SQLite's driver: it runs compiled statements on the ``sqlite3`` cursor, and hands
anything else to SQLAlchemy).
"""

from __future__ import annotations

import os
import re
import sqlite3
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import platformdirs
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DatabaseError as SADatabaseError
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import Session, create_engine

from storage import fts, server_check
from storage.errors import DatabaseError, DatabaseTooNewError, Phrase, ServerAwayError
from storage.files import SWAP_FILE, InUse, finish_swap, process_lock
from storage.private import private_folder
from storage.where import database_url, redact_url

DB_FILENAME = "monet.db"
#: The types the layers above name (issue 42: one way into the database): a session, a
#: plain connection in a transaction (``Database.transaction``), and what a unique key
#: raises when another process made the row first (a race, not the person's to fix).
Conflict = IntegrityError
__all__ = ["DB_FILENAME", "HEAD_REVISION", "HISTORY_LOCK", "MIGRATIONS_DIR", "MIGRATION_LOCK",
           "WAL_AUTOCHECKPOINT", "Conflict", "Database", "Session",
           "alembic_config", "default_home", "explain_db_error", "server_lock"]
#: PostgreSQL's advisory lock taken while a schema is made or upgraded.
MIGRATION_LOCK = 0x4D4F4E45  # "MONE"
#: The history's lock on a server: every transaction of every device takes it first, so
#: they run one after another, as SQLite's do on one file (a sunset folds once, a day's
#: messages are numbered in the order they were stored). They are short: a turn's commit,
#: a request's preparation, a librarian's write; the model is never called inside one.
HISTORY_LOCK = 0x4D4F4E48
#: SQLite's default: the WAL is checkpointed by the commit that finds it over this many pages.
WAL_AUTOCHECKPOINT = 1000
#: The newest migration (storage/migrations/versions); tests/test_storage.py checks that
#: it is alembic's head, so a new migration cannot forget it.
HEAD_REVISION = "0021"
MIGRATIONS_DIR = Path(__file__).parent / "migrations"


def _server_problem(where: str, text: str) -> DatabaseError | None:
    """What went wrong with a PostgreSQL server, in words (None: not a server's problem).
    The driver's text is left out where it may repeat the URL's password."""
    lowered = text.lower()
    if "password authentication failed" in lowered or "no password supplied" in lowered:
        return DatabaseError(
            "The database server {where} refused the login. Check the user and the password "
            "(`monet server-password` keeps it in the system keyring; ~/.pgpass works too); "
            "nothing was changed.", where=where)
    missing = re.search(r'(database|role) "([^"]+)" does not exist', text)
    if missing is not None and missing.group(1) == "database":
        return DatabaseError(
            "The database server {where} has no database named {name}. Create it as the "
            "server's administrator (createdb -O USER {name}; docs/postgresql.md) or check the "
            "URL; nothing was changed.", where=where, name=missing.group(2))
    if missing is not None:
        return DatabaseError(
            "The database server {where} has no login named {name}. Create it as the server's "
            "administrator (createuser --pwprompt {name}; docs/postgresql.md) or check the "
            "URL; nothing was changed.", where=where, name=missing.group(2))
    if "does not exist" in lowered and ("database" in lowered or "role" in lowered):
        return DatabaseError("The database server {where} has no such database or user "
                             "({detail}).", where=where, detail=text.strip().splitlines()[0][:160])
    denied = re.search(r"(permission denied for [a-z ]+ \S+|must be owner of [a-z ]+ \S+)",
                       lowered)
    if denied is not None:
        return DatabaseError(
            "The database server {where} does not let this login change MONET's tables "
            "({detail}). Make the login the owner of the database and of its tables (ALTER "
            "DATABASE ... OWNER TO ...; as the administrator), then try again; nothing was "
            "changed.", where=where, detail=denied.group(1))
    hba = re.search(r'no pg_hba\.conf entry for host "([^"]+)"', text)
    if hba is not None:
        return DatabaseError(
            "The database server {where} does not let this device in: its pg_hba.conf has no "
            "line for the address {address} (with this user, database and encryption). Add "
            "one as the server's administrator (docs/postgresql.md, step 5), reload the "
            "server and try again.", where=where, address=hba.group(1))
    if "certificate verify failed" in lowered or "does not match host name" in lowered \
            or "certificate is not yet valid" in lowered or "certificate has expired" in lowered:
        return DatabaseError(
            "The database server {where} showed a certificate this device does not trust "
            "for that name ({detail}). Check sslrootcert (the CA that signed the server's "
            "certificate) and that the URL's host is a name in the certificate "
            "(docs/postgresql.md, step 6).", where=where,
            detail=_tls_detail(lowered))
    if "root certificate file" in lowered and "does not exist" in lowered:
        return DatabaseError(
            "The CA certificate that sslmode=verify-full needs is not on this device (by "
            "default ~/.postgresql/root.crt, or the URL's sslrootcert=...) for {where} "
            "(docs/postgresql.md, step 6).", where=where)
    if "server does not support ssl" in lowered:
        return DatabaseError(
            "The database server {where} does not offer TLS, and the URL asks for it. Turn "
            "ssl on in its postgresql.conf (docs/postgresql.md, step 6).", where=where)
    if "socket" in lowered and "no such file or directory" in lowered:
        return DatabaseError(
            "No database server listens on this machine's socket for {where}. Start it, or "
            "give the server's host in the URL (postgresql://user@host/monet).", where=where)
    invalid = re.search(r"invalid (?:connection option|dsn|integer value|port|"
                        r"[a-z_]+ value)[^\n]{0,80}", lowered)
    if invalid is not None:
        return DatabaseError(
            "The database URL {where} is not valid ({detail}). See docs/postgresql.md for its "
            "form.", where=where, detail=invalid.group(0))
    if any(sign in lowered for sign in (
            "connection refused", "could not connect", "server closed the connection",
            "connection timeout", "timeout expired", "could not translate host name",
            "failed to resolve host",
            "no route to host", "network is unreachable", "connection is closed",
            "terminating connection", "consuming input failed", "server conn crashed",
            "the connection is lost", "ssl connection has been closed")):
        return ServerAwayError(
            "The database server {where} cannot be reached. Check that it is running and "
            "that this device can reach it.", where=where)
    return None


def _tls_detail(lowered: str) -> Phrase:
    """Which check of the server's certificate failed, in a few words."""
    if "does not match host name" in lowered:
        return Phrase("the name does not match")
    if "expired" in lowered or "not yet valid" in lowered:
        return Phrase("outside its dates")
    return Phrase("signed by an unknown CA")


def default_home() -> Path:
    env = os.environ.get("MONET_HOME")
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir("MONET", appauthor=False))


def _pragmas(busy_timeout_ms: int, read_only: bool = False) -> Any:
    def set_pragmas(dbapi_conn: Any, _record: Any) -> None:
        _set_sqlite_pragmas(dbapi_conn, busy_timeout_ms, read_only)

    return set_pragmas


def _set_sqlite_pragmas(dbapi_conn: Any, busy_timeout_ms: int, read_only: bool = False) -> None:
    fts.register(dbapi_conn)  # the search index's triggers call it (migration 0016)
    cur = dbapi_conn.cursor()
    cur.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
    cur.execute("PRAGMA foreign_keys=ON")
    if not read_only:  # a read-only file keeps the journal mode it has
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()


def _writable(home: Path, path: Path) -> bool:
    if not os.access(home, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        return False
    try:  # a read-only file system answers os.access for root with yes: ask it
        # a probe of this process's own: two processes opening the home at once once
        # removed each other's shared probe, and one took the home for read-only
        fd, probe = tempfile.mkstemp(prefix=".monet-write-probe-", dir=home)
    except OSError:
        return False
    os.close(fd)
    Path(probe).unlink(missing_ok=True)
    return True


def alembic_config(connection: Any) -> Any:
    """Alembic's configuration for MONET's migrations, run on ``connection``."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.attributes["connection"] = connection
    return cfg


def explain_db_error(path: Path | str, exc: BaseException) -> DatabaseError | None:
    """A sentence for the conditions a person can act on (locked, damaged, read-only,
    full; a server that cannot be reached or refuses the login), or None: anything else
    (a constraint violated by a race, a bug in a query) is not the person's to fix and
    propagates as it is (``storage/errors.py``). ``path``: the file, or the server's URL
    without its password; no password is ever in the sentence."""
    if isinstance(exc, IntegrityError):
        return None
    text = str(getattr(exc, "orig", exc) or exc)
    server = _server_problem(str(path), text)
    if server is not None:
        return server
    if "locked" in text or "busy" in text:
        return DatabaseError(
            "The database {path} is locked by another program. Close the other MONET "
            "window or process and try again; nothing was lost.", path=path
        )
    if "not a database" in text or "malformed" in text or "disk image" in text:
        return DatabaseError(
            "The database {path} is damaged ({text}). MONET did not change it. Keep a copy of the "
            "file; restore a backup or move the file away to start fresh.", path=path, text=text)
    if "readonly" in text or "unable to open" in text:
        return DatabaseError(
            "The database {path} cannot be written ({text}).", path=path, text=text)
    if "disk is full" in text or "disk I/O" in text:
        return DatabaseError(
            "The disk holding {path} is full or failing ({text}). Free some space; what "
            "was stored before is kept.", path=path, text=text
        )
    return None


def _custom_plans(dbapi_conn: Any, _record: Any) -> None:
    """Plan every statement for its own values: psycopg prepares a statement run five
    times, and PostgreSQL then may keep one generic plan for all values, which for the
    search's skewed terms is the wrong one (a rare pair's lookup at a year: 1 ms planned
    for its value, 170 ms by the generic plan, found by a benchmark's twentieth run)."""
    with dbapi_conn.cursor() as cursor:
        cursor.execute("SET plan_cache_mode = force_custom_plan")
    dbapi_conn.commit()


def server_lock(db: Session, key: int) -> None:
    """On a PostgreSQL server, wait for the advisory lock ``key`` and hold it until this
    transaction ends (what two devices must not do at once takes turns); nothing on a
    SQLite file, whose writers take turns already."""
    conn = db.connection()
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({int(key)})")


@contextmanager
def _joined(conn: Connection) -> Iterator[Session]:
    """A session inside ``conn``'s transaction: what it does is flushed at the end and
    committed with the rest of that transaction, or not at all."""
    session = Session(bind=conn, expire_on_commit=False)
    try:
        yield session
        session.flush()
    finally:
        session.close()


def server_engine(url: str, pool_size: int = 4, password: str | None = None) -> Engine:
    """The engine of a PostgreSQL history at ``url``: psycopg, the password from the OS
    keyring when the URL has none (never part of the URL, a log or an error), a 10 s
    connect timeout, and the server's custom plans (``_custom_plans``)."""
    from sqlalchemy.engine import make_url

    try:
        import psycopg  # noqa: F401  (SQLAlchemy's dialect imports it by name)
    except ImportError:
        raise DatabaseError(
            "The history at {where} is on a PostgreSQL server, and this MONET "
            "was installed without the server's driver. Install it with "
            "pip install 'monet[server]' (or pip install 'psycopg[binary]') and try "
            "again; nothing was written.", where=redact_url(url)) from None
    from storage.server_password import keyring_password

    target = make_url(url).set(drivername="postgresql+psycopg")
    # keepalives and tcp_user_timeout: a server gone without a word (power cut, Wi-Fi
    # dropped) is found within seconds, not after TCP's ~15 minutes of retransmission
    connect: dict[str, object] = {"connect_timeout": 10, "application_name": "MONET",
                                  "keepalives": 1, "keepalives_idle": 10,
                                  "keepalives_interval": 3, "keepalives_count": 3,
                                  "tcp_user_timeout": 15_000}
    password = password if password is not None else keyring_password(url)
    if password is not None:
        connect["password"] = password
    engine = create_engine(target, pool_pre_ping=True, pool_size=pool_size,
                           max_overflow=pool_size, connect_args=connect)
    event.listen(engine, "connect", _custom_plans)
    return engine


class Database:
    """One MONET data folder: the SQLite file plus the text files beside it, or this
    device's folder and the history on a PostgreSQL server (``url``)."""

    def __init__(
        self,
        home: Path | str | None = None,
        *,
        url: str | None = None,
        migrate: bool = True,
        busy_timeout_ms: int = 5000,
    ) -> None:
        self.home = Path(home) if home is not None else default_home()
        if self.home.exists() and not self.home.is_dir():
            raise DatabaseError("{home} is a file, not a folder, so it cannot be a "
                                "MONET data folder; nothing was written.", home=self.home)
        if (self.home / DB_FILENAME).exists() and not (self.home / DB_FILENAME).is_file():
            raise DatabaseError(
                "{path} is not a file (a folder?), so MONET cannot keep its history there; "
                "nothing was written.", path=self.home / DB_FILENAME)
        #: Folders and files of an older, open data folder made private on opening it
        #: (a new folder is made private: storage/private.py).
        self.tightened = private_folder(self.home)
        self.path = self.home / DB_FILENAME
        self._held = threading.local()  # this thread's depth inside HISTORY_LOCK
        #: The server's URL (None: the SQLite file); ``where`` names it without a password.
        self.url = database_url(self.home, url)
        self.where = redact_url(self.url) if self.url else str(self.path)
        if self.url is not None:
            self._open_server(migrate)
            return
        self._found_empty = self.path.exists() and self.path.stat().st_size == 0
        #: A home MONET cannot write (a read-only folder, file or file system) still opens
        #: for reading: export, search, timeline, the memory list. Writing says why not.
        self.read_only = self.path.exists() and not _writable(self.home, self.path)
        if self.read_only:
            self.engine: Engine = create_engine(
                f"sqlite:///file:{self.path}?mode=ro&uri=true"
                if (self.home / (DB_FILENAME + "-shm")).exists()
                else f"sqlite:///file:{self.path}?immutable=1&uri=true"
            )
        else:
            self.engine = create_engine(f"sqlite:///{self.path}")
        #: Held while this database is open, so a restore cannot replace the file under it
        #: (``storage.files.InUse``); none for a folder that cannot be written.
        self._in_use: InUse | None = None
        if not self.read_only:
            try:
                self._in_use = InUse(self.home)
                if (self.home / SWAP_FILE).is_file():  # a restore killed midway: finished
                    with process_lock(self.home, "migrating"):
                        finish_swap(self.home)
            except (OSError, sqlite3.Error) as exc:
                self.engine.dispose()
                raise DatabaseError(
                    "MONET cannot open {home}: a restore into it did not end, or its lock file "
                    "cannot be used ({exc}). Try again in a moment.", home=self.home,
                    exc=exc) from exc
        event.listen(self.engine, "connect", _pragmas(busy_timeout_ms, self.read_only))
        if migrate:
            self.migrate()

    @property
    def server(self) -> bool:
        """Whether the history is on a PostgreSQL server (not the SQLite file)."""
        return self.url is not None

    def stamp(self) -> tuple[int, ...]:
        """When and how far the SQLite file and its write-ahead log last changed, from
        ``stat`` alone (no query): a commit by any process moves it. Empty on a server."""
        if self.server:
            return ()
        found: list[int] = []
        for path in (self.path, self.path.with_name(DB_FILENAME + "-wal")):
            try:
                info = path.stat()
            except OSError:
                found += [0, 0]
            else:
                found += [info.st_mtime_ns, info.st_size]
        return tuple(found)

    def _open_server(self, migrate: bool) -> None:

        self.read_only = False
        self._found_empty = False
        self.engine = server_engine(self.url or "")
        self._in_use = None
        try:
            self._in_use = InUse(self.home)  # this device's folder, as for the file
        except (OSError, sqlite3.Error) as exc:
            self.engine.dispose()
            raise DatabaseError(
                "MONET cannot open {home}: a restore into it did not end, or its lock file cannot "
                "be used ({exc}). Try again in a moment.", home=self.home, exc=exc) from exc
        if migrate:
            try:
                self.migrate()
            except BaseException:  # refused or unreachable: nothing left open behind it
                self.close()
                raise

    def migrate(self) -> None:
        """Bring the schema to head. Several processes opening one home at once (the app, a
        librarian, a replay) take turns: the first migrates, the others find it done."""
        if self.server:
            self._migrate_server()
            return
        try:
            new = not self.path.exists() or self._found_empty
            if not new and self._at_head():
                return
            if self.read_only:
                raise DatabaseError(
                    "The database {path} needs an upgrade to this MONET's schema, but "
                    "it cannot be written here (read-only). Open it once where it can be "
                    "written; it was not changed.", path=self.path
                )
            with process_lock(self.home, "migrating"):
                if self._found_empty and self.path.stat().st_size == 0:
                    # still empty once any process creating it is done: emptied, not new
                    raise DatabaseError(
                        "The database {path} is empty (0 bytes): it was emptied or cut "
                        "short, so it is not a new home. Restore it from a backup, or move "
                        "it away to start a new one; nothing was changed.", path=self.path
                    )
                if self._at_head():
                    return  # another process made it meanwhile
                if new:
                    self._create()
                else:
                    self._upgrade()
        except (OperationalError, SADatabaseError, sqlite3.DatabaseError) as exc:
            explained = explain_db_error(self.where, exc)
            if explained is None:
                raise
            raise explained from exc

    def _migrate_server(self) -> None:
        """The migrations on a PostgreSQL database, in one transaction under an advisory
        lock (several devices opening it at once take turns): a new database gets 0019's
        baseline and what follows it, an older revision what it lacks; one this MONET does
        not know is refused (``_run_chain``)."""
        try:
            with self.engine.begin() as conn:
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
                exists = conn.exec_driver_sql(
                    "SELECT to_regclass('alembic_version') IS NOT NULL").scalar()
                current = conn.exec_driver_sql(
                    "SELECT version_num FROM alembic_version").scalar() if exists else None
                if current == HEAD_REVISION:
                    return
                if current == "0019" and conn.exec_driver_sql(
                        "SELECT to_regclass('message_totals') IS NULL").scalar():
                    raise DatabaseTooNewError(
                        "The database {where} was made by a development build of MONET "
                        "(before its search and shared files were complete). Copy it into a "
                        "data folder with that build (monet migrate-to FOLDER), then onto a "
                        "new database with this one; it was not changed.", where=self.where)
                if current is None:  # what would stop the chain, or mix MONET's tables
                    with _joined(conn) as session:
                        found = server_check.facts(session)
                    problem = server_check.refusal(found, self.where)
                    if problem is not None:
                        raise problem
                self._run_chain(conn, self.where)
        except (OperationalError, SADatabaseError) as exc:
            explained = explain_db_error(self.where, exc)
            if explained is None:
                raise
            raise explained from exc

    def _at_head(self) -> bool:
        """Whether the schema is this MONET's: one small query against ``HEAD_REVISION``
        (alembic, ~0.1 s to import and read its scripts, loads only to upgrade)."""
        with self.engine.connect() as conn:
            try:
                row = conn.exec_driver_sql("SELECT version_num FROM alembic_version").first()
            except (OperationalError, SADatabaseError):
                return False  # no version table yet: a new database
            return row is not None and row[0] == HEAD_REVISION

    def _create(self) -> None:
        """A new home: the head schema in one transaction (``storage/schema.py``)."""
        from storage import schema

        with self.engine.begin() as conn:
            if conn.exec_driver_sql(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
            ).scalar():
                self._upgrade()  # something made tables meanwhile: let alembic judge
                return
            schema.create(conn.connection.driver_connection, HEAD_REVISION)

    def upgrade_with_alembic(self) -> None:
        """Run the migrations (``storage/schema.py`` dumps what they make)."""
        with process_lock(self.home, "migrating"):
            self._upgrade()

    def _upgrade(self) -> None:
        with self.engine.begin() as conn:
            self._run_chain(conn, self.path)

    @staticmethod
    def _run_chain(conn: Connection, where: object) -> None:
        """Alembic's upgrade to the head on ``conn``, inside its transaction; a revision
        this MONET does not know (a newer one's) is refused, the database unchanged."""
        from alembic import command
        from alembic.runtime.migration import MigrationContext
        from alembic.script import ScriptDirectory

        cfg = alembic_config(conn)
        script = ScriptDirectory.from_config(cfg)
        current = MigrationContext.configure(conn).get_current_revision()
        known = {rev.revision for rev in script.walk_revisions()}
        if current is not None and current not in known and current < HEAD_REVISION:
            # (revisions are numbered: a lower one this MONET does not know is an older
            # build's, not a newer one's)
            raise DatabaseError(
                "The database {path} was written by an older MONET whose schema ({current}) "
                "this MONET cannot upgrade. Open it with that MONET and make a backup "
                "(monet backup), then restore the backup here; it was not changed.",
                path=where, current=current)
        if current is not None and current not in known:
            raise DatabaseTooNewError(
                "The database {path} was written by a newer MONET (schema {current}). Update "
                "MONET to open it; it was not changed.", path=where, current=current)
        if current != script.get_current_head():
            command.upgrade(cfg, "head")

    def schema_revision(self) -> str | None:
        from alembic.runtime.migration import MigrationContext

        with self.engine.connect() as conn:
            rev: str | None = MigrationContext.configure(conn).get_current_revision()
            return rev

    @contextmanager
    def transaction(self, *, defer_checkpoint: bool = False) -> Iterator[Session]:
        """One transaction, committed whole when the block ends or not at all; SQLite
        errors in plain words, as ``session``. (The one session type every repository
        takes: ``session`` is the same, for callers that commit themselves.)

        ``defer_checkpoint``: for the path between the person's Enter and the request
        leaving (the message's commit, the request's preparation). SQLite checkpoints the
        WAL on whichever commit finds it over 1,000 pages; that syncs the database file
        (~5-7 ms here, far more on a slow disk). Here the commit leaves it to the next one
        that does not defer it, such as storing the reply, when nobody waits."""
        with self._in_words(), self.engine.connect() as conn:
            driver = (conn.connection.driver_connection
                      if defer_checkpoint and not self.server else None)
            if driver is not None:
                driver.execute("PRAGMA wal_autocheckpoint=0")
            try:
                with conn.begin(), self._history_lock(conn), _joined(conn) as session:
                    yield session
            finally:
                if driver is not None:
                    driver.execute(f"PRAGMA wal_autocheckpoint={WAL_AUTOCHECKPOINT}")

    @contextmanager
    def unlocked_reads(self) -> Iterator[Session]:
        """A session for reads that need not wait their turn behind the history's
        writers (``HISTORY_LOCK`` on a server): what changes nothing of the history, such
        as fetching a shared history's files into this device's folder."""
        with self._in_words(), self.engine.connect() as conn, _joined(conn) as session:
            yield session

    @contextmanager
    def _in_words(self) -> Iterator[None]:
        """A database's error said as a sentence the person can act on, where one is known
        (``explain_db_error``); any other goes on as it was."""
        try:
            yield
        except (OperationalError, SADatabaseError) as exc:
            explained = explain_db_error(self.where, exc)
            if explained is None:
                raise
            raise explained from exc

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session that commits on success and turns SQLite errors into plain words."""
        session = Session(self.engine, expire_on_commit=False)
        locked = None
        try:
            if self.server:  # (connecting: a server away is explained below too)
                locked = self._history_lock(session.connection())
                locked.__enter__()
            yield session
            session.commit()
        except (OperationalError, SADatabaseError) as exc:
            session.rollback()
            explained = explain_db_error(self.where, exc)
            if explained is None:
                raise
            raise explained from exc
        except BaseException:
            session.rollback()
            raise
        finally:
            if locked is not None:
                locked.__exit__(None, None, None)
            session.close()

    @contextmanager
    def _history_lock(self, conn: Connection) -> Iterator[None]:
        """``HISTORY_LOCK`` on a server, for the transaction of ``conn``; a thread already
        holding it (a transaction opened inside another one, on a second connection) does
        not wait for itself."""
        if not self.server:
            yield
            return
        depth: int = getattr(self._held, "depth", 0)
        if depth:
            self._held.depth = depth + 1
            try:
                yield
            finally:
                self._held.depth -= 1
            return
        conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({HISTORY_LOCK})")
        self._held.depth = 1
        try:
            yield
        finally:
            self._held.depth = 0

    def close(self) -> None:
        self.engine.dispose()
        if self._in_use is not None:
            self._in_use.release()
            self._in_use = None


def server_facts(url: str, password: str | None = None) -> server_check.Facts:
    """Log in to the database at ``url`` (with ``password`` when given, else as MONET
    would: the URL's, the keyring's, libpq's) and read what it offers, changing nothing
    there. A server that cannot be reached or refuses the login raises its sentence."""
    engine = server_engine(url, pool_size=1, password=password)
    try:
        with Session(engine) as session:
            return server_check.facts(session)
    except (OperationalError, SADatabaseError) as exc:
        explained = explain_db_error(redact_url(url), exc)
        if explained is None:
            raise
        raise explained from exc
    finally:
        engine.dispose()


def check_server(url: str) -> list[server_check.Finding]:
    """Every check of ``storage/server_check.py`` against the database at ``url``, changing
    nothing there (and nothing on this device): for ``monet check-server``."""
    return server_check.findings(server_facts(url), HEAD_REVISION, redact_url(url))
