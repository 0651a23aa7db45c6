"""the lifetime of each chat request's conversation breakpoint, in the ledger (issue 32)

``turn_ttl`` is "5m" or "1h" for a chat request (chosen from the person's pauses:
``cms/context/rhythm.py``), "" for the librarian's requests and for every line written
before: ``monet usage`` says how often the hour was chosen. The same on a PostgreSQL
server (``batch_alter_table`` is a plain ``ALTER TABLE`` there).

Revision ID: 0020
Revises: 0019
"""

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("usagerecord") as batch:
        batch.add_column(sa.Column("turn_ttl", sa.String(), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("usagerecord") as batch:
        batch.drop_column("turn_ttl")
