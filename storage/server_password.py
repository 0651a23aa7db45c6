"""The history server's password from the OS keyring (issue 31, ``docs/postgresql.md``).

A URL may carry its password (``postgresql://me:pw@nas/monet``), but a URL is easily
copied into a file, a unit or a shell history. So MONET also reads it from the OS keyring
(``monet server-password`` stores it there), under the service ``MONET database`` and the
account ``user@host:port/database``; libpq's own ``~/.pgpass`` works as well. The order:
the URL's own password, then the keyring, then libpq (``PGPASSWORD``, ``~/.pgpass``).

A keyring may be slow (a D-Bus call, an unlock prompt), so a process asks it once per
account and keeps the answer for its lifetime: the window's first opening runs on a worker
(``monet_app/window/reach.py``), and the openings after it find the answer kept.
"""

from __future__ import annotations

import threading
from typing import Any

from storage.errors import KeyStoreError

SERVICE = "MONET database"

_kept: dict[str, str | None] = {}
_lock = threading.Lock()


def account(url: str) -> str:
    """``user@host:port/database`` of ``url`` (the keyring's account name)."""
    from sqlalchemy.engine import make_url

    parts = make_url(url)
    return (f"{parts.username or ''}@{parts.host or 'localhost'}:{parts.port or 5432}"
            f"/{parts.database or ''}")


def _keyring() -> Any | None:
    try:
        import keyring
        from keyring.backends import fail
    except ImportError:
        return None
    return None if isinstance(keyring.get_keyring(), fail.Keyring) else keyring


def keyring_password(url: str) -> str | None:
    """The password the keyring keeps for ``url``'s account, or None: when the URL has its
    own, when there is no keyring or nothing in it (libpq then looks in ``~/.pgpass``)."""
    from sqlalchemy.engine import make_url

    if make_url(url).password is not None:
        return None
    name = account(url)
    with _lock:
        if name in _kept:
            return _kept[name]
    ring = _keyring()
    found: str | None = None
    if ring is not None:
        try:
            found = ring.get_password(SERVICE, name) or None
        except Exception:  # noqa: BLE001 - a locked or broken keyring: libpq's turn
            found = None
    with _lock:
        _kept[name] = found
    return found


def drop_kept() -> None:
    """Ask the keyring again at the next opening (the window's Try again: a password
    stored meanwhile by ``monet server-password`` is found)."""
    with _lock:
        _kept.clear()


def store_password(url: str, password: str) -> str:
    """Keep ``password`` in the OS keyring for ``url``'s account; returns the account."""
    if not password:
        raise KeyStoreError("The password is empty; nothing was stored.")
    ring = _keyring()
    if ring is None:
        raise KeyStoreError(
            "No OS keyring is available on this system. Put the password in ~/.pgpass "
            "(host:port:database:user:password, mode 0600) instead; MONET never writes it "
            "in a file of its own.")
    name = account(url)
    try:
        ring.set_password(SERVICE, name, password)
    except Exception as exc:  # noqa: BLE001 - said in words, without the password
        raise KeyStoreError("The OS keyring refused to store the password "
                            "({kind}); nothing was stored.", kind=type(exc).__name__) from None
    with _lock:
        _kept[name] = password
    return name


def forget_password(url: str) -> str:
    """Remove ``url``'s account from the keyring (nothing stored is fine)."""
    name = account(url)
    ring = _keyring()
    if ring is not None:
        try:
            ring.delete_password(SERVICE, name)
        except Exception:  # noqa: BLE001 - nothing was stored
            pass
    with _lock:
        _kept.pop(name, None)
    return name
