"""Backups a person can trust with a year of their life, and restoring one.

A backup is one zip file: ``monet.db`` copied with SQLite's online backup API (a
consistent snapshot even while the app, a librarian or a replay is writing), the text
files beside it that Claude reads (``system_prompt_core.txt``, ``context_summary.txt``),
the attached files that snapshot names (``attachments/<sha256>``), and ``manifest.json``
(when, which MONET and schema revision, how many messages, and the SHA-256 of every
file). Forgetting or deleting a message also takes its attached files out of the
backups in the data folder (``storage.attachments.purge_backups``): forgotten means no
byte of them left there. The copy's integrity is checked before the zip is written, and
the zip is written whole or not at all.

Restoring checks the archive (hashes, SQLite's integrity check) before touching the home,
refuses a home that already holds a database unless forced, keeps what it replaces as
dated copies beside it, and checks the restored database again. The app makes one
backup a day into ``<home>/backups`` and keeps the newest ``backup_keep`` (7).

    monet backup --home H [--out FILE]
    monet restore FILE --home H [--force]
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from monet_app.services.version import monet_version
from storage import attachments as attachment_files
from storage import sqlite_file
from storage.database import DB_FILENAME, Database
from storage.errors import BackupError
from storage.files import SWAP_FILE, FolderInUse, commit_swap, process_lock, sole_use
from storage.memory import latest_summary_text
from storage.settings import read_value, write_value
from storage.talk import messages_by_ids
from storage.where import DEVICE_FILE, database_url

#: The files beside the database that a backup carries (Claude reads both).
TEXT_FILES = ("system_prompt_core.txt", "context_summary.txt")
ATTACHMENTS = attachment_files.FOLDER  # attached files, by their SHA-256
_SHA = attachment_files.SHA
MANIFEST = "manifest.json"
FORMAT = 1
BACKUP_FOLDER = attachment_files.BACKUPS
#: Automatic backups are named so, and only these are ever rotated away.
AUTO_PREFIX = "monet-auto-"


@dataclass(frozen=True)
class BackupResult:
    path: Path
    size_bytes: int
    messages: int
    schema_revision: str


@dataclass(frozen=True)
class RestoreResult:
    home: Path
    messages: int
    schema_revision: str
    replaced: tuple[Path, ...]  # the dated copies of what was there before
    server: str = ""  # the server restored into (without its password), if any


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _attachments_named(database: Path) -> list[str]:
    """The attached files a database's rows name (none before migration 0019)."""
    return sorted(sha for sha in sqlite_file.attachment_hashes(database) if _SHA.fullmatch(sha))


def default_name(now: datetime, auto: bool = False) -> str:
    return f"{AUTO_PREFIX if auto else 'monet-'}{now.strftime('%Y%m%d-%H%M%S')}.zip"


def _not_a_home_file(home: Path, target: Path) -> None:
    """A backup never replaces what it backs up: the database, its journal files, the
    text files, the log or a lock file of the data folder."""
    owned = {DB_FILENAME, DB_FILENAME + "-wal", DB_FILENAME + "-shm", *TEXT_FILES,
             "monet.log", DEVICE_FILE}
    resolved = target.resolve()
    if resolved.parent == home.resolve() and (resolved.name in owned
                                              or resolved.name.endswith(".lock")):
        raise BackupError(
            "{target} is one of the data folder's own files; a backup never replaces "
            "them. Nothing was written: choose another file (a .zip outside the data "
            "folder, or its backups folder).", target=target)


def database_in(home: Path) -> Path:
    """The database a backup is made of; a sentence when ``home`` holds none."""
    database = home / DB_FILENAME
    if not database.is_file():
        raise BackupError("There is no MONET database in {home}; nothing was backed up.", home=home)
    return database


