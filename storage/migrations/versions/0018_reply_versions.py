"""the earlier versions of a regenerated reply, to flip between (◀ 2/3 ▶)

A reply regenerated is kept here (its final text) with the new one, numbered in the order
they were written; ``current`` marks the one the conversation holds as its message (what
Claude sees). Deleting or forgetting the person's message takes its versions with it in
the same transaction (the triggers): nothing of a forgotten exchange stays behind.

Revision ID: 0018
Revises: 0017
"""

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return  # a server's history begins at 0019, its baseline
    op.create_table(
        "reply_version",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_message_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("text", sa.String(), nullable=False),
        sa.Column("ts", sa.String(), nullable=False),
        sa.Column("current", sa.Boolean(), nullable=False, server_default="0"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_reply_version_user", "reply_version",
                    ["user_message_id", "number"], unique=True)
    if op.get_bind().dialect.name != "sqlite":
        return
    op.execute(
        "CREATE TRIGGER reply_version_ad AFTER DELETE ON message BEGIN "
        "DELETE FROM reply_version WHERE user_message_id = old.id; END")
    op.execute(
        "CREATE TRIGGER reply_version_au AFTER UPDATE OF hidden ON message "
        "WHEN new.hidden BEGIN "
        "DELETE FROM reply_version WHERE user_message_id = old.id; END")


def downgrade() -> None:
    op.execute("DROP TRIGGER IF EXISTS reply_version_ad")
    op.execute("DROP TRIGGER IF EXISTS reply_version_au")
    op.drop_index("ix_reply_version_user", "reply_version")
    op.drop_table("reply_version")
