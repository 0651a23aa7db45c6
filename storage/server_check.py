"""What a PostgreSQL database must offer before MONET makes its history there, checked in
words (issue 43): the login's right to create tables, a UTF-8 database with a UTF-8
character type (the search folds and indexes Japanese by it), no other program's tables,
and, as advice, ``pg_trgm`` and TLS.

``refusal`` is asked by ``Database`` under the migration lock before the first revision
runs on a database that holds no MONET history: anything that would stop the chain
half-way, or mix MONET's tables with another program's, is refused there, in a sentence
saying what to change and where, and nothing is written. ``findings`` answers every
check, for ``monet check-server`` (``storage.database.check_server``).

Decided: MONET keeps its tables in the database's own schema (``public``, or the first
of the login's ``search_path``) and refuses a database that already holds tables it did
not make, rather than making a schema of its own inside another program's database: a
history is a person's diary, and a database of its own is what the set-up in
docs/postgresql.md makes.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session

from storage.errors import DatabaseError

#: How many of another program's tables a sentence names.
SHOWN_TABLES = 5


@dataclass(frozen=True)
class Facts:
    """What the server says about this login and this database, in one round trip."""

    user: str
    database: str
    owner: str
    schema: str | None  # the schema new tables would go in (None: no usable one)
    may_create: bool  # CREATE on that schema
    may_create_extension: bool  # CREATE on the database (a trusted extension)
    encoding: str
    ctype: str
    version: str
    trgm_available: bool
    trgm_installed: bool
    tls: bool
    tables: tuple[str, ...]  # the tables of ``schema``
    monet_revision: str | None  # alembic_version's, when MONET made the tables


_FACTS = """
SELECT current_user, current_database(), pg_get_userbyid(d.datdba), current_schema(),
       coalesce(has_schema_privilege(current_schema(), 'CREATE'), false),
       has_database_privilege(current_database(), 'CREATE'),
       pg_encoding_to_char(d.encoding), d.datctype, current_setting('server_version'),
       EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm'),
       EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'),
       coalesce((SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()), false),
       coalesce((SELECT array_agg(tablename::text ORDER BY tablename) FROM pg_tables
                 WHERE schemaname = current_schema()), '{}'),
       to_regclass('alembic_version') IS NOT NULL
FROM pg_database d WHERE d.datname = current_database()
"""


def facts(session: Session) -> Facts:
    """What the server says, read in the session's transaction."""
    conn = session.connection()
    row = conn.exec_driver_sql(_FACTS).one()
    revision = (conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
                if row[13] else None)
    return Facts(user=str(row[0]), database=str(row[1]), owner=str(row[2]),
                 schema=row[3], may_create=bool(row[4]), may_create_extension=bool(row[5]),
                 encoding=str(row[6]), ctype=str(row[7]), version=str(row[8]),
                 trgm_available=bool(row[9]), trgm_installed=bool(row[10]), tls=bool(row[11]),
                 tables=tuple(str(t) for t in row[12]),
                 monet_revision=None if revision is None else str(revision))


def utf8_ctype(ctype: str) -> bool:
    """A character type that classifies Japanese and folds accented letters: a UTF-8
    locale (``C.UTF-8``, ``en_US.utf8``, ``ja_JP.UTF-8``), not ``C`` or ``POSIX``."""
    return "utf8" in ctype.lower().replace("-", "")


