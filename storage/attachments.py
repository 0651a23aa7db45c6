"""Attached files in the data folder, by content (migration 0019); on a server, in the
history too.

Each file is ``attachments/<sha256>`` under the data folder, written once (a second copy
of the same bytes is the same file) and atomically (a temporary name, then a rename), so
a crash leaves either the whole file or none. The ``attachment`` rows say which message
holds which file; a file no row names any more is removed by ``sweep``, which deleting
and forgetting call once their transaction is done (the rows go with the message, by
trigger). Files are written before the message's transaction: a failed transaction
leaves only files that the next ``sweep`` removes. ``purge_backups`` then takes the
removed files out of the backups kept in the data folder: a forgotten picture leaves no
byte of itself anywhere there.

A history on a PostgreSQL server (issue 31) is shared by devices with a data folder
each, so there the bytes are in the history as well: ``attachment_blob`` (by SHA-256,
written in the message's transaction: ``keep_on_server``), and each device's folder is a
cache of them, filled by ``fetch_missing`` (before a request names a file, and when the
window sees another device's writes) and emptied by ``sweep`` of what the history no
longer names, so a forgotten file leaves every device that looks.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from sqlalchemy import text as sql
from sqlmodel import Session

from storage.errors import AttachmentError
from storage.models import Attachment
from storage.rows import Db
from storage.rows import connection_of as _c

FOLDER = "attachments"
#: The backups MONET keeps in the data folder (``monet_app/services/backup.py``): zips
#: that carry the attached files as ``attachments/<sha256>`` beside ``manifest.json``.
BACKUPS = "backups"
MANIFEST = "manifest.json"
SHA = re.compile(r"[0-9a-f]{64}")


#: A file in a tool's stored result (``view_attachment``): a reference the prompt turns
#: into the file's block when it builds a request, so no file's bytes are ever written
#: into the database, and a forgotten file leaves with its row.
REF = "monet_attachment"


class Attached(NamedTuple):
    """What the prompt needs of one attachment: where its sent bytes are, and how to
    present them (hashable: the blocks built from it are remembered)."""

    home: str
    media_type: str  # of what is sent
    sha256: str  # of what is sent
    name: str


def folder(home: Path) -> Path:
    return home / FOLDER


def path_of(home: Path, sha256: str) -> Path:
    return folder(home) / sha256


def _ids(message_ids: Sequence[int]) -> dict[str, object]:
    """Message ids as the one parameter the queries read (``IN_IDS``): JSON that SQLite
    reads with ``json_each``, or a list PostgreSQL binds as an array."""
    return {"ids": json.dumps([int(i) for i in message_ids])}


#: The condition "in the ids given" (``_ids``), spelt for SQLite; ``_in`` respells it.
IN_IDS = "IN (SELECT value FROM json_each(:ids))"


def _on_server(db: Db) -> bool:
    return bool(_c(db).dialect.name != "sqlite")


def _in(db: Db, statement: str, ids: dict[str, object]) -> tuple[str, dict[str, object]]:
    """``statement`` and its ids for the server ``db`` talks to."""
    if not _on_server(db):
        return statement, ids
    return (statement.replace(IN_IDS, "= ANY(:ids)"),
            {**ids, "ids": json.loads(str(ids["ids"]))})


#: How many files' bytes one query brings (each may be megabytes).
FETCH_BATCH = 16

_NAMED = "SELECT sha256 FROM attachment UNION SELECT sent_sha256 FROM attachment"


def keep_on_server(db: Db, files: Mapping[str, bytes]) -> None:
    """On a server, the bytes of ``files`` ({sha256: bytes}) into the history, once (in
    the transaction of the rows that name them); nothing on SQLite."""
    if not files or not _on_server(db):
        return
    for sha, data in files.items():
        _c(db).execute(sql(
            "INSERT INTO attachment_blob (sha256, data) VALUES (:sha, :data) "
            "ON CONFLICT (sha256) DO NOTHING"), {"sha": sha, "data": data})


def upload_folder(db: Db, home: Path) -> int:
    """On a server, every file the history names that ``home``'s folder holds, into the
    history (a copy or a restore onto a server); returns how many were sent."""
    if not _on_server(db):
        return 0
    named = {sha for (sha,) in _c(db).execute(sql(_NAMED))}
    held = [sha for sha in sorted(named) if path_of(home, sha).is_file()]
    for start in range(0, len(held), FETCH_BATCH):  # a few at a time: pictures are big
        keep_on_server(db, {sha: read(home, sha) for sha in held[start:start + FETCH_BATCH]})
    return len(held)


def fetch_missing(db: Db, home: Path) -> int:
    """On a server, the files the history names that ``home``'s folder lacks, fetched
    into it; returns how many. Nothing on SQLite."""
    if not _on_server(db):
        return 0
    return _fetch(db, home, {sha for (sha,) in _c(db).execute(sql(_NAMED))})


def _fetch(db: Db, home: Path, named: set[str]) -> int:
    """Those of ``named`` that ``home``'s folder lacks, from the server's history."""
    missing = sorted(sha for sha in named if not path_of(home, sha).is_file())
    fetched = 0
    for start in range(0, len(missing), FETCH_BATCH):  # a few at a time: pictures are big
        for _sha, data in _c(db).execute(sql(
                "SELECT sha256, data FROM attachment_blob WHERE sha256 = ANY(:shas)"),
                {"shas": missing[start:start + FETCH_BATCH]}):
            put(home, bytes(data))
            fetched += 1
    return fetched


def put(home: Path, data: bytes) -> str:
    """Store ``data`` under its SHA-256 (once); returns the hash."""
    digest = hashlib.sha256(data).hexdigest()
    target = path_of(home, digest)
    if target.is_file() and target.stat().st_size == len(data) and holds(target, digest):
        return digest  # (a file of other bytes under this name is replaced: issue 41)
    target.parent.mkdir(parents=True, exist_ok=True)
    part = target.with_name(f".{digest}.{os.getpid()}.part")
    with open(part, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(part, target)
    return digest


def holds(path: Path, sha256: str) -> bool:
    """Whether the file at ``path`` holds the bytes its name says (their SHA-256)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest() == sha256


