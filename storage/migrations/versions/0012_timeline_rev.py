"""a revision number on each Timeline Index entry, new at its insert and raised by any change

A rebuild renders the Timeline Index from its top-level lines. With ``rev`` it reads only
their ids and revisions and keeps the lines it already holds (``storage.queries.
LineReader``), as ``message.rev`` (0011) does for today's talk: a summary written, a line
rolled up, corrected or deleted, by any process, gives a new ``rev`` (or removes the row)
and is read again. A new entry starts at a random ``rev``: SQLite gives the id of a deleted
newest row to the next one, and the pair (id, rev) must not repeat.

Revision ID: 0012
Revises: 0011
"""
import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

# Every column a line is read for; the trigger's own update (of rev) does not fire it.
WATCHED = ("level, segment_id, parent_id, day_from, day_to, start_ts, end_ts, tabs, "
           "first_message_id, summary")


def upgrade() -> None:
    op.add_column("timelineentry",
                  sa.Column("rev", sa.Integer(), nullable=False, server_default="0"))
    op.execute(
        "CREATE TRIGGER timelineentry_rev_new AFTER INSERT ON timelineentry BEGIN "
        "UPDATE timelineentry SET rev = random() >> 2 WHERE id = new.id; END"
    )
    op.execute(
        f"CREATE TRIGGER timelineentry_rev AFTER UPDATE OF {WATCHED} ON timelineentry BEGIN "
        "UPDATE timelineentry SET rev = old.rev + 1 WHERE id = new.id; END"
    )


def downgrade() -> None:
    op.execute("DROP TRIGGER IF EXISTS timelineentry_rev")
    op.execute("DROP TRIGGER IF EXISTS timelineentry_rev_new")
    op.drop_column("timelineentry", "rev")
