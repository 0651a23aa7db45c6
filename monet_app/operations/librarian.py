"""One librarian pass from the window: summaries, memories, the daily context summary.

Safe beside ``monet librarian`` processes (leases, ``cms/librarian/runner.py``).
"""

from __future__ import annotations

from monet_app.services.wiring import Core


def librarian_pass(core: Core) -> int:
    """Run what is due now; returns how many summaries were written."""
    return core.librarian_pass()
