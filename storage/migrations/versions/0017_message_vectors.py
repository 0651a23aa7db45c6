"""the meaning of each said message, as vectors the librarian writes

Recall by meaning (``cms/meaning.py``): each user or assistant message, in pieces when it
is long, embedded by a sentence encoder; ``model`` names the encoder, so a change of
model embeds again. ``bits`` (one sign bit per dimension) is what the in-memory index
ranks; ``vec`` (8 bits per dimension) what the best candidates are ranked by again.
``message_grams_vocab`` counts the messages holding each token of the pair index.
A message deleted, changed or forgotten loses its vectors in the same transaction (the
triggers); the librarian embeds a changed text again, never a forgotten one.

Revision ID: 0017
Revises: 0016
"""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return  # a server's history begins at 0019, its baseline
    op.create_table(
        "message_vector",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.Integer(), nullable=False),
        sa.Column("piece", sa.Integer(), nullable=False),
        sa.Column("model", sa.String(), nullable=False),
        sa.Column("bits", sa.LargeBinary(), nullable=False),
        sa.Column("vec", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sqlite_autoincrement=True,  # an id is never used twice: the index reads what is new
    )
    # one row per piece of a message per model; and what the "has it a vector of this
    # model?" lookup reads (with an index on message_id alone, SQLite preferred the model
    # index and scanned every vector of the model for each message: minutes at a year)
    op.create_index("ix_message_vector_message", "message_vector",
                    ["message_id", "model", "piece"], unique=True)
    op.create_index("ix_message_vector_model", "message_vector", ["model", "id"])
    if op.get_bind().dialect.name != "sqlite":
        return
    # how many messages hold each pair or word: how much a word of the question weighs
    # when the word matches and the meaning matches share the list
    op.execute("CREATE VIRTUAL TABLE message_grams_vocab USING fts5vocab(message_grams, 'row')")
    op.execute(
        "CREATE TRIGGER message_vector_ad AFTER DELETE ON message BEGIN "
        "DELETE FROM message_vector WHERE message_id = old.id; END")
    op.execute(
        "CREATE TRIGGER message_vector_au AFTER UPDATE OF text, hidden ON message "
        "WHEN new.text IS NOT old.text OR new.hidden BEGIN "
        "DELETE FROM message_vector WHERE message_id = old.id; END")


def downgrade() -> None:
    op.execute("DROP TABLE IF EXISTS message_grams_vocab")
    op.execute("DROP TRIGGER IF EXISTS message_vector_ad")
    op.execute("DROP TRIGGER IF EXISTS message_vector_au")
    op.drop_index("ix_message_vector_model", "message_vector")
    op.drop_index("ix_message_vector_message", "message_vector")
    op.drop_table("message_vector")
