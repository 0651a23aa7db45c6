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

from cms.librarian.runner import LibrarianReport
from monet_app.operations.changes import Changes, Done
from monet_app.services.gate import Work
from monet_app.services.wiring import Core
from storage.settings import read_value, write_value

#: The librarian service's heartbeat in a shared history (``setting``): where it runs,
#: its process and until when it promises its next pass.
SERVICE_KEY = "librarian_service"


def service_beat(core: Core, until: datetime) -> None:
    """The service's heartbeat (``monet librarian --watch`` on a server's history): windows
    leave the passes to it until ``until``."""
    with core.gate.hold(Work.LIBRARIAN), core.db.session() as session:
        write_value(session, SERVICE_KEY, {
            "host": socket.gethostname(), "pid": os.getpid(), "until": until.isoformat()})


def service_gone(core: Core) -> None:
    """The service stops: the windows run their own passes again."""
    with core.gate.hold(Work.LIBRARIAN), core.db.session() as session:
        beat = read_value(session, SERVICE_KEY)
        if isinstance(beat, dict) and beat.get("pid") == os.getpid() \
                and beat.get("host") == socket.gethostname():
            write_value(session, SERVICE_KEY, None)


def _service_elsewhere(core: Core) -> str:
    """The host of a librarian service that runs the passes of this (shared) history now,
    or "" (none, this process, its promise expired, or a history of one device)."""
    if not core.db.server:
        return ""
    with core.db.session() as session:
        beat = read_value(session, SERVICE_KEY)
    if not isinstance(beat, dict):
        return ""
    if beat.get("pid") == os.getpid() and beat.get("host") == socket.gethostname():
        return ""
    try:
        fresh = datetime.fromisoformat(str(beat.get("until"))) > datetime.now().astimezone()
    except ValueError:
        return ""
    return str(beat.get("host") or "the server") if fresh else ""


def librarian_pass(core: Core, *, when_due: bool = False,
                   embed: bool = True) -> Done[LibrarianReport]:
    """Run what is due now (the settings it reads are the core's at this pass).
    ``when_due``: only when a pass is due (``Librarian.due``: while the model keeps
    failing, the wait between passes doubles, up to an hour); else nothing is done.
    ``embed``: the messages' vectors too (the window asks ``embed_messages`` after)."""
    with core.gate.hold(Work.LIBRARIAN):
        service = _service_elsewhere(core)
        if service:  # the service on the server does the passes of a shared history
            return Done(LibrarianReport(service=service))
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
