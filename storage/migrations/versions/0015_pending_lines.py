"""the Timeline Index lines waiting for their summary, found without reading every line

The librarian asks for them at each pass and the window's status bar counts them. Through
``ix_timelineentry_level`` that read every segment line to test ``summary``: 1.7 ms on a
year's home (7,000 lines), for a handful of placeholders. This partial index holds only
the lines without a summary (a line leaves it when its summary is written): 2 us.

Revision ID: 0015
Revises: 0014
"""
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return  # a server's history begins at 0019, its baseline
    op.execute(
        "CREATE INDEX ix_timelineentry_pending ON timelineentry (level, id) WHERE summary IS NULL")


def downgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_timelineentry_pending")