def read(home: Path, sha256: str) -> bytes:
    """The bytes stored under ``sha256``, checked against their name: a file replaced by
    other bytes (by hand, a lying backup) is never sent, exported or shown as the one
    the history names."""
    data = path_of(home, sha256).read_bytes()
    if hashlib.sha256(data).hexdigest() != sha256:
        raise AttachmentError(
            "The attached file {folder}/{short}… in {home} holds other bytes than the ones that "
            "were attached (it was changed or replaced); it is not used.", folder=FOLDER,
            short=sha256[:12], home=home, code="damaged")
    return data


def insert(db: Db, message_id: int, position: int, name: str, media_type: str,
           size: int, sha256: str, sent_media_type: str, sent_sha256: str, *,
           width: int = 0, height: int = 0, pages: int = 0, tokens: int = 0) -> None:
    """One attachment row (in the message's transaction)."""
    _c(db).execute(sql(
        "INSERT INTO attachment (message_id, position, name, media_type, size, sha256, "
        "sent_media_type, sent_sha256, width, height, pages, tokens) VALUES (:message_id, "
        ":position, :name, :media_type, :size, :sha256, :sent_media_type, :sent_sha256, "
        ":width, :height, :pages, :tokens)"),
        {"message_id": message_id, "position": position, "name": name,
         "media_type": media_type, "size": size, "sha256": sha256,
         "sent_media_type": sent_media_type, "sent_sha256": sent_sha256, "width": width,
         "height": height, "pages": pages, "tokens": tokens})


