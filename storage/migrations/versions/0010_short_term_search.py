"""two-character search terms without a scan of every message

The trigram index cannot hold a two-character term (盆栽, "AI"), so it was found by a
LIKE scan: fast for a common term (the newest 300 matches come first), but a rare one read
every message (~0.1 s at 100,000). A two-character term is now found through the index:
the trigrams that start with it (from an fts5vocab view of the index), plus the messages
that end with it (an index on their last two characters, lowered as LIKE lowers).

Revision ID: 0010
Revises: 0009
"""

from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return  # a server's history begins at 0019, its baseline
    if op.get_bind().dialect.name != "sqlite":
        return
    op.execute("CREATE VIRTUAL TABLE message_fts_vocab USING fts5vocab(message_fts, 'row')")
    op.execute("CREATE INDEX ix_message_tail2 ON message (lower(substr(text, -2)))")


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    op.execute("DROP INDEX IF EXISTS ix_message_tail2")
    op.execute("DROP TABLE IF EXISTS message_fts_vocab")