@contextmanager
def _history_file(home: Path) -> Iterator[tuple[Path, Path]]:
    """(the SQLite file a backup is made of, the folder of its text files): the data
    folder's own, or, for a history on a server (issue 31), a copy of it made now into a
    temporary data folder (``storage/copy.py``, checked table by table), so that the
    archive is the same whichever store holds the history, and restores into either."""
    url = database_url(home)
    if url is None:
        yield database_in(home), home
        return
    from cms.context.core_prompt import core_path, read_core
    from storage import Database
    from storage.copy import copy_checked

    with tempfile.TemporaryDirectory(prefix=".monet-snapshot-", dir=home) as tmp:
        snapshot = Path(tmp) / "history"
        source, target = Database(home, url=url), Database(snapshot, url="")
        try:
            copy_checked(source, target)
            core = read_core(source)
            if core:
                core_path(snapshot).write_text(core, "utf-8")
            # the daily context summary's file, as the librarian writes it beside a file
            # history: the newest summary of the history (any device's librarian's)
            with target.unlocked_reads() as conn:
                latest = latest_summary_text(conn)
            if latest is not None and latest[1]:
                (snapshot / "context_summary.txt").write_text(latest[1].rstrip() + "\n",
                                                              "utf-8")
        finally:
            source.close()
            target.close()
        yield snapshot / DB_FILENAME, snapshot


def make_backup(home: Path, now: datetime, out: Path | None = None,
                auto: bool = False) -> BackupResult:
    """Back ``home`` up into ``out`` (default: ``<home>/backups/monet-<when>.zip``)."""
    with _history_file(home) as (database, texts):
        return _make_backup(home, database, texts, now, out, auto)


def _make_backup(home: Path, database: Path, texts: Path, now: datetime, out: Path | None,
                 auto: bool) -> BackupResult:
    target = out or home / BACKUP_FOLDER / default_name(now, auto)
    if target.is_dir():
        target = target / default_name(now, auto)
    _not_a_home_file(home, target)
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".monet-backup-") as tmp:
        copy = Path(tmp) / DB_FILENAME
        try:
            sqlite_file.copy(database, copy)
        except sqlite_file.Damaged as exc:
            raise BackupError(
                "The database in {home} could not be read for a backup ({exc}); nothing "
                "was written.", home=home, exc=exc) from exc
        verdict, revision, messages = sqlite_file.integrity(copy)
        if verdict != "ok":
            raise BackupError(
                "The database in {home} failed SQLite's integrity check ({verdict}); the "
                "backup was not written. Keep your older backups.", home=home, verdict=verdict)
        files = {DB_FILENAME: copy}
        for sha in _attachments_named(copy):
            # (a server's history: its files were fetched into the snapshot's folder)
            source = texts / ATTACHMENTS / sha
            if source.is_file():  # (one forgotten meanwhile is gone, as it should be)
                files[f"{ATTACHMENTS}/{sha}"] = source
        for name in TEXT_FILES:
            # copied first, then hashed and zipped from the copy: a librarian rewriting
            # the file meanwhile cannot make the archive disagree with its manifest
            try:
                shutil.copyfile(texts / name, Path(tmp) / name)
            except FileNotFoundError:
                continue
            files[name] = Path(tmp) / name
        manifest = {
            "format": FORMAT, "created": now.isoformat(), "monet_version": monet_version("unknown"),
            "schema_revision": revision, "messages": messages,
            "files": {name: _sha256(path) for name, path in files.items()},
        }
        partial = Path(tmp) / "backup.zip"
        with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            for name, path in files.items():
                archive.write(path, name)
            archive.writestr(MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False))
        os.replace(partial, target)  # whole or not at all
    return BackupResult(target, target.stat().st_size, messages, revision)


def rotate(home: Path, keep: int) -> list[Path]:
    """Remove the oldest automatic backups beyond ``keep``; returns what went. Backups
    the person made by hand are never removed."""
    folder = home / BACKUP_FOLDER
    if keep <= 0 or not folder.is_dir():
        return []
    autos = sorted(folder.glob(f"{AUTO_PREFIX}*.zip"))
    gone = autos[:-keep] if len(autos) > keep else []
    for path in gone:
        path.unlink(missing_ok=True)
    return gone


