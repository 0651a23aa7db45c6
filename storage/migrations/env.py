"""Alembic environment: MONET passes an open connection in ``config.attributes``."""

from alembic import context
from sqlmodel import SQLModel

import storage.models  # registers the tables on SQLModel.metadata

target_metadata = SQLModel.metadata
connection = context.config.attributes.get("connection")

if connection is None:
    from sqlalchemy import create_engine

    url = context.config.get_main_option("sqlalchemy.url") or "sqlite:///monet-migrations.db"
    connection = create_engine(url).connect()



def include_object(
    obj: object, name: str | None, type_: str, reflected: bool, compare_to: object
) -> bool:
    """The full-text index (migration 0006) is managed by hand, not by autogenerate."""
    return not (name or "").startswith("message_fts")


def render_item(type_: str, obj: object, autogen_context: object) -> str | bool:
    """An enum column is a plain string in the database: write it as one in migrations."""
    if type_ == "type" and isinstance(obj, storage.models.EnumString):
        return "sqlmodel.sql.sqltypes.AutoString()"
    return False


context.configure(
    connection=connection,
    target_metadata=target_metadata,
    include_object=include_object,
    render_item=render_item,
    render_as_batch=True,  # SQLite cannot ALTER most things; batch mode copies tables
)
with context.begin_transaction():
    context.run_migrations()
