"""Where the Anthropic API key comes from: ``ANTHROPIC_API_KEY``, else the OS keyring,
else a key kept in memory for this run only.

The key is never written to a plain file, a log, an export or the database. Where no
keyring backend exists (a bare Linux without Secret Service, say), a key saved in the
window's settings is kept in this process's memory until MONET quits (the settings
dialog says so before it is saved); the environment variable remains the lasting way.
A command-line process gains nothing from a session key, so it asks for the keyring
(``allow_session=False``) and is refused with a sentence.
"""

from __future__ import annotations

import contextlib
import os
from typing import Protocol

from storage.errors import KeyStoreError

SERVICE = "MONET"
ACCOUNT = "anthropic-api-key"


class _Keyring(Protocol):
    """What MONET uses of the ``keyring`` module."""

    def get_password(self, service_name: str, username: str) -> str | None: ...

    def set_password(self, service_name: str, username: str, password: str) -> None: ...

    def delete_password(self, service_name: str, username: str) -> None: ...


def _keyring() -> _Keyring | None:
    try:
        import keyring
        from keyring.backends import fail
    except ImportError:
        return None
    backend = keyring.get_keyring()
    if isinstance(backend, fail.Keyring):
        return None
    return keyring


#: A key kept for this run only, where no keyring exists. Never written anywhere.
_session_key: str | None = None


def keyring_available() -> bool:
    return _keyring() is not None


def load_api_key(*, environment: bool = True) -> tuple[str | None, str]:
    """(key, where it came from: "environment", "keyring", "session" or "none").

    Precedence: the environment variable, then the OS keyring, then the session key (set
    by ``store_api_key`` only when there is no keyring, cleared when one is stored).
    ``environment=False``: as a process without the variable would find it."""
    env = os.environ.get("ANTHROPIC_API_KEY", "").strip() if environment else ""
    if env:
        return env, "environment"
    ring = _keyring()
    if ring is not None:
        try:
            stored = ring.get_password(SERVICE, ACCOUNT)
        except Exception:  # noqa: BLE001 - a locked or broken keyring is "no key"
            stored = None
        if stored:
            return stored, "keyring"
    if _session_key:
        return _session_key, "session"
    return None, "none"


def broken_key(key: str) -> bool:
    """A key with a space, a line break or a control character inside: never stored nor
    sent (the part after a break would reach an error message)."""
    return any(ch.isspace() or ord(ch) < 32 for ch in key)


def store_api_key(key: str, *, allow_session: bool = True) -> str:
    """Store ``key`` and say where it went: "keyring", or "session" (kept in memory until
    this process ends) when no keyring exists and ``allow_session``; without
    ``allow_session`` that case is refused. A keyring that exists but refuses is refused
    too: falling back would leave an older keyring key in front of the new one."""
    global _session_key
    key = key.strip()
    if not key:
        raise KeyStoreError("The API key is empty; nothing was stored.")
    if broken_key(key):
        raise KeyStoreError("The API key has a space or a line break inside it; nothing was "
                            "stored. Paste the key alone, on one line.")
    ring = _keyring()
    if ring is None:
        if not allow_session:
            raise KeyStoreError(
                "No OS keyring is available on this system, and MONET never keeps the key in "
                "a plain file. Set the ANTHROPIC_API_KEY environment variable instead."
            )
        _session_key = key
        return "session"
    try:
        ring.set_password(SERVICE, ACCOUNT, key)
    except Exception as exc:  # noqa: BLE001 - a locked or refusing keyring, said in words
        why = redact(str(exc), key) or type(exc).__name__
        raise KeyStoreError(
            "The OS keyring refused to store the key ({why}); nothing was stored. Unlock the "
            "keyring and save again, or set the ANTHROPIC_API_KEY environment variable.", why=why
        ) from None
    _session_key = None
    return "keyring"


def delete_api_key() -> None:
    """Forget the key: from the keyring and from this session (not the environment)."""
    global _session_key
    _session_key = None
    ring = _keyring()
    if ring is not None:
        with contextlib.suppress(Exception):  # nothing stored is fine
            ring.delete_password(SERVICE, ACCOUNT)


def redact(text: str, key: str | None) -> str:
    """Remove the key (and anything that looks like an Anthropic key) from ``text``."""
    import re

    if key:
        text = text.replace(key, "[api key hidden]")
    return re.sub(r"sk-ant-[A-Za-z0-9_\-]{8,}", "[api key hidden]", text)