def last_backup(home: Path) -> datetime | None:
    """When the newest backup in ``<home>/backups`` was made (by its file time)."""
    folder = home / BACKUP_FOLDER
    if not folder.is_dir():
        return None
    times = [p.stat().st_mtime for p in folder.glob("monet-*.zip")]
    return datetime.fromtimestamp(max(times)).astimezone() if times else None


#: A backup's files are a database and a few text files: an archive whose files would
#: grow more than this many times is refused before anything is written (a zip bomb).
MAX_EXPANSION = 200


def _fits(archive: Path, into: Path, members: list[zipfile.ZipInfo]) -> None:
    """Refuse, before extracting, what would not fit on the disk or expands like a bomb."""
    size = sum(member.file_size for member in members)
    packed = max(1, sum(member.compress_size for member in members))
    if size > packed * MAX_EXPANSION:
        raise BackupError(
            "{archive} would expand {ratio:,.0f} times ({size:,} bytes); a MONET backup never "
            "does. Nothing was restored.", archive=archive, ratio=size / packed, size=size)
    free = shutil.disk_usage(into).free
    if size * 2 > free:  # the extracted copy and the kept one
        raise BackupError(
            "{archive} needs {needed:,.0f} MB free beside the data folder; {free:,.0f} MB are. "
            "Nothing was restored.", archive=archive, needed=size * 2 / 1e6, free=free / 1e6)


def _read_archive(archive: Path, into: Path) -> dict[str, object]:
    """Extract and verify ``archive``: every file's hash, and the database's integrity."""
    try:
        with zipfile.ZipFile(archive) as opened:
            names = set(opened.namelist())
            if MANIFEST not in names or DB_FILENAME not in names:
                raise BackupError(
                    "{archive} is not a MONET backup (no manifest or database).", archive=archive)
            manifest = json.loads(opened.read(MANIFEST))
            wanted = manifest.get("files") if isinstance(manifest, dict) else None
            if not isinstance(wanted, dict) or not all(
                    isinstance(k, str) and isinstance(v, str) for k, v in wanted.items()):
                raise BackupError(
                    "{archive} has a manifest MONET cannot read; refused.", archive=archive)
            for name in wanted:
                if name != DB_FILENAME and name not in TEXT_FILES and not (
                        name.startswith(f"{ATTACHMENTS}/")
                        and _SHA.fullmatch(name.removeprefix(f"{ATTACHMENTS}/"))):
                    raise BackupError(
                        "{archive} holds an unexpected file {name!r}; refused.", archive=archive,
                        name=name)
            _fits(archive, into, [opened.getinfo(name) for name in wanted])
            for name in wanted:
                opened.extract(name, into)
    except (zipfile.BadZipFile, OSError, ValueError, KeyError) as exc:
        raise BackupError(
            "{archive} cannot be read as a MONET backup ({exc}).", archive=archive,
            exc=exc) from exc
    for name, digest in wanted.items():
        if _sha256(into / name) != digest:
            raise BackupError(
                "{archive} is damaged: {name} does not match its checksum.", archive=archive,
                name=name)
        if name.startswith(f"{ATTACHMENTS}/") and name.removeprefix(f"{ATTACHMENTS}/") != digest:
            # a file named by its hash is checked against its name, not only against a
            # manifest the same archive could have made to match (issue 41)
            raise BackupError("{archive} holds {name} with other bytes than its name says; "
                              "refused, nothing was restored.", archive=archive, name=name)
    verdict, _revision, _messages = sqlite_file.integrity(into / DB_FILENAME)
    if verdict != "ok":
        raise BackupError("The database in {archive} failed SQLite's integrity check "
                          "({verdict}); nothing was restored.", archive=archive, verdict=verdict)
    return dict(manifest)


def _bring_to_this_schema(folder: Path) -> None:
    """Open the extracted copy as MONET would: an older backup is upgraded to this
    MONET's schema there, before anything is replaced; a newer one is refused."""
    from storage import Database

    db = Database(folder)  # raises DatabaseTooNewError for a newer MONET's backup
    db.close()
    sqlite_file.one_file(folder / DB_FILENAME)  # one file to move


