"""``monet librarian``: the librarian as its own process, and its schedule.

    monet librarian --home DIR --once        one pass, then exit (for cron/launchd/systemd)
    monet librarian --home DIR --watch       a pass every interval until stopped
    monet librarian install-schedule [--write] [--kind launchd|systemd|cron]

It is safe beside the open app and other librarians (leases, see ``cms.librarian``).
Summaries come from Claude (``librarian_model``, a cheaper model) and are priced in the
ledger under purpose ``librarian``; with no key, the offline summarizer stands in and the
command says so.
"""

from __future__ import annotations

import logging
import os
import shlex
import shutil
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import TextIO

from cms.clock import Clock
from monet_app.operations.librarian import librarian_pass, service_beat, service_gone
from monet_app.services.wiring import build_core, env_request_log
from storage.errors import UserFacingError

log = logging.getLogger("monet.librarian")


def run(home: Path, *, watch: bool, interval_seconds: float | None, offline: bool,
        clock: Clock, out: TextIO = sys.stdout) -> int:
    core = build_core(home, clock=clock, summarizer="offline" if offline else "auto",
                      request_log=env_request_log())
    librarian = core.librarian
    try:
        stop = threading.Event()
        if watch:  # before the first line: once it is out, a stop signal ends it cleanly
            for sig in (signal.SIGINT, signal.SIGTERM):
                signal.signal(sig, lambda *_: stop.set())
        fallback = librarian.offline_proposals()
        print(f"librarian: {core.librarian_note}; {librarian.pending_count()} pending"
              + (f"; {fallback}" if fallback else ""), file=out, flush=True)
        wait = (interval_seconds if interval_seconds is not None
                else core.settings.librarian_interval_minutes * 60)
        librarian.interval = timedelta(seconds=wait)  # what the backoff doubles
        first = True
        while True:
            try:
                if watch and core.db.server:  # the windows leave the passes to this one
                    service_beat(core, datetime.now().astimezone()
                                 + timedelta(seconds=2 * wait + 60))
                # after the first, a pass runs when due: while the model keeps failing,
                # the wait doubles (Librarian.due) and a pass sends one probe
                report = librarian_pass(core, when_due=not first).value
                first = False
                if report.written or report.failed or report.held_back or not watch:
                    print(f"librarian: {report.text()}; {librarian.pending_count()} pending",
                          file=out, flush=True)
            except UserFacingError as exc:
                if not watch:
                    raise
                # another process holds the write lock, a disk is full...: only a stop
                # signal ends --watch; the next pass tries again
                print(f"librarian: {exc} Trying again in {wait:g} s.", file=out, flush=True)
            except Exception:
                if not watch:
                    raise
                log.exception("librarian pass failed; trying again at the next interval")
                print(f"librarian: a pass failed (see monet.log); trying again in {wait:g} s.",
                      file=out, flush=True)
            if not watch or stop.wait(wait):
                break
        if watch and core.db.server:
            service_gone(core)
    finally:
        core.close()
    return 0


# ----- the schedule ---------------------------------------------------------------------
@dataclass
class Schedule:
    kind: str
    files: dict[Path, str]  # what --write writes (none for a crontab line)
    text: str  # what is printed
    activate: list[list[str]]  # commands that turn it on
    #: what the person should know before relying on it (the service's key, linger)
    notes: list[str] = field(default_factory=list)


#: The environment file a librarian service reads its API key from, when the keyring is
#: out of its reach (a NAS without a desktop session): the person writes it, mode 0600,
#: with one line ``ANTHROPIC_API_KEY=sk-ant-...``; MONET never writes a key to a file.
SERVICE_ENV = Path(".config") / "monet" / "librarian.env"
#: The most of that file that is read (a line or two).
SERVICE_ENV_LIMIT = 64 * 1024


