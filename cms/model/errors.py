"""The model's branch of MONET's one error tree (``storage/errors.py`` holds the root).

Raised by the gateway (``monet_app/services/gateway.py``), the replay's stand-in and the
turn runner; the window says each ``code`` in the person's language.
"""

from __future__ import annotations

from storage.errors import UserFacingError


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
