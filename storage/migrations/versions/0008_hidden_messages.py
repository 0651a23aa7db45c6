"""messages hidden from Claude (a memory forgotten, its messages kept for the person)

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-30 02:20:00
"""
import sqlalchemy as sa
from alembic import op

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return  # a server's history begins at 0019, its baseline
    # a plain ADD COLUMN: a batch (copy-and-move) would drop the full-text triggers
    op.add_column(
        'message', sa.Column('hidden', sa.Boolean(), nullable=False, server_default="0")
    )


def downgrade() -> None:
    # a plain DROP COLUMN (SQLite 3.35+): a batch rebuild would drop the full-text triggers
    op.drop_column('message', 'hidden')