def schedule_for(home: Path, kind: str | None = None, at: str = "04:00") -> Schedule:
    kind = kind or ("launchd" if sys.platform == "darwin"
                    else "systemd" if shutil.which("systemctl") else "cron")
    # a scheduler starts the command elsewhere (systemd: in the user's home): the data
    # folder is named by its absolute path, whatever was given
    home = home.expanduser().resolve()
    hour, minute = (int(x) for x in at.split(":"))
    # a frozen bundle (PyInstaller) is the monet command itself
    runner = [sys.executable] if getattr(sys, "frozen", False) \
        else [sys.executable, "-m", "monet_app.cli"]
    argv = [*runner, "librarian", "--once", "--home", str(home)]
    log = home / "librarian.log"
    if kind == "launchd":
        path = Path.home() / "Library" / "LaunchAgents" / "app.monet.librarian.plist"
        args = "".join(f"\n        <string>{a}</string>" for a in argv)
        text = f"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
    <key>Label</key>
    <string>app.monet.librarian</string>
    <key>ProgramArguments</key>
    <array>{args}
    </array>
    <key>StartCalendarInterval</key>
    <dict>
        <key>Hour</key>
        <integer>{hour}</integer>
        <key>Minute</key>
        <integer>{minute}</integer>
    </dict>
    <key>StandardOutPath</key>
    <string>{log}</string>
    <key>StandardErrorPath</key>
    <string>{log}</string>
</dict>
</plist>
"""
        return Schedule(kind, {path: text}, text, [["launchctl", "load", "-w", str(path)]])
    if kind == "systemd":
        folder = Path.home() / ".config" / "systemd" / "user"
        command = " ".join(shlex.quote(a) for a in argv)
        service = f"""[Unit]
Description=MONET librarian: summaries and the daily context summary

[Service]
Type=oneshot
ExecStart={command}
"""
        timer = f"""[Unit]
Description=Run the MONET librarian daily at {at}

[Timer]
OnCalendar=*-*-* {hour:02d}:{minute:02d}:00
Persistent=true

[Install]
WantedBy=timers.target
"""
        files = {
            folder / "monet-librarian.service": service,
            folder / "monet-librarian.timer": timer,
        }
        text = "".join(f"# {path}\n{content}\n" for path, content in files.items())
        return Schedule(kind, files, text, [
            ["systemctl", "--user", "daemon-reload"],
            ["systemctl", "--user", "enable", "--now", "monet-librarian.timer"],
        ])
    if kind == "service":
        return _service(home, runner)
    if kind == "cron":
        command = " ".join(shlex.quote(a) for a in argv)
        line = f"{minute} {hour} * * * {command} >> {shlex.quote(str(log))} 2>&1"
        return Schedule(kind, {}, line + "\n", [])
    raise UserFacingError(
        "Unknown schedule kind {kind!r}: use launchd, systemd, cron or service.", kind=kind)


def _service(home: Path, runner: list[str]) -> Schedule:
    """The librarian as a service beside a shared history (issue 31): a systemd user unit
    that runs ``monet librarian --watch`` against the history's server, restarted when it
    stops; the windows of every device leave the passes to it while it runs. The URL goes
    into the unit without a password: the password comes from ~/.pgpass (or the keyring)
    of the user the unit runs as, never from a file others may read."""
    from storage.where import database_url, server_url_parts

    url = database_url(home)
    if url is None:
        raise UserFacingError(
            "The librarian service runs beside a history on a PostgreSQL server; this data "
            "folder's history is its SQLite file (use --kind systemd for a daily pass, or "
            "--database-url postgresql://...).")
    if server_url_parts(url).password:
        raise UserFacingError(
            "The database URL holds a password; a service unit is a file others may read. "
            "Put the password in ~/.pgpass (host:port:database:user:password, mode 600) "
            "and give the URL without it. Nothing was written.")
    env_file = Path.home() / SERVICE_ENV
    notes = [_key_note(env_file), _linger_note()]
    argv = [*runner, "librarian", "--watch", "--home", str(home), "--database-url", url]
    command = " ".join(shlex.quote(a) for a in argv)
    path = Path.home() / ".config" / "systemd" / "user" / "monet-librarian-service.service"
    text = f"""[Unit]
Description=MONET librarian service: summaries and memories of a shared history
After=network-online.target

[Service]
Type=simple
# the API key: ANTHROPIC_API_KEY in this file (mode 0600, yours), else the keyring
EnvironmentFile=-{env_file}
ExecStart={command}
Restart=on-failure
RestartSec=30

