"""A throwaway PostgreSQL cluster for the tests (issue 31): made with the distribution's
``initdb`` in a folder of its own, on a free local port, with fsync off (a test's data
need not survive a power cut), and removed afterwards.

    python -m tests.pg_cluster start FOLDER    # prints the cluster's URL
    python -m tests.pg_cluster stop FOLDER

``.ci/run`` starts one before the tests and sets ``MONET_TEST_DATABASE_URL`` to it; without
that variable the test session starts one itself when PostgreSQL's programs are installed
(``tests/conftest.py``), and the PostgreSQL tests are skipped when they are not. PostgreSQL
refuses to run as root: as root, the cluster is made and run as the ``postgres`` user the
distribution's package creates.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

#: The cluster's superuser: the tests connect as it (it may create databases and the
#: pg_trgm extension).
USER = "monet"


def program(name: str) -> str | None:
    """A PostgreSQL program: on the PATH, or in the newest /usr/lib/postgresql/N/bin
    (Debian and Ubuntu keep them there)."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit()
                        else 0)
    return candidates[-1] if candidates else None


def available() -> bool:
    return all(program(name) for name in ("initdb", "pg_ctl"))


def _as_owner(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start(folder: Path, password: str | None = None, options: str = "") -> str:
    """Make and start a cluster in ``folder``; returns its URL (the ``postgres``
    database, as the superuser). With ``password``, logins need it (SCRAM) and the URL
    does not carry it; without, any login is trusted. ``options``: more server settings
    (``-c name=value ...``)."""
    initdb, pg_ctl = program("initdb"), program("pg_ctl")
    if initdb is None or pg_ctl is None:
        raise RuntimeError("PostgreSQL's initdb and pg_ctl are not installed")
    folder.mkdir(parents=True, exist_ok=True)
    data, sockets = folder / "data", folder / "sockets"
    sockets.mkdir(exist_ok=True)
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
        shutil.chown(sockets, "postgres", "postgres")
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE, "check": True}
    # C.UTF-8 as a packaged server's default locale would be: pg_trgm then takes Japanese
    # letters for letters (in the C locale it indexes none of them)
    command = [initdb, "-D", str(data), "-U", USER, "-A", "trust", "-E", "UTF8"]
    if password is not None:
        secret = folder / "pwfile"
        secret.write_text(password + "\n", "utf-8")
        if os.geteuid() == 0:
            shutil.chown(secret, "postgres", "postgres")
        command[command.index("trust")] = "scram-sha-256"
        command.append(f"--pwfile={secret}")
    try:
        subprocess.run(_as_owner([*command, "--locale=C.UTF-8"]), **quiet)  # type: ignore[call-overload]
    except subprocess.CalledProcessError:  # a system without that locale
        shutil.rmtree(data, ignore_errors=True)
        subprocess.run(_as_owner([*command, "--no-locale"]), **quiet)  # type: ignore[call-overload]
    port = _free_port()
    settings = (f"-p {port} -k {sockets} -c listen_addresses=127.0.0.1 -c fsync=off "
               "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200 "
               + options).strip()
    (folder / "options").write_text(settings, "utf-8")
    _run(folder, "start")
    return f"postgresql://{USER}@127.0.0.1:{port}/postgres"


def _run(folder: Path, verb: str) -> None:
    pg_ctl = program("pg_ctl")
    assert pg_ctl is not None
    options = (folder / "options").read_text("utf-8")
    command = [pg_ctl, "-D", str(folder / "data"), "-w", verb]
    if verb == "start":
        command[3:3] = ["-o", options, "-l", str(folder / "server.log")]
    else:
        command[3:3] = ["-m", "immediate"]
    subprocess.run(_as_owner(command), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                   check=True)


def pause(folder: Path) -> None:
    """The server goes away (as a crash would), its data kept."""
    _run(folder, "stop")


def resume(folder: Path) -> None:
    """The server back on the same port, with what it held."""
    _run(folder, "start")


def stop(folder: Path) -> None:
    pg_ctl = program("pg_ctl")
    if pg_ctl is None or not (folder / "data").exists():
        return
    subprocess.run(_as_owner([pg_ctl, "-D", str(folder / "data"), "-m", "immediate",
                              "-w", "stop"]), stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    verb, where = sys.argv[1], Path(sys.argv[2])
    if verb == "start":
        print(start(where))
    else:
        stop(where)