def refusal(found: Facts, where: str) -> DatabaseError | None:
    """Why MONET must not make its history in this database, or None. Asked only when
    the database holds no MONET history yet."""
    if found.tables:
        shown = ", ".join(found.tables[:SHOWN_TABLES])
        more = len(found.tables) - SHOWN_TABLES
        return DatabaseError(
            "The database {database} on {where} already holds tables MONET did not make "
            "({tables}{more}): it belongs to another program. MONET keeps a history in a "
            "database of its own; create one (createdb -O {user} monet, see "
            "docs/postgresql.md) and give its URL. Nothing was changed.",
            database=found.database, where=where, tables=shown,
            more=f" and {more} more" if more > 0 else "", user=found.user)
    if found.schema is None or not found.may_create:
        return DatabaseError(
            "The user {user} may not create tables in the database {database} on {where} "
            "(PostgreSQL 15 and later let only the database's owner, now {owner}, do that). "
            "As the server's administrator, run ALTER DATABASE {database} OWNER TO {user}; "
            "or, in that database, GRANT CREATE ON SCHEMA public TO {user}; then try again. "
            "Nothing was changed.",
            user=found.user, database=found.database, where=where, owner=found.owner)
    if found.encoding != "UTF8":
        return DatabaseError(
            "MONET needs a UTF-8 database (this one is {encoding}): CREATE DATABASE monet "
            "ENCODING 'UTF8' TEMPLATE template0; nothing was changed.", encoding=found.encoding)
    if not utf8_ctype(found.ctype):
        return DatabaseError(
            "The database {database} on {where} sorts and classifies text by the {ctype} "
            "locale, in which MONET's search cannot find Japanese words nor fold accented "
            "letters. Create it with a UTF-8 locale: CREATE DATABASE {database} OWNER {user} "
            "ENCODING 'UTF8' LC_COLLATE 'C.UTF-8' LC_CTYPE 'C.UTF-8' TEMPLATE template0; "
            "nothing was changed.",
            database=found.database, where=where, ctype=found.ctype, user=found.user)
    return None


@dataclass(frozen=True)
class Finding:
    """One line of ``monet check-server``: whether it holds, and what to do if not."""

    ok: bool
    text: str
    advice: bool = False  # not required: MONET works without it, less well


def findings(found: Facts, head: str, where: str) -> list[Finding]:
    """Every check, in the order a person fixes them. ``head``: this MONET's schema;
    ``where``: the database's URL without its password."""
    out = [Finding(True, f"logged in as {found.user} to {found.database} (PostgreSQL "
                         f"{found.version.split()[0]}), owned by {found.owner}")]
    out.append(Finding(found.tls, "the connection is encrypted (TLS)" if found.tls else
                       "the connection is not encrypted: on a home network that others share, "
                       "use TLS (sslmode=verify-full, docs/postgresql.md)", advice=True))
    ours = found.monet_revision is not None
    if ours:
        newer = found.monet_revision is not None and found.monet_revision > head
        out.append(Finding(
            not newer,
            f"a MONET history at schema {found.monet_revision}" + (
                f", newer than this MONET's {head}: update MONET on this device"
                if newer else (f" (this MONET upgrades it to {head} when it opens it)"
                               if found.monet_revision != head else ""))))
    elif found.tables:
        problem = refusal(found, where)
        out.append(Finding(False, str(problem)))
    else:
        out.append(Finding(True, "no tables yet: MONET makes its history here when it "
                                 "first opens it"))
    if not ours or found.monet_revision != head:  # (what the chain still has to make)
        out.append(Finding(found.schema is not None and found.may_create,
                           f"{found.user} may create tables" if found.may_create else
                           f"{found.user} may not create tables: ALTER DATABASE "
                           f"{found.database} OWNER TO {found.user}; (as the administrator)"))
    out.append(Finding(found.encoding == "UTF8", f"encoding {found.encoding}" + (
        "" if found.encoding == "UTF8" else ": MONET needs UTF8 (a new database: ENCODING "
        "'UTF8' TEMPLATE template0)")))
    out.append(Finding(utf8_ctype(found.ctype), f"character type {found.ctype}" + (
        "" if utf8_ctype(found.ctype) else ": Japanese search needs a UTF-8 locale "
        "(LC_CTYPE 'C.UTF-8')")))
    if found.trgm_installed:
        out.append(Finding(True, "pg_trgm installed (search by index)", advice=True))
    elif found.trgm_available:
        out.append(Finding(
            found.may_create_extension,
            "pg_trgm available; MONET installs it with its tables" if found.may_create_extension
            else f"pg_trgm available, but {found.user} may not install it: let the "
                 f"administrator install it in {found.database} (docs/postgresql.md; "
                 "without it search reads every message)", advice=True))
    else:
        out.append(Finding(False, "pg_trgm is not installed on the server: install its "
                                  "contrib package (postgresql-contrib on Debian and Ubuntu); "
                                  "without it search reads every message", advice=True))
    return out