[Install]
WantedBy=default.target
"""
    return Schedule("service", {path: text}, f"# {path}\n{text}", [
        ["systemctl", "--user", "daemon-reload"],
        ["systemctl", "--user", "enable", "--now", "monet-librarian-service.service"],
    ], notes)


def _key_note(env_file: Path) -> str:
    """Where the service will find its API key, said before it is installed: a service
    without one summarizes offline (and the windows that have a key do their own
    passes). An environment file others may read is refused."""
    from monet_app.services.keys import load_api_key
    from storage.files import NotAFile, TooLarge, read_measured

    if env_file.exists() or env_file.is_symlink():
        try:
            info = env_file.stat()
            text = read_measured(env_file, SERVICE_ENV_LIMIT, "key file").decode(
                "utf-8", "replace")
        except (OSError, NotAFile, TooLarge) as exc:
            raise UserFacingError("{file} cannot be read as the service's key file ({why}); "
                                  "nothing was written.", file=env_file, why=exc) from exc
        if os.name == "posix" and (info.st_mode & 0o077 or info.st_uid != os.getuid()):
            raise UserFacingError(
                "{file} holds the service's API key but other accounts may read it (or it is "
                "not yours). Run: chmod 600 {file}; nothing was written.", file=env_file)
        if any(line.strip().startswith("ANTHROPIC_API_KEY=") and line.split("=", 1)[1].strip()
               for line in text.splitlines()):
            return f"API key: the service reads it from {env_file} (mode 600)."
        return (f"API key: {env_file} has no ANTHROPIC_API_KEY=... line, so the service "
                "will summarize offline; windows that have a key do their own passes.")
    key, where = load_api_key(environment=False)  # (what the service's own start finds)
    if key and where == "keyring":
        return ("API key: the service reads it from your keyring, as you. On a machine "
                "without a desktop session the keyring may stay locked: then put the line "
                f"ANTHROPIC_API_KEY=sk-ant-... in {env_file} (chmod 600).")
    if os.environ.get("ANTHROPIC_API_KEY", "").strip():
        return ("API key: the ANTHROPIC_API_KEY of this shell is not the service's, so it "
                "would summarize offline; windows that have a key do their own passes. Put "
                f"the line ANTHROPIC_API_KEY=sk-ant-... in {env_file} (chmod 600).")
    return ("API key: none the service can read, so it will summarize offline and windows "
            "that have a key do their own passes. Put the line ANTHROPIC_API_KEY=sk-ant-... "
            f"in {env_file} (chmod 600), or keep the key in the keyring from MONET's "
            "Settings.")


def _linger_note() -> str:
    """Whether the user's services run while nobody is logged in (systemd's linger)."""
    import getpass

    user = getpass.getuser()
    state = ""
    if shutil.which("loginctl"):
        try:
            done = subprocess.run(["loginctl", "show-user", user, "--property=Linger",
                                   "--value"], capture_output=True, text=True, check=False,
                                  timeout=10)
            state = done.stdout.strip() if done.returncode == 0 else ""
        except (OSError, subprocess.TimeoutExpired):
            state = ""
    if not state:
        state = "yes" if (Path("/var/lib/systemd/linger") / user).exists() else "unknown"
    if state == "yes":
        return f"Linger: on for {user}; the service runs while you are logged out."
    return (f"Linger: {'off' if state == 'no' else 'not known'} for {user}; without it the "
            f"service stops when you log out. Run once: sudo loginctl enable-linger {user}")


def install(schedule: Schedule, out: TextIO = sys.stdout) -> int:
    """Write the schedule and turn it on where this machine can; say what was done."""
    for path, content in schedule.files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, "utf-8")
        print(f"written: {path}", file=out)
    if schedule.kind == "cron":
        if not shutil.which("crontab"):
            raise UserFacingError("crontab is not available here; add this line by hand:\n{line}",
                                  line=schedule.text)
        current = subprocess.run(
            ["crontab", "-l"], capture_output=True, text=True, check=False
        ).stdout
        if schedule.text.strip() not in current:
            new = (current.rstrip("\n") + "\n" if current.strip() else "") + schedule.text
            subprocess.run(["crontab", "-"], input=new, text=True, check=True)
        print("installed in your crontab", file=out)
        return 0
    for command in schedule.activate:
        if shutil.which(command[0]):
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            status = "ok" if done.returncode == 0 else f"failed: {done.stderr.strip()}"
            print(f"{' '.join(command)}: {status}", file=out)
        else:
            print(f"run: {' '.join(command)}", file=out)
    for note in schedule.notes:
        print(note, file=out)
    return 0
