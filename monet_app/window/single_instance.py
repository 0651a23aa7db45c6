"""One window per data folder (issue 12, defect 13).

Two MONET windows on the same home each keep their own idea of what is pending (folds,
placeholders, the librarian's schedule, the open day), so they disagree and overwrite
each other's view. A second launch on the same home therefore does not open a window: it
asks the running one to come forward and exits.

How:

- The running app listens on a ``QLocalServer`` (a Unix domain socket, a named pipe on
  Windows) whose name is derived from the resolved home path and the user, so two
  different homes run side by side and two users never meet.
- On Unix the socket lives in a folder only this user can enter (``$XDG_RUNTIME_DIR/monet``
  or ``<temp>/monet-<uid>``, mode 0700, owned by the user; a folder someone else made or
  opened to others is not used). In the shared temporary folder another local user could
  listen first on a predictable name and keep MONET from starting (or answer for it).
  With no such folder MONET starts without the guard and logs why.
- A launch first tries to connect. If something answers, it sends ``show`` and waits a
  moment for ``ok``: the running window was brought forward. Otherwise it becomes the
  running app: ``removeServer`` clears a socket a crashed MONET left behind, then it
  listens.
- The connect-or-listen step is guarded by a ``QLockFile`` beside the socket, so two
  launches at the same instant cannot both find nobody and both listen (on Unix the
  second ``removeServer`` would unlink the first one's socket).
- If listening fails anyway (an unusual temporary folder, a name clash with another
  program), MONET starts as the first instance and logs why: refusing to open the
  window would be worse than the defect this guards against.
"""

from __future__ import annotations

import enum
import getpass
import hashlib
import logging
import os
import stat
import time
from pathlib import Path

from PySide6.QtCore import QDir, QLockFile, QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

log = logging.getLogger(__name__)

#: How long a launch waits for a running MONET to accept its connection.
CONNECT_TIMEOUT_MS = 500
#: How long a launch waits for the running MONET to say its window came forward. It may
#: be starting (opening the database) or closing (finishing a reply), so no event loop
#: is turning yet: a missing answer still means "running", never "start another".
ANSWER_TIMEOUT_MS = 2_000
#: How long a launch waits for another launch's connect-or-listen step to finish.
LOCK_TIMEOUT_MS = 5_000
LOCK_RETRY_S = 0.01

SHOW = b"show\n"
OK = b"ok\n"


class Answer(enum.Enum):
    """What a later launch learned from the running MONET."""

    #: The running window came forward.
    SHOWN = "shown"
    #: Something listens but did not answer in time (starting, closing, or busy).
    SILENT = "silent"


def private_dir() -> Path | None:
    """A folder for the socket that only this user can enter (Unix), or None."""
    uid = os.getuid()
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    candidates = [Path(runtime) / "monet"] if runtime else []
    candidates.append(Path(QDir.tempPath()) / f"monet-{uid}")
    for folder in candidates:
        try:
            folder.mkdir(mode=0o700, exist_ok=True)
            info = folder.lstat()
        except OSError as exc:
            log.warning("single instance: %s cannot be used: %s", folder, exc)
            continue
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != uid:
            log.warning("single instance: %s is not this user's folder; not used", folder)
            continue
        if info.st_mode & 0o077:
            try:  # ours, but opened to others (a umask, a hand): close it
                folder.chmod(0o700)
            except OSError:
                continue
        return folder
    return None


def server_name(home: Path) -> str:
    """The local server's name for ``home``: the same folder reached by another path
    (relative, ``~``, a symbolic link) gives the same name; another folder or another
    user gives another. On Unix a full path in this user's private folder (short enough
    for a socket path); "" when there is none."""
    resolved = str(home.expanduser().resolve())
    if hasattr(os, "getuid"):
        folder = private_dir()
        if folder is None:
            return ""
        digest = hashlib.sha256(resolved.encode("utf-8")).hexdigest()[:16]
        return str(folder / f"monet-{digest}")
    # Windows: named pipes are visible to every session, so the user goes into the hash.
    try:
        user = getpass.getuser()
    except (OSError, KeyError, ImportError):  # no user name in the environment
        user = ""
    digest = hashlib.sha256(f"{user}\n{resolved}".encode()).hexdigest()[:16]
    return f"monet-{digest}"


