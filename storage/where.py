"""Where the history is: the SQLite file in the data folder, or a PostgreSQL server's URL
(issue 31, docs/postgresql.md). Standard library only, so that the command line can ask
before it loads the database's libraries."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from storage.errors import DatabaseError
from storage.private import keep_private

#: The history's server, when it is not the SQLite file in the data folder.
URL_ENV = "MONET_DATABASE_URL"
#: What belongs to this device only (``database_url``); JSON, in the data folder.
DEVICE_FILE = "device.json"


def database_url(home: Path, url: str | None = None) -> str | None:
    """The history's server: ``url`` (the ``--database-url`` option), else
    ``$MONET_DATABASE_URL``, else ``database_url`` in the data folder's ``device.json``;
    None (or "", or a ``sqlite:`` URL) for the SQLite file in the data folder."""
    if url is None:
        url = os.environ.get(URL_ENV)
    if url is None:
        found = read_device(home).get("database_url")
        url = found if isinstance(found, str) else None
    if not url or url.startswith("sqlite:"):
        return None
    if not url.startswith(("postgresql://", "postgres://", "postgresql+psycopg://")):
        raise DatabaseError(
            "MONET keeps its history in a SQLite file or on a PostgreSQL server; "
            "{url} is neither (postgresql://user@host:5432/monet).", url=redact_url(url))
    return url


def redact_url(url: str) -> str:
    """``url`` without its password: what a log, an error or the window may show."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url.split("@")[-1] if "@" in url else url


@dataclass(frozen=True)
class ServerURL:
    """The parts of a server's URL MONET checks before it uses one."""

    database: str
    host: str  # "" when the URL names none (not even as ``?host=``)
    password: str | None  # None when the URL carries none
    without_password: str  # the same URL with no password in it (what device.json keeps)


def server_url_parts(url: str) -> ServerURL:
    """``url``'s parts; ``ValueError`` when it is not a URL (a port not a number, say)."""
    from sqlalchemy.engine import URL, make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parts = make_url(url)
        port = parts.port
    except ArgumentError as exc:
        raise ValueError(str(exc)) from None
    host = parts.host or parts.query.get("host") or ""
    bare = URL.create(parts.drivername, parts.username, None, parts.host, port,
                      parts.database, parts.query).render_as_string(hide_password=False)
    return ServerURL(parts.database or "", str(host), parts.password, bare)


def read_device(home: Path) -> dict[str, object]:
    """This device's own values (``device.json`` in the data folder): the history's URL,
    the window's size and place, the unsent drafts. {} when none or unreadable."""
    try:
        found = json.loads((home / DEVICE_FILE).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def write_device(home: Path, key: str, value: object) -> None:
    """Set (or, with None, remove) one of this device's values; the file is replaced
    whole, atomically, so a crash leaves the old file or the new one."""
    values = read_device(home)
    if value is None:
        if key not in values:
            return
        values.pop(key)
    else:
        values[key] = value
    keep_private()
    home.mkdir(parents=True, exist_ok=True)
    part = home / f".{DEVICE_FILE}.{os.getpid()}.part"
    part.write_text(json.dumps(values, ensure_ascii=False, indent=1), "utf-8")
    os.replace(part, home / DEVICE_FILE)
