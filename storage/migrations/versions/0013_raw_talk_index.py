"""today's raw talk found without reading the day's folded messages

Before every request the context manager reads the ids and revisions of the talk still in
the prompt: the day's messages (sunset model) or the thread's (the thread model's fold at
a switch) whose ``segment_id`` is NULL. Through ``ix_message_day`` that visited every
message of the day and read each row (a page each when messages are long) to test
``segment_id``: 40 us at 320 messages, growing all day. Two partial indexes hold only the
messages not yet folded, so the same read takes ~4 us however long the day has been; they
stay small (a fold takes its messages out of them).

Revision ID: 0013
Revises: 0012
"""
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return  # a server's history begins at 0019, its baseline
    op.execute("CREATE INDEX ix_message_raw_day ON message (day) WHERE segment_id IS NULL")
    op.execute(
        "CREATE INDEX ix_message_raw_thread ON message (thread_id) WHERE segment_id IS NULL")


def downgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_message_raw_thread")
    op.execute("DROP INDEX IF EXISTS ix_message_raw_day")
