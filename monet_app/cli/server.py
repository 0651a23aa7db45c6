"""The history server from the command line (issue 43).

``monet check-server [URL]``: every check MONET makes of a PostgreSQL database, against a
URL (or this device's, from ``--database-url`` or device.json), changing nothing there or
here: the login, TLS, the history's schema or another program's tables, the right to
create tables, the encoding and character type, ``pg_trgm`` (``storage/server_check.py``).
Exit 0 when MONET can keep a history there, 2 when something must change first.

``monet join URL``: this device uses the shared history there (``moving.join``); the
password is asked for (without echo) only when the server refuses the login without one,
and it is never printed."""

from __future__ import annotations

import getpass
import sys
from pathlib import Path

from storage.errors import UserFacingError

MARKS = {"ok": "ok  ", "fix": "FIX ", "note": "note"}


def check_server(home: Path, target: str | None) -> int:
    from storage.database import check_server as checked
    from storage.where import database_url, redact_url, server_url_parts

    try:
        url = target or database_url(home)
    except UserFacingError as exc:
        print(f"monet: {exc}", file=sys.stderr)
        return 2
    if not url:
        print("monet: give the server's URL (monet check-server postgresql://user@host/monet), "
              "or --database-url; this device's history is the SQLite file in its data "
              "folder.", file=sys.stderr)
        return 2
    try:
        parts = server_url_parts(url)
    except ValueError:
        parts = None
    if parts is None or not url.startswith(("postgresql://", "postgres://")) \
            or not parts.database:
        print("monet: that is not a PostgreSQL URL MONET can read (postgresql://user@host:"
              "5432/monet); nothing was checked.", file=sys.stderr)
        return 2
    print(f"checking {redact_url(url)}")
    try:
        found = checked(url)
    except UserFacingError as exc:
        print(f"FIX  {exc}")
        return 2
    for finding in found:
        mark = "ok" if finding.ok else ("note" if finding.advice else "fix")
        print(f"{MARKS[mark]} {finding.text}")
    ready = all(f.ok or f.advice for f in found)
    print("MONET can keep a history here." if ready else
          "Fix the lines marked FIX, then check again; nothing was changed.")
    return 0 if ready else 2


def join(home: Path, target: str, *, password_stdin: bool) -> int:
    from monet_app.operations import moving
    from storage.errors import DatabaseError
    from storage.where import redact_url

    password = sys.stdin.readline().rstrip("\r\n") if password_stdin else None
    try:
        joined = moving.join(home, target, password).value
    except DatabaseError as exc:
        if not (exc.template.startswith(moving.LOGIN_REFUSED) and password is None
                and sys.stdin.isatty()):
            raise
        asked = getpass.getpass(f"password for {redact_url(target)}: ")
        joined = moving.join(home, target, asked).value
    state = (f"its history is at schema {joined.revision}" if joined.revision else
             "no history there yet: MONET makes it when this device first opens it")
    print(f"this device ({home}) now uses the shared history on {joined.where}; {state}"
          f"{'; the password is in the OS keyring' if joined.password_kept else ''}")
    return 0
