"""The API key: where answers find it, and storing one the person pasted.

Asking the OS keyring may load its backends (~0.1 s) and wait on a locked keychain: the
window calls ``key_state`` on a worker. Storing is ``Work.NOTE`` in the gate.
"""

from __future__ import annotations

from dataclasses import dataclass

from monet_app.operations.changes import NOTHING, Done
from monet_app.services.gate import Work
from monet_app.services.keys import keyring_available, load_api_key, store_api_key
from monet_app.services.wiring import Core


@dataclass(frozen=True)
class KeyState:
    missing: bool  # answers need a key and none is found
    keyring: bool  # an OS keyring exists (a pasted key can be kept there)


def key_state(needs_key: bool) -> KeyState:
    """Whether a key is missing where answers need one, and whether a keyring exists."""
    missing = needs_key and load_api_key()[0] is None
    return KeyState(missing, keyring_available() if missing else True)


def has_key() -> bool:
    return load_api_key()[0] is not None


def store_key(core: Core, key: str) -> Done[str]:
    """Store a pasted key; the value says where it went ("keyring", or "session": kept
    until MONET quits where no keyring exists). The next request builds its client
    with it."""
    with core.gate.hold(Work.NOTE):
        where = store_api_key(key)
        core.drop_model()
    return Done(where, NOTHING)
