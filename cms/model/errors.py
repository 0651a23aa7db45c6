"""The model's branch of MONET's one error tree (``storage/errors.py`` holds the root).

Raised by the gateway (``monet_app/services/gateway.py``), the replay's stand-in and the
turn runner; the window says each ``code`` in the person's language. Each takes its
sentence as a template and values (``storage/errors.py``), before its own keywords.
"""

from __future__ import annotations

from storage.errors import UserFacingError


class ModelError(UserFacingError):
    """A failed model call. ``retryable`` says whether trying again later may help;
    ``code`` names the case ("timeout", "connection", "overloaded", "server", "cut",
    "ended_early", ...), so the window can say it in the person's language."""

    def __init__(self, template: str, /, *, retryable: bool = False, code: str = "",
                 **values: object) -> None:
        super().__init__(template, **values)
        self.retryable = retryable
        self.code = code


class MissingKeyError(ModelError):
    def __init__(self, template: str, /, **values: object) -> None:
        super().__init__(template, retryable=False, code="missing_key", **values)


class AuthError(ModelError):
    def __init__(self, template: str, /, *, code: str = "auth", **values: object) -> None:
        super().__init__(template, retryable=False, code=code, **values)


class RateLimitedError(ModelError):
    def __init__(self, template: str, retry_after: float | None, /,
                 **values: object) -> None:
        super().__init__(template, retryable=True, code="rate_limited", **values)
        self.retry_after = retry_after


class PromptTooLongError(ModelError):
    """The API answered that the prompt does not fit the context window."""