def restore(archive: Path, home: Path, now: datetime, force: bool = False) -> RestoreResult:
    """Restore ``archive`` into ``home``. Refused while any MONET has the home's database
    open (a window, ``monet librarian``, a replay: ``storage.files.InUse``): the file is
    never pulled from under a running MONET. The window's own Restore lets go of its
    database first. What is replaced is kept as ``<name>.replaced-<when>`` (never
    overwritten: two restores in one second keep two copies); a damaged database is kept
    as its raw files."""
    if not archive.is_file():
        raise BackupError("{archive} does not exist or is not a file.", archive=archive)
    url = database_url(home)
    if url is not None:
        return _restore_to_server(archive, home, url)
    database = home / DB_FILENAME
    if database.exists() and not force:
        raise BackupError(
            "{home} already holds a MONET database; nothing was changed. Add --force to "
            "replace it (the current one is kept beside it as a dated copy).", home=home)
    home.mkdir(parents=True, exist_ok=True)
    with process_lock(home, "restoring"):  # two restores take turns, extracting too
        _sweep_strays(home)
        # (the swap moves the extracted files in and removes the folder; a kill after
        # its plan is written leaves it for the next opening to finish from)
        with tempfile.TemporaryDirectory(dir=home, prefix=RESTORE_PREFIX,
                                         ignore_cleanup_errors=True) as tmp:
            extracted = Path(tmp)
            _read_archive(archive, extracted)
            _bring_to_this_schema(extracted)
            try:
                with sole_use(home):  # no MONET has it open, none opens it meanwhile
                    replaced = _swap_in(extracted, home, _free_stamp(home, now))
            except FolderInUse:
                raise BackupError(
                    "MONET is using {home} right now (a window, monet librarian or a "
                    "replay); nothing was changed. Close it and restore again, or restore "
                    "from the window's MONET menu, which lets go of the database first.",
                    home=home) from None
            verdict, revision, messages = sqlite_file.integrity(database)
            if verdict != "ok":
                raise BackupError(
                    "The restored database failed SQLite's integrity check ({verdict}); the "
                    "replaced one is kept as {kept}.", verdict=verdict, kept=replaced[:1])
    return RestoreResult(home, messages, revision, tuple(replaced))


#: The folder a restore extracts a backup into, inside the data folder.
RESTORE_PREFIX = ".monet-restore-"


def _sweep_strays(home: Path) -> int:
    """A restore killed before its plan was written leaves its extracted copy of a backup
    in the data folder: removed by the next restore, which holds the restoring lock (no
    other restore is extracting). The folder a written plan names is left to
    ``storage.files.finish_swap``. Returns how many went."""
    named = ""
    if (home / SWAP_FILE).is_file():
        try:
            named = str(json.loads((home / SWAP_FILE).read_text("utf-8"))["staged"])
        except (OSError, ValueError, KeyError, TypeError):
            named = ""
    gone = 0
    for stray in home.glob(f"{RESTORE_PREFIX}*"):
        if stray.name != named and stray.is_dir() and not stray.is_symlink():
            shutil.rmtree(stray, ignore_errors=True)
            gone += 1
    return gone


def _restore_to_server(archive: Path, home: Path, url: str) -> RestoreResult:
    """A backup restored into the (empty) PostgreSQL database this data folder's history
    is on (issue 31): read and checked as for a folder, brought to this schema, copied in
    table by table and checked. A database that holds a history is never replaced: other
    devices may be writing it."""
    from cms.context.core_prompt import CORE_KEY, core_path
    from storage import Database
    from storage.copy import copy_checked
    from storage.settings import write_value

    home.mkdir(parents=True, exist_ok=True)
    with process_lock(home, "restoring"), \
            tempfile.TemporaryDirectory(dir=home, prefix=RESTORE_PREFIX) as tmp:
        extracted = Path(tmp)
        _read_archive(archive, extracted)
        _bring_to_this_schema(extracted)
        verdict, revision, messages = sqlite_file.integrity(extracted / DB_FILENAME)
        if verdict != "ok":
            raise BackupError("The backup's database failed SQLite's integrity check "
                              "({verdict}); nothing was changed.", verdict=verdict)
        source, target = Database(extracted, url=""), Database(home, url=url)
        try:
            copy_checked(source, target)
            core = core_path(extracted)
            if core.is_file():
                with target.session() as session:
                    write_value(session, CORE_KEY, core.read_text("utf-8"))
            where = target.where
        finally:
            source.close()
            target.close()
        attached = extracted / ATTACHMENTS
        if attached.is_dir():
            (home / ATTACHMENTS).mkdir(exist_ok=True)
            for path in attached.iterdir():
                _put_named(path, home / ATTACHMENTS / path.name)
    return RestoreResult(home, messages, revision, (), where)


