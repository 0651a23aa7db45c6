"""a revision number on each Timeline Index entry; every revision drawn at random

A rebuild renders the Timeline Index from its top-level lines. With ``rev`` it reads only
their ids and revisions and keeps the lines it already holds (``storage.queries.
LineReader``), as ``message.rev`` (0011) does for today's talk: a summary written, a line
rolled up, corrected or deleted, by any process, gives a new ``rev`` (or removes the row)
and is read again.

A reader may hold a row it read inside a transaction that was then rolled back (a
rebuild that ends in "prompt too long"). With 0011's ``rev = old.rev + 1``, the next
committed change would give the same (id, rev) again with other content, and the reader
would keep the rolled-back text. So every revision, at insert and at any change, is drawn
at random (62 bits: two rows never meet the same pair), here for both tables.

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
# As 0011.
MESSAGE_WATCHED = ("thread_id, day, tab, tab_label, role, text, content_json, ts, "
                   "token_estimate, status, segment_id, hidden")


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return  # a server's history begins at 0019, its baseline
    op.add_column("timelineentry",
                  sa.Column("rev", sa.Integer(), nullable=False, server_default="0"))
    op.execute(
        "CREATE TRIGGER timelineentry_rev_new AFTER INSERT ON timelineentry BEGIN "
        "UPDATE timelineentry SET rev = random() >> 2 WHERE id = new.id; END"
    )
    op.execute(
        f"CREATE TRIGGER timelineentry_rev AFTER UPDATE OF {WATCHED} ON timelineentry BEGIN "
        "UPDATE timelineentry SET rev = random() >> 2 WHERE id = new.id; END"
    )
    op.execute("DROP TRIGGER IF EXISTS message_rev")
    op.execute(
        f"CREATE TRIGGER message_rev AFTER UPDATE OF {MESSAGE_WATCHED} ON message BEGIN "
        "UPDATE message SET rev = random() >> 2 WHERE id = new.id; END"
    )


def downgrade() -> None:
    op.execute("DROP TRIGGER IF EXISTS message_rev")
    op.execute(
        f"CREATE TRIGGER message_rev AFTER UPDATE OF {MESSAGE_WATCHED} ON message BEGIN "
        "UPDATE message SET rev = old.rev + 1 WHERE id = new.id; END"
    )
    op.execute("DROP TRIGGER IF EXISTS timelineentry_rev")
    op.execute("DROP TRIGGER IF EXISTS timelineentry_rev_new")
    op.drop_column("timelineentry", "rev")
