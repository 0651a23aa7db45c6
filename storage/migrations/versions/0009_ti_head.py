"""the Timeline Index's cached head (the TI is sent as a stable head and a growing tail)

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-30 03:45:00
"""
import sqlalchemy as sa
from alembic import op

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return  # a server's history begins at 0019, its baseline
    op.add_column(
        'promptstate', sa.Column('ti_head_text', sa.String(), nullable=False, server_default="")
    )


def downgrade() -> None:
    op.drop_column('promptstate', 'ti_head_text')
