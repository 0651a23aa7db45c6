"""``monet migrate-to``: a history copied to another store (issue 31, docs/postgresql.md).

A SQLite data folder's history goes into an empty PostgreSQL database, or a server's
history back into a new data folder; the source is only read. The copy is checked table
by table (rows and a SHA-256 of them, ``storage/copy.py``) before it is reported done.
The core text goes with it (a file in a data folder, the history's own row on a server),
and so do the attached files when the target is a data folder. With ``switch``, this
device's ``device.json`` then names the new store, so MONET opens it from now on; a
password in the server's URL goes into the OS keyring (``storage/server_password.py``),
never into ``device.json``.

A target that is neither a ``postgresql://`` URL nor a folder, a server URL without a
database, or a file where the folder would be, is refused in one sentence before anything
is opened; a copy that fails leaves nothing behind it (the working folder ``.migrate-to``,
a new data folder it made).
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from cms.context.core_prompt import CORE_KEY, core_path, read_core
from monet_app.operations.changes import Done
from monet_app.services.keys import keyring_available
from storage import Database
from storage import attachments as attachment_files
from storage.copy import CopyReport, copy_checked
from storage.errors import DatabaseError, InputError, KeyStoreError
from storage.files import write_text_atomic
from storage.server_password import store_password
from storage.settings import write_value
from storage.where import redact_url, server_url_parts, write_device


@dataclass(frozen=True)
class Moved:
    report: CopyReport
    target: str  # the server (without its password) or the folder
    files: int  # attached files copied


#: What a PostgreSQL server's URL starts with (``storage/where.py`` reads the same).
SERVER_SCHEMES = ("postgresql://", "postgres://", "postgresql+psycopg://")
#: ``scheme:`` at the start of a target: a URL (two letters or more: ``C:`` is a drive).
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+:")


def migrate_to(home: Path, target: str, *, switch: bool = False) -> Done[Moved]:
    """Copy the history of ``home`` (where it is now) to ``target``: a ``postgresql://``
    URL (an empty database) or a folder (a new data folder, its history a SQLite file)."""
    server = target.startswith(SERVER_SCHEMES)
    folder = None if server else _checked_folder(home, target, switch=switch)
    device_url = _checked_server(target, switch=switch) if server else ""
    source = Database(home)
    made = _first_missing(folder) if folder is not None else None
    work = home / ".migrate-to"
    done = False
    try:
        if server and source.url in (target, device_url):
            raise DatabaseError("The history is already on that server; nothing was copied.")
        destination = (Database(work, url=target) if folder is None
                       else Database(folder, url=""))
        try:
            report = copy_checked(source, destination)
            core = read_core(source)
            if core:  # (after the check: on a server it is one more setting row)
                if destination.server:
                    with destination.session() as session:
                        write_value(session, CORE_KEY, core)
                else:
                    write_text_atomic(core_path(destination.home), core)
            files = 0
            if not destination.server:
                files = _copy_files(home, destination.home)
            where = destination.where
        finally:
            destination.close()
        done = True
    finally:
        source.close()
        if server:  # (a lock file or two of this device's, whatever happened)
            shutil.rmtree(work, ignore_errors=True)
        if not done and made is not None:  # a new data folder that did not fill
            shutil.rmtree(made, ignore_errors=True)
    if switch:
        if device_url != target:  # the password, from the URL into the keyring
            _keep_password(target, where, device_url)
        write_device(home, "database_url", device_url)
    return Done(Moved(report, where, files))


def _checked_folder(home: Path, target: str, *, switch: bool) -> Path:
    """The folder ``target`` names, or a sentence: it is not a URL of another kind, not
    a file, and (with ``switch``) this data folder itself."""
    if not target.strip():
        raise InputError("migrate-to needs a target: postgresql://user@host:5432/db or a "
                         "folder; nothing was copied.")
    if _SCHEME.match(target):
        raise InputError(
            "MONET moves a history only to a PostgreSQL server (postgresql://user@host:5432/"
            "db) or to a folder, and {target} is neither (a folder whose name "
            "has a colon: start it with ./); nothing was copied.", target=_shown(target))
    folder = Path(target).expanduser()
    above = _first_missing(folder)
    there = folder if above is None else above.parent
    if not there.is_dir():
        raise InputError("{there} is a file, not a folder; migrate-to copies the history "
                         "into a folder (a new data folder). Nothing was copied.", there=there)
    if switch and folder.resolve() != home.resolve():
        raise InputError(
            "--switch with a folder works only when the folder is this data folder (--home); "
            "the copy in {folder} is its own data folder (open it with --home {folder}). "
            "Nothing was copied.", folder=folder)
    return folder


def _checked_server(target: str, *, switch: bool) -> str:
    """``target`` as ``device.json`` may hold it (without its password), or a sentence:
    a URL MONET cannot reach a database by, or a password with no keyring to keep it."""
    shown = _shown(target)
    try:
        parts = server_url_parts(target)
    except ValueError:  # (a port that is not a number, say)
        raise InputError("{shown} is not a database URL MONET can read (postgresql://user@"
                         "host:5432/db); nothing was copied.", shown=shown) from None
    if not parts.database or not parts.host:
        raise InputError("{shown} names no server or no database; give both, as in "
                         "postgresql://user@host:5432/monet. Nothing was copied.", shown=shown)
    if parts.password is None:
        return target
    if switch and parts.password and not keyring_available():
        raise KeyStoreError(
            "No OS keyring is available here to keep the password of {shown}, and MONET "
            "never writes it into device.json: put it in ~/.pgpass (host:port:database:"
            "user:password, mode 0600), or with `monet server-password` where a keyring "
            "exists, and give the URL without it. Nothing was copied.", shown=shown)
    return parts.without_password


def _shown(target: str) -> str:
    """``target`` as a sentence may show it: without its password."""
    try:
        return redact_url(target)
    except ValueError:  # (a port that is not a number, say)
        scheme, _, rest = target.partition("://")
        return f"{scheme}://{rest.rpartition('@')[2]}"


def _keep_password(target: str, where: str, device_url: str) -> None:
    """The URL's password into the OS keyring, under the account the device's URL (the
    same without it) is read by (``Database._open_server``)."""
    password = server_url_parts(target).password
    if not password:  # an empty one: nothing to keep (libpq's ~/.pgpass, if any)
        return
    try:
        store_password(device_url, password)
    except KeyStoreError as exc:
        raise KeyStoreError(
            "The history was copied to {where} and checked, but this device was not "
            "switched to it: {exc} Keep the password with `monet server-password "
            "--database-url {device_url}` or in ~/.pgpass, then name {device_url} in "
            "device.json.", where=where, exc=exc, device_url=device_url) from None


def _first_missing(path: Path) -> Path | None:
    """The outermost folder of ``path`` that is not there yet (what making it creates),
    or None when ``path`` is there."""
    missing = None
    for each in (path, *path.parents):
        if each.exists() or each.is_symlink():
            return missing
        missing = each
    return missing


def _copy_files(home: Path, into: Path) -> int:
    """The attached files the history names, into the new data folder."""
    source = attachment_files.folder(home)
    if not source.is_dir():
        return 0
    target = attachment_files.folder(into)
    target.mkdir(parents=True, exist_ok=True)
    copied = 0
    for path in source.iterdir():
        if attachment_files.SHA.fullmatch(path.name):
            shutil.copyfile(path, target / path.name)
            copied += 1
    return copied


#: The sentence a login refused by the server is said with (``storage/database.py``).
LOGIN_REFUSED = "The database server {where} refused the login."


@dataclass(frozen=True)
class Joined:
    where: str  # the server, without its password
    revision: str | None  # the history's schema there (None: none made yet)
    password_kept: bool  # a password went into the OS keyring


def join(home: Path, target: str, password: str | None = None) -> Done[Joined]:
    """``monet join``: this device's data folder names the shared history at ``target``
    from now on (``device.json``, without a password; the password, from the URL or
    ``password``, into the OS keyring). The login is tried and the database checked
    first (a MONET history, or a database ready for one); nothing is made there, and a
    data folder that holds a history of its own is left as it is."""
    from storage.database import HEAD_REVISION, server_facts
    from storage.server_check import refusal

    if not target.startswith(SERVER_SCHEMES):
        raise InputError("MONET joins a history on a PostgreSQL server (postgresql://user@"
                         "host:5432/monet); {target} is not one. Nothing was changed.",
                         target=_shown(target))
    device_url = _checked_server(target, switch=True)
    where = redact_url(device_url)
    if (home / "monet.db").exists():
        raise InputError(
            "{home} holds a history of its own; joining would hide it. Join from a new data "
            "folder (--home NEW), or move this history to the server with monet migrate-to "
            "URL --switch. Nothing was changed.", home=home)
    secret = server_url_parts(target).password or password
    found = server_facts(device_url, password=secret)
    if found.monet_revision is None:
        problem = refusal(found, where)
        if problem is not None:
            raise problem
    elif found.monet_revision > HEAD_REVISION:
        raise DatabaseError(
            "The history at {where} was written by a newer MONET (schema {current}). Update "
            "MONET on this device, then join; nothing was changed.", where=where,
            current=found.monet_revision)
    kept = bool(secret)
    if secret:
        store_password(device_url, secret)
    write_device(home, "database_url", device_url)
    return Done(Joined(where, found.monet_revision, kept))