def _put_named(path: Path, target: Path) -> None:
    """An extracted file, checked against its name by ``_read_archive``, into its place:
    a file already there that holds the bytes its name says is kept as it is (never
    replaced by a different one); one that does not (damaged) is repaired."""
    if target.is_file() and attachment_files.holds(target, target.name):
        return
    os.replace(path, target)


def _free_stamp(home: Path, now: datetime) -> str:
    """The suffix of this restore's kept copies, unused so far (a second restore in the
    same second gets ``-2``)."""
    base = now.strftime("%Y%m%d-%H%M%S")
    stamp, n = base, 1
    while any(home.glob(f"*.replaced-{stamp}*")):
        n += 1
        stamp = f"{base}-{n}"
    return stamp


def _swap_in(extracted: Path, home: Path, stamp: str) -> list[Path]:
    """Keep a copy of what is there, then put the extracted files in its place as one
    step (``storage.files.commit_swap``: killed before it, nothing changed; after, the
    next opening finishes it). A text file the backup does not hold goes (kept too): the
    folder is as it was when the backup was made."""
    database = home / DB_FILENAME
    replaced: list[Path] = []
    with process_lock(home, "migrating"):  # no MONET opens the home meanwhile
        if database.exists():
            kept = home / f"{DB_FILENAME}.replaced-{stamp}"
            try:
                sqlite_file.copy(database, kept)  # WAL contents included
            except sqlite_file.Damaged:  # damaged (the usual reason to restore): as is
                kept.unlink(missing_ok=True)
                shutil.copyfile(database, kept)
                for suffix in ("-wal", "-shm"):
                    if (home / (DB_FILENAME + suffix)).exists():
                        shutil.copyfile(home / (DB_FILENAME + suffix),
                                        home / f"{kept.name}{suffix}")
            replaced.append(kept)
        if (extracted / ATTACHMENTS).is_dir():  # by content: the same name, the same bytes
            (home / ATTACHMENTS).mkdir(exist_ok=True)
            for path in (extracted / ATTACHMENTS).iterdir():
                _put_named(path, home / ATTACHMENTS / path.name)
        for name in TEXT_FILES:
            if (home / name).exists():
                kept = home / f"{name}.replaced-{stamp}"
                shutil.copyfile(home / name, kept)
                replaced.append(kept)
        put = [name for name in TEXT_FILES if (extracted / name).exists()]
        remove = [name for name in TEXT_FILES if name not in put]
        commit_swap(home, extracted, [*put, DB_FILENAME], remove)
    return replaced


#: The messages a forget under way takes out of MONET's backups, by id, with their text's
#: SHA-256 (never the text): noted before the forget, cleared once the backups are
#: rewritten, so a kill in between is finished at the next start.
BACKUPS_TO_FORGET = "backups_to_forget"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def note_forgetting(db: Database, gone: dict[int, str]) -> None:
    """Before a forget: note what it takes out of the backups (``finish_forgetting``)."""
    if not gone:
        return
    with db.session() as session:
        noted = dict(read_value(session, BACKUPS_TO_FORGET) or {})
        noted.update({str(i): _digest(text) for i, text in gone.items()})
        write_value(session, BACKUPS_TO_FORGET, noted)


