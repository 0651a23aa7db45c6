"""The settings table as stored: each setting's JSON text by key, read, written,
compared and set, and the values MONET keeps there for itself (the librarian's scan
marks, a send's set-aside ids, the draft of a streaming reply). What the settings mean
is ``cms/settings.py``."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import bindparam, delete, insert, update
from sqlalchemy import select as sa_select
from sqlmodel import Session, col

from storage.models import (
    Setting,
)
from storage.rows import Db, connection_of, run

_DELETE_SETTING = delete(Setting).where(col(Setting.key) == bindparam("key"))


def delete_setting(db: Db, key: str) -> None:
    run(db, _DELETE_SETTING, {"key": key})


_SETTING = sa_select(col(Setting.value_json)).where(col(Setting.key) == bindparam("key"))


_UPDATE_SETTING = update(Setting).where(col(Setting.key) == bindparam("name")).values(
    value_json=bindparam("value"))


_REPLACE_SETTING = update(Setting).where(
    col(Setting.key) == bindparam("name"), col(Setting.value_json) == bindparam("expected")
).values(value_json=bindparam("value"))


#: The setting that holds the last message the librarian proposed memories from.
MEMORY_MARK = "memory_scanned_to"


#: The setting that holds the last message the librarian read for newer values
#: (``cms/memory/updates.py``).
UPDATES_MARK = "updates_scanned_to"


#: The scans whose mark is a message id (lowered when the newest messages are deleted).
SCAN_MARKS = (MEMORY_MARK, UPDATES_MARK)


def setting_json(db: Db, key: str) -> str | None:
    """The stored JSON text of a setting, or None."""
    found = run(db, _SETTING, {"key": key}).scalar()
    return None if found is None else str(found)


_EVERY_SETTING = sa_select(col(Setting.key), col(Setting.value_json))


def every_setting(db: Db) -> dict[str, str]:
    """Every stored setting's JSON text, by key."""
    return {str(key): str(value) for key, value in run(db, _EVERY_SETTING)}


def replace_setting(db: Db, key: str, expected_json: str, value_json: str) -> bool:
    """Compare and set: store ``value_json`` only if the setting still holds
    ``expected_json``. Returns whether it did."""
    return bool(run(db, _REPLACE_SETTING, {
        "name": key, "expected": expected_json, "value": value_json}).rowcount)


def put_setting(db: Db, key: str, value_json: str) -> None:
    """Store a setting's JSON text (made or replaced)."""
    if run(db, _UPDATE_SETTING, {"name": key, "value": value_json}).rowcount == 0:
        connection_of(db).execute(insert(Setting), {"key": key, "value_json": value_json})


def read_value(session: Session, key: str) -> Any:
    """A small stored value (JSON) of the ``setting`` table, or None."""
    row = session.get(Setting, key)
    return None if row is None else json.loads(row.value_json)


def write_value(session: Session, key: str, value: Any) -> None:
    """Store (or, with None, remove) a small JSON value of the ``setting`` table."""
    row = session.get(Setting, key)
    if value is None:
        if row is not None:
            session.delete(row)
        return
    text = json.dumps(value, ensure_ascii=False)
    if row is None:
        row = Setting(key=key, value_json=text)
    row.value_json = text
    session.add(row)
