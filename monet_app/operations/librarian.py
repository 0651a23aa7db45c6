"""One librarian pass: summaries, memories, the daily context summary, the messages'
vectors (the window's schedule, ``monet librarian``).

``Work.LIBRARIAN`` in the gate: one pass at a time in a process, never during a restore;
beside ``monet librarian`` processes it is kept safe by leases (``cms/librarian/runner.py``).

A shared history (a PostgreSQL server, issue 31) may have a librarian service on the
server (``monet librarian --watch``, installed by ``install-schedule --kind service``):
while its heartbeat promises a pass, a window's passes and embedding steps are left to it.
"""

from __future__ import annotations

import os
import socket
from datetime import datetime

from cms.librarian.runner import LibrarianReport, ServiceElsewhere
from monet_app.operations.changes import Changes, Done
from monet_app.services.gate import Work
from monet_app.services.wiring import Core
from storage.prompt_state import librarian_last_run
from storage.settings import read_value, write_value

#: The librarian service's heartbeat in a shared history (``setting``): where it runs,
#: its process, until when it promises its next pass, and whether it summarizes with
#: Claude ("model") or offline. (When its last pass ended is the history's own
#: ``librarian_last_run``.)
SERVICE_KEY = "librarian_service"


def service_beat(core: Core, until: datetime) -> None:
    """The service's heartbeat (``monet librarian --watch`` on a server's history): windows
    leave the passes to it until ``until``, unless it summarizes offline and they have a
    key (``_service_elsewhere``)."""
    by_model = core.librarian_by_model  # (the key looked for before the history's turn)
    with core.gate.hold(Work.LIBRARIAN), core.db.session() as session:
        write_value(session, SERVICE_KEY, {
            "host": socket.gethostname(), "pid": os.getpid(), "until": until.isoformat(),
            "summarizer": "model" if by_model else "offline"})


def service_gone(core: Core) -> None:
    """The service stops: the windows run their own passes again."""
    with core.gate.hold(Work.LIBRARIAN), core.db.session() as session:
        beat = read_value(session, SERVICE_KEY)
        if isinstance(beat, dict) and beat.get("pid") == os.getpid() \
                and beat.get("host") == socket.gethostname():
            write_value(session, SERVICE_KEY, None)


def _service_elsewhere(core: Core) -> ServiceElsewhere | None:
    """The librarian service that runs the passes of this (shared) history now, or None:
    none, this process, its promise expired, a history of one device, or a service that
    would summarize worse than this process (offline, while this one has a key: the
    window does its own passes then, and says nothing is left)."""
    if not core.db.server:
        return None
    with core.db.session() as session:
        beat = read_value(session, SERVICE_KEY)
        last_pass = librarian_last_run(session) or ""
    if not isinstance(beat, dict):
        return None
    if beat.get("pid") == os.getpid() and beat.get("host") == socket.gethostname():
        return None
    try:
        fresh = datetime.fromisoformat(str(beat.get("until"))) > datetime.now().astimezone()
    except ValueError:
        return None
    if not fresh:
        return None
    if beat.get("summarizer") != "model" and core.librarian_by_model:
        return None  # (an offline service: this process's Claude summarizes better)
    return ServiceElsewhere(str(beat.get("host") or "the server"), last_pass)


def librarian_pass(core: Core, *, when_due: bool = False,
                   embed: bool = True) -> Done[LibrarianReport]:
    """Run what is due now (the settings it reads are the core's at this pass).
    ``when_due``: only when a pass is due (``Librarian.due``: while the model keeps
    failing, the wait between passes doubles, up to an hour); else nothing is done.
    ``embed``: the messages' vectors too (the window asks ``embed_messages`` after)."""
    with core.gate.hold(Work.LIBRARIAN):
        core.service = service = _service_elsewhere(core)
        if service:  # the service on the server does the passes of a shared history
            return Done(LibrarianReport(service=service.host), Changes(timeline=True))
        if when_due and not core.librarian.due(ticking=True):
            return Done(LibrarianReport())
        report = core.librarian_report(embed=embed)
        if embed:
            core.unembedded = report.unembedded
    return Done(report, Changes(timeline=True))


def embed_messages(core: Core) -> Done[LibrarianReport]:
    """Vectors for the messages that have none (recall by meaning), a short step
    (``EMBED_SECONDS``); the window runs it after each pass, off the GUI thread."""
    with core.gate.hold(Work.LIBRARIAN):
        report = LibrarianReport()
        if core.embeds and not _service_elsewhere(core):
            core.librarian.embed_messages(report)
        core.unembedded = report.unembedded
    return Done(report, Changes(timeline=True) if report.embedded else Changes())
