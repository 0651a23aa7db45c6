"""the folds still waiting for their summaries, found without reading every segment

Before every request the context manager asks which folds not yet marked resolved have all
their lines summarized (``storage.queries.resolvable_folds``). The query was driven from
``segment`` and read all of them: 0.4 ms a request on a year's home (6,700 segments). It
is now driven from the unresolved folds, which this partial index holds alone (a fold
leaves it when it is marked resolved): 11 us on the same home.

Revision ID: 0014
Revises: 0013
"""
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return  # a server's history begins at 0019, its baseline
    op.execute("CREATE INDEX ix_fold_unresolved ON fold (id) WHERE resolved_ts IS NULL")


def downgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_fold_unresolved")