def refs_in(home: Path, content_json: str | None) -> tuple[Attached, ...]:
    """The files a tool row's stored result refers to, in order."""
    if not content_json or REF not in content_json:
        return ()
    found: list[Attached] = []
    for result in json.loads(content_json).get("result", []):
        content = result.get("content") if isinstance(result, dict) else None
        for block in content if isinstance(content, list) else []:
            if isinstance(block, dict) and block.get("type") == REF:
                found.append(Attached(str(home), str(block.get("media_type", "")),
                                      str(block.get("sha256", "")), str(block.get("name", ""))))
    return tuple(found)


def of_messages(db: Db, home: Path, message_ids: Sequence[int]
                ) -> Mapping[int, tuple[Attached, ...]]:
    """{message id: its attachments as sent, in order} for those that have any (on a
    server, their files fetched into ``home`` first if another device attached them)."""
    if not message_ids:
        return {}
    statement, ids = _in(db, "SELECT message_id, sent_media_type, sent_sha256, name, sha256 "
                         f"FROM attachment WHERE message_id {IN_IDS} "
                         "ORDER BY message_id, position", _ids(message_ids))
    rows = _c(db).execute(sql(statement), ids).all()
    if rows and _on_server(db):  # (from the rows read here: no second query a turn)
        _fetch(db, home, {sha for row in rows for sha in (row[2], row[4])})
    found: dict[int, list[Attached]] = {}
    for message_id, media_type, sha, name, _original in rows:
        found.setdefault(int(message_id), []).append(Attached(str(home), media_type, sha, name))
    return {k: tuple(v) for k, v in found.items()}


def described(db: Db, message_ids: Sequence[int]) -> str:
    """What the files of these messages were, for the Timeline Index line that folds
    them (" [files: menu.png (picture, 240 KB), school.pdf (PDF, 2 pages, 1.2 MB)]"; "" when
    none): Claude
    reads which files the day held and can look at one again by its name
    (``view_attachment``)."""
    if not message_ids:
        return ""
    statement, ids = _in(db, "SELECT name, media_type, pages, size FROM attachment "
                         f"WHERE message_id {IN_IDS} ORDER BY message_id, position",
                         _ids(message_ids))
    rows = _c(db).execute(sql(statement), ids).all()
    if not rows:
        return ""
    kinds = []
    for name, media_type, pages, size in rows:
        kind = ("picture" if str(media_type).startswith("image/")
                else f"PDF, {pages} pages" if media_type == "application/pdf" else "text")
        kinds.append(f"{name} ({kind}, {_size(int(size))})")
    return " [files: " + ", ".join(kinds) + "]"


def _size(size: int) -> str:
    return f"{size / 1_048_576:.1f} MB" if size >= 1_048_576 else f"{max(1, size // 1024)} KB"


def messages_named(db: Db, query: str, limit: int) -> list[int]:
    """The messages holding a file whose name contains ``query`` (any case), newest
    first: the person's search finds a picture by its name."""
    wanted = query.strip().casefold()
    if not wanted:
        return []
    rows = _c(db).execute(sql(
        "SELECT message_id, name FROM attachment ORDER BY message_id DESC")).all()
    found: list[int] = []
    for message_id, name in rows:
        if wanted in str(name).casefold() and int(message_id) not in found:
            found.append(int(message_id))
            if len(found) >= limit:
                break
    return found


def files_seen(db: Db, day: str | None, before_id: int | None
               ) -> list[tuple[str, str, str, str, str]]:
    """(name, sent media type, sent SHA-256, day, time) of every file attached to a
    message Claude still sees (of ``day``; before message ``before_id``), newest first."""
    where = ["NOT m.hidden"]
    if before_id is not None:
        where.append("m.id < :before")
    if day is not None:
        where.append("m.day = :day")
    return [(str(a), str(b), str(c), str(d), str(e)) for a, b, c, d, e in _c(db).execute(sql(
        "SELECT a.name, a.sent_media_type, a.sent_sha256, m.day, m.ts FROM attachment a "
        f"JOIN message m ON m.id = a.message_id WHERE {' AND '.join(where)} "
        "ORDER BY m.id DESC, a.position"), {"before": before_id, "day": day})]


