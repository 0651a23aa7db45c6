"""Errors a person can act on. Their message is shown as-is, never a traceback."""


class UserFacingError(Exception):
    """Base class: ``str(error)`` is a complete sentence the person can act on."""


class DatabaseError(UserFacingError):
    pass


class DatabaseTooNewError(DatabaseError):
    pass
