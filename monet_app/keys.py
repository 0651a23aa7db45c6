"""Where the Anthropic API key comes from: ``ANTHROPIC_API_KEY``, else the OS keyring.

The key is never written to a plain file, a log, an export or the database. Where no
keyring backend exists (a bare Linux without Secret Service, say), storing is refused
with a sentence that says so, and the environment variable remains the way.
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


def keyring_available() -> bool:
    return _keyring() is not None


def load_api_key() -> tuple[str | None, str]:
    """(key, where it came from: "environment", "keyring" or "none")."""
    env = os.environ.get("ANTHROPIC_API_KEY", "").strip()
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
    return None, "none"


def store_api_key(key: str) -> None:
    key = key.strip()
    if not key:
        raise KeyStoreError("The API key is empty; nothing was stored.")
    ring = _keyring()
    if ring is None:
        raise KeyStoreError(
            "No OS keyring is available on this system, and MONET never keeps the key in a "
            "plain file. Set the ANTHROPIC_API_KEY environment variable instead."
        )
    ring.set_password(SERVICE, ACCOUNT, key)


def delete_api_key() -> None:
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
