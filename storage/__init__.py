"""Persistence for MONET: SQLModel tables, the database session, migrations, and the
repositories by aggregate (talk, timeline, memory, ledger, settings, prompt state,
attachments, vectors).

Nothing here imports Qt or talks to the network. SQLite-specific SQL is confined to
``storage.database`` (connection pragmas) and ``storage.fts`` (the FTS5 index);
everything else is portable SQLAlchemy, which ``storage.direct`` runs on the driver's
cursor for the statements of a chat turn.
"""

from storage.database import Database, default_home
from storage.errors import DatabaseError, DatabaseTooNewError, UserFacingError

__all__ = ["Database", "DatabaseError", "DatabaseTooNewError", "UserFacingError", "default_home"]
