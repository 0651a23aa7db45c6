"""MONET's one error tree.

Every error MONET raises on purpose is a ``UserFacingError``: ``str(error)`` is one
complete sentence the person can act on, shown as-is in the window and printed by the
command line (exit status 2). Anything else that escapes is a bug or a race (an
``IntegrityError`` between two librarians, a ``KeyError``): it is never dressed as a
sentence; the window says something went wrong and the traceback goes to ``monet.log``.

The tree lives here, in the lowest layer, so that every layer (``storage``, ``cms``,
``monet_app``) raises from the same root without importing upwards::

    UserFacingError
    ├── DatabaseError                 the SQLite file is locked, damaged or read-only
    │   └── DatabaseTooNewError       written by a newer MONET
    ├── InputError                    what the person typed or asked cannot be used
    │   ├── EmptyMessageError
    │   ├── PromptTooLargeError       one exchange larger than the context window
    │   ├── SettingsError
    │   ├── PromotionError
    │   ├── MemoryItemError
    │   ├── ForgetError
    │   ├── ExportError               an export target MONET will not write to
    │   └── TraceError                a replay trace that cannot be read
    ├── KeyStoreError                 the OS keyring cannot store the API key
    └── ModelError                    a model call failed (``retryable`` says if later may help)
        ├── MissingKeyError           no API key anywhere
        ├── AuthError                 the key was refused (401/403)
        ├── RateLimitedError          429 after the SDK's retries (``retry_after``)
        └── PromptTooLongError        the API said the prompt does not fit; MONET folds
                                      and retries once before showing it
"""

from __future__ import annotations


class UserFacingError(Exception):
    """Root: ``str(error)`` is a complete sentence the person can act on."""


class DatabaseError(UserFacingError):
    """The database cannot be used as it is (locked, damaged, read-only, full)."""


class DatabaseTooNewError(DatabaseError):
    """The schema was written by a newer MONET; the file is left unchanged."""


class InputError(UserFacingError):
    """What the person typed or asked for cannot be used; nothing was changed."""


class EmptyMessageError(InputError):
    pass


class PromptTooLargeError(InputError):
    """A single exchange is larger than the model's context window."""


class SettingsError(InputError):
    pass


class PromotionError(InputError):
    pass


class MemoryItemError(InputError):
    pass


class ForgetError(InputError):
    pass


class TraceError(InputError):
    pass


class ExportError(InputError):
    pass


class KeyStoreError(UserFacingError):
    pass


class ModelError(UserFacingError):
    """A failed model call. ``retryable`` says whether trying again later may help;
    ``code`` names the case ("timeout", "connection", "overloaded", "server", "cut",
    "ended_early", ...), so the window can say it in the person's language."""

    def __init__(self, message: str, *, retryable: bool = False, code: str = "") -> None:
        super().__init__(message)
        self.retryable = retryable
        self.code = code


class MissingKeyError(ModelError):
    def __init__(self, message: str) -> None:
        super().__init__(message, code="missing_key")


class AuthError(ModelError):
    def __init__(self, message: str, *, code: str = "auth") -> None:
        super().__init__(message, code=code)


class RateLimitedError(ModelError):
    def __init__(self, message: str, retry_after: float | None) -> None:
        super().__init__(message, retryable=True, code="rate_limited")
        self.retry_after = retry_after


class PromptTooLongError(ModelError):
    """The API answered that the prompt does not fit the context window."""