def finish_forgetting(db: Database, now: datetime) -> list[Path]:
    """After a forget, and at every start (a kill after its commit): the noted messages
    that are gone from the history leave the backups (``forget_in_backups``); one still
    there (the forget never committed) is not taken out. The note is cleared."""
    with db.session() as session:
        noted = {int(i): str(d) for i, d in
                 (read_value(session, BACKUPS_TO_FORGET) or {}).items()}
        if not noted:
            return []
        kept = {m.id: _digest(m.text) for m in messages_by_ids(session, list(noted))}
    rewritten = forget_in_backups(
        db.home, {i: d for i, d in noted.items() if kept.get(i) != d}, now)
    with db.session() as session:
        write_value(session, BACKUPS_TO_FORGET, None)
    return rewritten


def forget_in_backups(home: Path, gone: dict[int, str], now: datetime) -> list[Path]:
    """Forgetting reaches MONET's own backups (issue 41): every archive in the data
    folder's ``backups/`` that holds one of the forgotten messages (``gone``: by id, the
    SHA-256 of its text; the same id and the same text: an archive made before ids were
    never reused may give an id to another message) is rewritten as if the message had
    been forgotten there too: the same ``cms.memory.forget`` runs on its extracted copy
    (the message, its search entries, the Timeline Index lines re-summarized without it,
    the memories drawn from it, the context summary, its files), a new manifest is
    written, the new archive is read back and checked like a restore, and only then
    replaces the old one. An archive that cannot be read is left as it is and named in
    the log. Backups the person keeps elsewhere are theirs: MONET does not look for them
    (README). Returns the archives rewritten."""
    import logging

    from cms.clock import ManualClock
    from cms.memory import forget
    from monet_app.services.wiring import build_core, no_model

    folder = home / BACKUP_FOLDER
    if not gone or not folder.is_dir():
        return []
    rewritten: list[Path] = []
    for archive in sorted(folder.glob("*.zip")):
        with tempfile.TemporaryDirectory(dir=folder, prefix=".monet-forget-") as tmp:
            extracted = Path(tmp) / "home"
            extracted.mkdir()
            try:
                manifest = _read_archive(archive, extracted)
            except BackupError as exc:
                logging.getLogger(__name__).warning("left %s as it is: %s", archive, exc)
                continue
            held = [i for i, text in sqlite_file.texts_of(
                extracted / DB_FILENAME, sorted(gone)).items() if gone.get(i) == _digest(text)]
            if not held:
                continue
            copy = build_core(extracted, clock=ManualClock(now), summarizer="offline",
                              model_factory=no_model, database_url="")
            try:
                forget.delete_messages(copy.db, held, now)
                copy.context.render_forgotten()  # no copy of it left in the prompt state
            finally:
                copy.close()
            _rezip(archive, extracted, manifest, Path(tmp) / "new.zip")
            (Path(tmp) / "check").mkdir()
            _read_archive(Path(tmp) / "new.zip", Path(tmp) / "check")  # as a restore would
            os.replace(Path(tmp) / "new.zip", archive)
            rewritten.append(archive)
    return rewritten


def _rezip(archive: Path, extracted: Path, manifest: dict[str, object], out: Path) -> None:
    """The extracted backup, changed, as an archive again: its database in one file, its
    text files and the attached files it still names, a manifest with their hashes."""
    sqlite_file.one_file(extracted / DB_FILENAME, compact=True)  # no deleted byte left
    verdict, revision, messages = sqlite_file.integrity(extracted / DB_FILENAME)
    if verdict != "ok":
        raise BackupError("{archive} could not be rewritten without the forgotten messages "
                          "({verdict}); it was left as it was.", archive=archive, verdict=verdict)
    files = {DB_FILENAME: extracted / DB_FILENAME}
    for sha in _attachments_named(extracted / DB_FILENAME):
        if (extracted / ATTACHMENTS / sha).is_file():
            files[f"{ATTACHMENTS}/{sha}"] = extracted / ATTACHMENTS / sha
    for name in TEXT_FILES:
        if (extracted / name).is_file():
            files[name] = extracted / name
    manifest = {**manifest, "schema_revision": revision, "messages": messages,
                "files": {name: _sha256(path) for name, path in files.items()}}
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as written:
        for name, path in files.items():
            written.write(path, name)
        written.writestr(MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False))
