"""message ids are never given twice (issue 41)

SQLite gives a new row the largest id present plus one, so after the newest messages were
deleted (forgotten, regenerated) the next message got their ids again, and an id kept from
an earlier export or search then named a different message. ``id_floor`` holds the largest
message id ever deleted (kept by the trigger below); ``storage.queries.insert_message``
gives a new message the larger of it and the largest present, plus one, in the insert
itself. Seeded with the largest id present: what was deleted before this migration cannot
be known. On a PostgreSQL server a sequence never gives an id twice.

Revision ID: 0021
Revises: 0020
"""

from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return  # a sequence never gives an id twice
    op.execute("CREATE TABLE id_floor (name VARCHAR NOT NULL PRIMARY KEY, top INTEGER NOT NULL)")
    op.execute("INSERT INTO id_floor (name, top) SELECT 'message', coalesce(max(id), 0) "
               "FROM message")
    # an upsert: a home made from storage/schema.sql has the table without its row
    op.execute("CREATE TRIGGER message_id_floor AFTER DELETE ON message BEGIN "
               "INSERT INTO id_floor (name, top) VALUES ('message', OLD.id) "
               "ON CONFLICT (name) DO UPDATE SET top = max(top, excluded.top); END")


def downgrade() -> None:
    op.execute("DROP TRIGGER message_id_floor")
    op.execute("DROP TABLE id_floor")
