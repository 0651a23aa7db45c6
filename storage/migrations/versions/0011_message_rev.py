"""a revision number on each message, new at its insert and raised by any change to it

A chat turn reads today's talk before every request. With ``rev``, it reads only the ids
and revisions of today's messages and keeps the messages it already holds
(``storage.queries.TalkReader``): a message edited in place (forgetting hides it or
redacts a tool result) has a new ``rev`` and is read again, whichever process changed it.
A new message starts at a random ``rev``: SQLite gives the id of a deleted newest message
to the next one (regenerating a reply does that), and the pair (id, rev) must not repeat.

Revision ID: 0011
Revises: 0010
"""
import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

# Every column a message is read for; the trigger's own update (of rev) does not fire it.
WATCHED = ("thread_id, day, tab, tab_label, role, text, content_json, ts, token_estimate, "
           "status, segment_id, hidden")


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return  # a server's history begins at 0019, its baseline
    # a plain ADD COLUMN: a batch (copy-and-move) would drop the full-text triggers
    op.add_column("message", sa.Column("rev", sa.Integer(), nullable=False, server_default="0"))
    op.execute(
        "CREATE TRIGGER message_rev_new AFTER INSERT ON message BEGIN "
        "UPDATE message SET rev = random() >> 2 WHERE id = new.id; END"  # no overflow at +1
    )
    op.execute(
        f"CREATE TRIGGER message_rev AFTER UPDATE OF {WATCHED} ON message BEGIN "
        "UPDATE message SET rev = old.rev + 1 WHERE id = new.id; END"
    )


def downgrade() -> None:
    op.execute("DROP TRIGGER IF EXISTS message_rev")
    op.execute("DROP TRIGGER IF EXISTS message_rev_new")
    op.drop_column("message", "rev")
