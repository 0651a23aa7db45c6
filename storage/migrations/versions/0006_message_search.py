"""full-text search over messages (SQLite FTS5, trigram tokenizer)

The trigram tokenizer finds any substring of three characters or more, which is what
Japanese (no spaces between words) needs. Triggers keep the index in step with the
message table, so a deleted message leaves the index too. Other databases skip this
migration; storage.fts falls back to LIKE there.

Revision ID: 0006
Revises: 0005
"""

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return  # a server's history begins at 0019, its baseline
    if op.get_bind().dialect.name != "sqlite":
        return
    op.execute(
        "CREATE VIRTUAL TABLE message_fts USING fts5("
        "text, content='message', content_rowid='id', tokenize='trigram')"
    )
    op.execute(
        "CREATE TRIGGER message_fts_ai AFTER INSERT ON message BEGIN "
        "INSERT INTO message_fts(rowid, text) VALUES (new.id, new.text); END"
    )
    op.execute(
        "CREATE TRIGGER message_fts_ad AFTER DELETE ON message BEGIN "
        "INSERT INTO message_fts(message_fts, rowid, text) VALUES ('delete', old.id, old.text); END"
    )
    op.execute(
        "CREATE TRIGGER message_fts_au AFTER UPDATE OF text ON message BEGIN "
        "INSERT INTO message_fts(message_fts, rowid, text) VALUES ('delete', old.id, old.text); "
        "INSERT INTO message_fts(rowid, text) VALUES (new.id, new.text); END"
    )
    op.execute("INSERT INTO message_fts(message_fts) VALUES ('rebuild')")


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    for trigger in ("message_fts_ai", "message_fts_ad", "message_fts_au"):
        op.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    op.execute("DROP TABLE IF EXISTS message_fts")