def _take(lock: QLockFile) -> bool:
    """Takes ``lock`` within ``LOCK_TIMEOUT_MS``, trying every few milliseconds: it is
    held only for a connect or a listen, and ``tryLock(timeout)`` backs off up to seconds
    between attempts, which launches started together would all wait through."""
    deadline = time.monotonic() + LOCK_TIMEOUT_MS / 1000
    while not lock.tryLock(0):
        if time.monotonic() >= deadline:
            return False
        time.sleep(LOCK_RETRY_S)
    return True


class SingleInstance(QObject):
    """Claims ``home`` for this process, or asks the MONET that holds it to come forward.

    ``claim()`` returns True when this process is the first (it now listens) and False
    when another MONET runs on the same home (``answer`` then says whether its window
    came forward). ``activated`` is emitted in the first process each time a later
    launch asks it to show its window. Keep the object alive while the app runs and
    ``close()`` it on quit.
    """

    activated = Signal()

    def __init__(self, home: Path, parent: QObject | None = None, *,
                 answer_timeout_ms: int = ANSWER_TIMEOUT_MS) -> None:
        super().__init__(parent)
        self.home = home
        self.answer_timeout_ms = answer_timeout_ms
        self.name = server_name(home)
        self.answer: Answer | None = None
        self._server: QLocalServer | None = None
        self._buffers: dict[QLocalSocket, bytes] = {}

    @property
    def listening(self) -> bool:
        return self._server is not None and self._server.isListening()

    def claim(self) -> bool:
        if not self.name:
            log.warning("single instance: no private folder for the socket; starting "
                        "without the guard (a second launch on %s will not be stopped)",
                        self.home)
            return True
        lock = QLockFile(f"{self.name}.lock" if os.path.isabs(self.name)
                         else str(Path(QDir.tempPath()) / f"{self.name}.lock"))
        locked = _take(lock)
        if not locked:
            log.warning("single instance: lock %s not taken (%s); going on without it",
                        self.name, lock.error())
        try:
            answer = self._ask_running()
            if answer is not None:
                self.answer = answer
                return False
            self._listen()
            return True
        finally:
            if locked:
                lock.unlock()

    def close(self) -> None:
        """Stops listening (the socket file goes away) and drops waiting connections."""
        for socket in list(self._buffers):
            socket.abort()
        self._buffers.clear()
        if self._server is not None:
            self._server.close()
            self._server.deleteLater()
            self._server = None

    # -- a later launch ---------------------------------------------------------------

    def _ask_running(self) -> Answer | None:
        socket = QLocalSocket(self)
        try:
            socket.connectToServer(self.name)
            if not socket.waitForConnected(CONNECT_TIMEOUT_MS):
                return None  # nobody listens (or a stale socket file: connection refused)
            socket.write(SHOW)
            socket.waitForBytesWritten(CONNECT_TIMEOUT_MS)
            reply = b""
            while OK not in reply and socket.waitForReadyRead(self.answer_timeout_ms):
                reply += socket.readAll().data()
            return Answer.SHOWN if OK in reply else Answer.SILENT
        finally:
            socket.abort()
            socket.deleteLater()

    # -- the first launch -------------------------------------------------------------

    def _listen(self) -> None:
        QLocalServer.removeServer(self.name)  # a socket left behind by a crash
        server = QLocalServer(self)
        server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        server.newConnection.connect(self._accept)
        if server.listen(self.name):
            self._server = server
            return
        log.warning("single instance: cannot listen on %s (%s); starting anyway, a second "
                    "launch on %s will not be stopped", self.name, server.errorString(),
                    self.home)
        server.deleteLater()

    def _accept(self) -> None:
        server = self._server
        while server is not None and server.hasPendingConnections():
            socket = server.nextPendingConnection()
            self._buffers[socket] = b""
            socket.readyRead.connect(lambda s=socket: self._read(s))
            socket.disconnected.connect(lambda s=socket: self._drop(s))
            self._read(socket)  # what arrived before the connection was taken

    def _read(self, socket: QLocalSocket) -> None:
        if socket not in self._buffers:
            return
        data = self._buffers[socket] + socket.readAll().data()
        if SHOW not in data:
            self._buffers[socket] = data[-len(SHOW):]  # a request split across reads
            return
        self._buffers[socket] = b""
        self.activated.emit()
        if socket.state() == QLocalSocket.LocalSocketState.ConnectedState:
            socket.write(OK)
            socket.flush()
            socket.disconnectFromServer()

    def _drop(self, socket: QLocalSocket) -> None:
        if self._buffers.pop(socket, None) is not None:
            socket.deleteLater()
