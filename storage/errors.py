"""MONET's one error tree.

Every error MONET raises on purpose is a ``UserFacingError``: ``str(error)`` is one
complete sentence the person can act on, shown as-is in the window and printed by the
command line (exit status 2). Anything else that escapes is a bug or a race (an
``IntegrityError`` between two librarians, a ``KeyError``): it is never dressed as a
sentence; the window says something went wrong and the traceback goes to ``monet.log``.

The root lives here, in the lowest layer, so that every layer (``storage``, ``cms``,
``monet_app``) raises from the same root without importing upwards. Each branch is
defined by the layer that raises it: the model's failures in ``cms/model/errors.py``
(beside the model protocol), everything else here. ``tests/test_architecture.py`` checks
that no other module defines a ``UserFacingError``::

    UserFacingError
    ├── DatabaseError                 the SQLite file is locked, damaged or read-only
    │   ├── DatabaseTooNewError       written by a newer MONET
    │   └── ServerAwayError           the history's server cannot be reached now
    ├── InputError                    what the person typed or asked cannot be used
    │   ├── EmptyMessageError
    │   ├── PromptTooLargeError       one exchange larger than the context window
    │   ├── SettingsError
    │   ├── PromotionError
    │   ├── MemoryItemError
    │   ├── ForgetError
    │   ├── ExportError               an export target MONET will not write to
    │   ├── TraceError                a replay trace that cannot be read
    │   ├── BackupError               a backup or restore that cannot be done
    │   ├── CheckStopped              a topic-mixing check stopped (monet check-mixing)
    │   ├── NotLinuxError             install-desktop where there is no desktop menu
    │   ├── AttachmentError           a file that cannot be attached (kind, size, damage)
    │   └── DemoError                 the demo would touch a data folder not its own
    ├── KeyStoreError                 the OS keyring cannot store the API key
    ├── BusyError                     another action holds the gate (``Work``); nothing
    │                                 was changed (monet_app/operations/gate.py)
    └── ModelError (cms/model/errors)  a model call failed (``retryable`` says if later may help)
        ├── MissingKeyError           no API key anywhere
        ├── AuthError                 the key was refused (401/403)
        ├── RateLimitedError          429 after the SDK's retries (``retry_after``)
        └── PromptTooLongError        the API said the prompt does not fit; MONET folds
                                      and retries once before showing it

A sentence has a key and its values, as gettext's message ids do: ``error.template`` is
the English sentence with ``{name}`` placeholders, a literal at the raise site, and
``error.values`` the values it names (a path, a count, another exception's text)::

    raise DatabaseError("{home} is a file, not a folder, ...", home=self.home)

``str(error)`` is ``template.format(**values)`` (the template as is without values): the
same English sentence the command line prints and ``monet.log`` keeps. The window looks
the template up in its catalog (``monet_app/window/error_words.py``) and says it in its
language with the same values; ``tests/test_error_words.py`` checks that every raise
names a literal template (never an f-string) and that the catalog has each one. A value
that is itself a ``UserFacingError`` or a ``Phrase`` (a piece of a sentence with its own
template, as a settings problem) is said in the window's language too; ``Phrases`` joins
several. Subclasses with their own keywords (``AttachmentError``'s ``code`` and ``name``,
``BusyError``'s ``requested`` and ``running``, ``ModelError``'s ``retryable`` and
``code``) keep them and pass the values on.
"""

from __future__ import annotations

from collections.abc import Sequence


def formatted(template: str, values: dict[str, object]) -> str:
    """``template`` with its values (as is without values: a literal ``{`` stays)."""
    return template.format(**values) if values else template


class UserFacingError(Exception):
    """Root: ``str(error)`` is a complete sentence the person can act on, ``template``
    its key (the English sentence with ``{name}`` placeholders) and ``values`` what
    fills them."""

    def __init__(self, template: str, /, **values: object) -> None:
        super().__init__(formatted(template, values))
        self.template = template
        self.values = values


class Phrase:
    """A piece of a sentence with its own template and values (one settings problem of
    several): a value of a ``UserFacingError`` said in the window's language too."""

    def __init__(self, template: str, /, **values: object) -> None:
        self.template = template
        self.values = values

    def __str__(self) -> str:
        return formatted(self.template, self.values)


class Phrases:
    """Phrases said one after another: joined by ``separator`` in English (the window's
    catalog joins them its own way)."""

    def __init__(self, phrases: Sequence[Phrase], separator: str = "; ") -> None:
        self.phrases = tuple(phrases)
        self.separator = separator

    def __str__(self) -> str:
        return self.separator.join(str(phrase) for phrase in self.phrases)


class DatabaseError(UserFacingError):
    """The database cannot be used as it is (locked, damaged, read-only, full)."""


class DatabaseTooNewError(DatabaseError):
    """The schema was written by a newer MONET; the file is left unchanged."""


class ServerAwayError(DatabaseError):
    """The history's server cannot be reached now (stopped, rebooting, the network gone):
    what may wait for it (a reply that streamed meanwhile) is kept on this device."""


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

class BackupError(InputError):
    """A backup or a restore that cannot be done, said in one sentence."""


class CheckStopped(InputError):
    """The person stopped the check (the window's Stop, or closing the dialog)."""


class NotLinuxError(InputError):
    """install-desktop on a system without freedesktop.org desktop entries."""


class AttachmentError(InputError):
    """A file that cannot be attached: a kind the API does not read, too large, or
    damaged; or an attached one that cannot be opened for the person. ``code`` names which
    ("unsupported", "too_large", "damaged", "cannot_open") for a window that says it in
    its own language; nothing was sent and the typed text is kept."""

    def __init__(self, template: str, /, *, code: str, name: str = "",
                 **values: object) -> None:
        super().__init__(template, name=name, **values)  # ({name} in the template)
        self.code = code
        self.name = name


class DemoError(InputError):
    """The demo would touch a data folder that is not a demo."""



class KeyStoreError(UserFacingError):
    pass


class BusyError(UserFacingError):
    """An action was refused because another one is under way; nothing was changed.
    ``requested`` and ``running`` name the two kinds of work (``operations.gate.Work``),
    so the window can say it in the person's language."""

    def __init__(self, template: str, /, *, requested: str, running: str,
                 **values: object) -> None:
        super().__init__(template, **values)
        self.requested = requested
        self.running = running
