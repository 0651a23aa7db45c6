"""pictures and documents attached to the person's messages

A file is kept in the data folder under ``attachments/`` by its SHA-256 (the original as
it came, and what is sent when a picture was scaled down), and listed here with its
message, in the order attached. Deleting the message takes its rows in the same
transaction (the trigger); forgetting it deletes them in the forget's transaction
(``cms.memory.forget.hide_messages``): ``hidden`` alone also marks an exchange set aside
while a send replaces it, which must come back whole if the send fails, so no trigger
acts on it (0018's ``reply_version_au`` is dropped here for the same reason). The files
no row names any more are then removed from the folder (``storage.attachments.sweep``).

Revision ID: 0019
Revises: 0018
"""

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "attachment",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("media_type", sa.String(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("sha256", sa.String(), nullable=False),
        sa.Column("sent_media_type", sa.String(), nullable=False),
        sa.Column("sent_sha256", sa.String(), nullable=False),
        sa.Column("width", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("height", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("pages", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("tokens", sa.Integer(), nullable=False, server_default="0"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_attachment_message", "attachment", ["message_id", "position"],
                    unique=True)
    op.create_index("ix_attachment_sha", "attachment", ["sha256"])
    if op.get_bind().dialect.name != "sqlite":
        return
    op.execute(
        "CREATE TRIGGER attachment_ad AFTER DELETE ON message BEGIN "
        "DELETE FROM attachment WHERE message_id = old.id; END")
    op.execute("DROP TRIGGER IF EXISTS reply_version_au")


def downgrade() -> None:
    op.execute("DROP TRIGGER IF EXISTS attachment_ad")
    op.execute(
        "CREATE TRIGGER reply_version_au AFTER UPDATE OF hidden ON message "
        "WHEN new.hidden BEGIN "
        "DELETE FROM reply_version WHERE user_message_id = old.id; END")
    op.drop_index("ix_attachment_sha", "attachment")
    op.drop_index("ix_attachment_message", "attachment")
    op.drop_table("attachment")
