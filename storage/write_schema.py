"""``python -m storage.write_schema``: writes ``storage/schema.sql`` from the migrations
(``storage/schema.py`` says why the head schema is kept as SQL)."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from storage import schema
from storage.database import Database


def from_migrations(home: Path) -> Path:
    """A new database at ``home`` built by running every migration (no snapshot)."""
    db = Database(home, migrate=False)
    try:
        db.upgrade_with_alembic()
    finally:
        db.close()
    return db.path


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        text = schema.dump(from_migrations(Path(tmp)))
    header = ("-- MONET's head schema, written by `python -m storage.write_schema` from the\n"
              "-- migrations (storage/migrations/versions). Do not edit by hand.\n\n")
    schema.SCHEMA_FILE.write_text(header + text, encoding="utf-8")
    count = len(schema.statements(text))
    print(f"wrote {schema.SCHEMA_FILE} ({count} statements)", file=sys.stderr)


if __name__ == "__main__":
    main()
