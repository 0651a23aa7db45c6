"""The stored vectors of said messages (migration 0017), for ``cms/meaning.py``.

Every statement here is plain SQL over one table and ``message``; the triggers that drop
a message's vectors when it is deleted, changed or forgotten live in the migration.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Integer, LargeBinary, String, bindparam, text

from storage.fts import SEARCHED_ROLES as _SAID
from storage.rows import Db

_PENDING = text(
    f"SELECT m.id, m.rev, m.text FROM message m WHERE {_SAID} AND NOT m.hidden "
    "AND NOT EXISTS (SELECT 1 FROM message_vector v WHERE v.message_id = m.id "
    "AND v.model = :model) ORDER BY m.id DESC LIMIT :most")
_PENDING_COUNT = text(
    f"SELECT count(*) FROM message m WHERE {_SAID} AND NOT m.hidden "
    "AND NOT EXISTS (SELECT 1 FROM message_vector v WHERE v.message_id = m.id "
    "AND v.model = :model)")
_SAID_COUNT = text(f"SELECT count(*) FROM message m WHERE {_SAID} AND NOT m.hidden")
_STORE = text(
    "INSERT INTO message_vector (message_id, piece, model, bits, vec) "
    "SELECT :message, :piece, :model, :bits, :vec WHERE EXISTS (SELECT 1 FROM message m "
    "WHERE m.id = :message AND m.rev = :rev AND NOT m.hidden) AND NOT EXISTS (SELECT 1 "
    "FROM message_vector v WHERE v.message_id = :message AND v.model = :model "
    "AND v.piece = :piece)").bindparams(  # (typed: PostgreSQL reads the select's types)
    bindparam("message", type_=Integer), bindparam("piece", type_=Integer),
    bindparam("model", type_=String), bindparam("rev", type_=Integer),
    bindparam("bits", type_=LargeBinary), bindparam("vec", type_=LargeBinary))
_OTHER_MODELS = text("DELETE FROM message_vector WHERE message_id = :message AND model != :model")
_COUNT_AND_NEWEST = text(
    "SELECT count(*), coalesce(max(id), 0) FROM message_vector WHERE model = :model")
_BITS_AFTER = text(
    "SELECT id, message_id, bits FROM message_vector WHERE model = :model AND id > :after "
    "ORDER BY id")
_INT8_OF = text("SELECT id, piece, vec FROM message_vector WHERE id IN :ids").bindparams(
    bindparam("ids", expanding=True))


def pending(db: Db, model: str, most: int) -> list[tuple[int, int, str]]:
    """(id, rev, text) of up to ``most`` said, unforgotten messages without a vector of
    ``model``, newest first."""
    return [(r[0], r[1], r[2]) for r in db.execute(_PENDING, {"model": model, "most": most})]


def progress(db: Db, model: str) -> tuple[int, int]:
    """(messages with vectors of ``model``, messages that should have them)."""
    waiting = int(db.execute(_PENDING_COUNT, {"model": model}).scalar_one())
    total = int(db.execute(_SAID_COUNT).scalar_one())
    return total - waiting, total


def store(db: Db, model: str, rows: Sequence[tuple[int, int, int, bytes, bytes]]) -> None:
    """Write (message id, rev, piece, bits, int8 vector) rows. A row whose message is gone,
    forgotten or changed since its ``rev`` was read is not written (its text is not what
    was embedded), nor one already there (another librarian); a message's vectors of
    another model go when its first piece is written."""
    for message, rev, piece, bits, vec in rows:
        if piece == 0:
            db.execute(_OTHER_MODELS, {"message": message, "model": model})
        db.execute(_STORE, {"message": message, "rev": rev, "piece": piece, "model": model,
                            "bits": bits, "vec": vec})


def count_and_newest(db: Db, model: str) -> tuple[int, int]:
    count, newest = db.execute(_COUNT_AND_NEWEST, {"model": model}).one()
    return int(count), int(newest)


def bits_after(db: Db, model: str, after: int) -> list[tuple[int, int, bytes]]:
    """(vector id, message id, sign bits) of ``model``'s vectors after ``after``, in order."""
    return [(r[0], r[1], r[2])
            for r in db.execute(_BITS_AFTER, {"model": model, "after": after})]


def int8_of(db: Db, ids: Sequence[int]) -> list[tuple[int, int, bytes]]:
    """(vector id, piece, 8-bit vector) of the vectors ``ids``."""
    if not ids:
        return []
    return [(r[0], r[1], r[2]) for r in db.execute(_INT8_OF, {"ids": list(ids)})]

