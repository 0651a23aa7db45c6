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
import shlex
import shutil
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass
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


def schedule_for(home: Path, kind: str | None = None, at: str = "04:00") -> Schedule:
    kind = kind or ("launchd" if sys.platform == "darwin"
                    else "systemd" if shutil.which("systemctl") else "cron")
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
    argv = [*runner, "librarian", "--watch", "--home", str(home), "--database-url", url]
    command = " ".join(shlex.quote(a) for a in argv)
    path = Path.home() / ".config" / "systemd" / "user" / "monet-librarian-service.service"
    text = f"""[Unit]
Description=MONET librarian service: summaries and memories of a shared history
After=network-online.target

[Service]
Type=simple
ExecStart={command}
Restart=on-failure
RestartSec=30

[Install]
WantedBy=default.target
"""
    return Schedule("service", {path: text}, f"# {path}\n{text}", [
        ["systemctl", "--user", "daemon-reload"],
        ["systemctl", "--user", "enable", "--now", "monet-librarian-service.service"],
    ])


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
    return 0
