"""One librarian pass: summaries, memories, the daily context summary, the messages'
vectors (the window's schedule, ``monet librarian``).

``Work.LIBRARIAN`` in the gate: one pass at a time in a process, never during a restore;
beside ``monet librarian`` processes it is kept safe by leases (``cms/librarian/runner.py``).
"""

from __future__ import annotations

from cms.librarian.runner import LibrarianReport
from monet_app.operations.changes import Changes, Done
from monet_app.services.gate import Work
from monet_app.services.wiring import Core


def librarian_pass(core: Core, *, when_due: bool = False,
                   embed: bool = True) -> Done[LibrarianReport]:
    """Run what is due now (the settings it reads are the core's at this pass).
    ``when_due``: only when a pass is due (``Librarian.due``: while the model keeps
    failing, the wait between passes doubles, up to an hour); else nothing is done.
    ``embed``: the messages' vectors too (the window asks ``embed_messages`` after)."""
    with core.gate.hold(Work.LIBRARIAN):
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
        if core.embeds:
            core.librarian.embed_messages(report)
        core.unembedded = report.unembedded
    return Done(report, Changes(timeline=True) if report.embedded else Changes())