def messages_with_files(db: Db, day: str | None = None) -> list[int]:
    """The messages (of ``day``) that hold an attached file."""
    return [int(row[0]) for row in _c(db).execute(sql(
        "SELECT DISTINCT a.message_id FROM attachment a JOIN message m "
        "ON m.id = a.message_id WHERE :day IS NULL OR m.day = :day"), {"day": day})]


def rows_of(db: Session, message_ids: Sequence[int]) -> dict[int, list[Attachment]]:
    """{message id: its attachment rows, in order} (export, the window)."""
    from sqlmodel import col, select

    if not message_ids:
        return {}
    found: dict[int, list[Attachment]] = {}
    for row in db.exec(select(Attachment)
                       .where(col(Attachment.message_id).in_(list(message_ids)))
                       .order_by(col(Attachment.message_id), col(Attachment.position))):
        found.setdefault(row.message_id, []).append(row)
    return found


def forget(db: Db, message_ids: Sequence[int]) -> None:
    """The forgotten messages' attachment rows and reply versions go (in the forget's
    transaction; ``sweep`` removes the files once it is done)."""
    if not message_ids:
        return
    for table, column in (("attachment", "message_id"), ("reply_version", "user_message_id")):
        statement, ids = _in(db, f"DELETE FROM {table} WHERE {column} {IN_IDS}",
                             _ids(message_ids))
        _c(db).execute(sql(statement), ids)


def sweep(db: Db, home: Path) -> int:
    """Remove the files no attachment row names (after a delete or a forget, and any a
    failed send left; on a server, from the history too); returns how many went from the
    folder."""
    sweep_history(db)
    return sweep_folder(db, home)


def sweep_history(db: Db) -> None:
    """On a server, the stored files no attachment row names leave the history (in the
    caller's transaction: a forget's); on a SQLite file the files live in the folder
    only (``sweep_folder``, after the commit)."""
    if _on_server(db):
        _c(db).execute(sql(
            f"DELETE FROM attachment_blob WHERE sha256 NOT IN ({_NAMED})"))


def sweep_folder(db: Db, home: Path) -> int:
    """``sweep`` of ``home``'s folder alone: the files the history no longer names (on a
    server: forgotten on another device) leave this device's cache."""
    where = folder(home)
    if not where.is_dir():
        return 0
    named = {sha for row in _c(db).execute(sql(_NAMED)) for sha in row}
    gone = 0
    for path in where.iterdir():
        if path.name not in named:
            path.unlink(missing_ok=True)
            gone += 1
    return gone


def purge_backups(home: Path) -> int:
    """Take out of every backup in the data folder the attached files the home no longer
    holds (forgotten or deleted): each archive is rewritten without them (and its
    manifest without their lines), whole or not at all. Returns how many archives
    changed. Restoring such a backup finds those messages without their files."""
    where = home / BACKUPS
    if not where.is_dir():
        return 0
    changed = 0
    for archive in sorted(where.glob("*.zip")):
        partial = archive.with_name(archive.name + ".partial")
        try:
            with zipfile.ZipFile(archive) as opened:
                gone = {n for n in opened.namelist() if n.startswith(f"{FOLDER}/")
                        and not (home / n).is_file()}
                if not gone:
                    continue
                manifest = json.loads(opened.read(MANIFEST))
                for name in gone:
                    manifest.get("files", {}).pop(name, None)
                with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as out:
                    for info in opened.infolist():
                        if info.filename in gone:
                            continue
                        data = (json.dumps(manifest, indent=2, ensure_ascii=False).encode()
                                if info.filename == MANIFEST else opened.read(info.filename))
                        out.writestr(info, data)
            os.replace(partial, archive)
            changed += 1
        except (zipfile.BadZipFile, OSError, ValueError, KeyError):
            partial.unlink(missing_ok=True)  # not a backup it can read: left as it is
    return changed
