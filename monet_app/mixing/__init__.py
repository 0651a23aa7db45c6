"""Topic mixing: does Claude keep topics apart once a day's tabs share one stream?

The sunset model puts a day's chat, work and research talk into one stream; the thread
model kept them apart. ``monet check-mixing`` measures the difference instead of hoping:
it replays built-in mixed days (``days.json``: Japanese and English, four interleaved
tabs, words shared across tabs) as both models through the app's own context manager,
gateway and prompt, asks probe questions whose right answer depends on the tab, and
judges each answer by rule (right / mixed up / other).

- ``days.py``: the mixed days and the rules that judge an answer.
- ``check.py``: the run (throwaway data folders, the answer-key stand-in or Claude,
  the grader, the usage ledger), the cost estimate and the report (JSON and a table).
- ``ui/mixing_dialog.py``: the window's "Check topic mixing…", beside the sunset-model
  switch in Settings, fed by ``check.WindowCheck``.

This module stays light (argparse only): the ``monet`` command builds its parser from
it on every start.

    monet check-mixing [--home DIR] [--live [--yes]] [--model M] [--out REPORT] [--json]
                       [--standin right|wrong|echo|tab-blind] [--grader [--grader-model M]]
                       [--core-prompt FILE] [--day ID ...]

Exit status: 0 when the report was made (whatever it says: a mixed-up answer is a
finding, not a failure of the command), 1 when a live run was not confirmed, 2 for a
sentence the person can act on (no key, ``--grader`` without ``--live``, ...).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from monet_app.mixing.days import STANDIN_MODES


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Add ``check-mixing`` to the ``monet`` command's subparsers."""
    ck: argparse.ArgumentParser = sub.add_parser(
        "check-mixing",
        help="does Claude keep topics apart in one daily stream? (built-in mixed days, "
             "sunset model vs thread model)",
    )
    ck.add_argument("--home", dest="sub_home", metavar="DIR",
                    help="data folder: its settings and key, its usage ledger, the last report")
    ck.add_argument("--live", action="store_true",
                    help="answers from Claude (ANTHROPIC_BASE_URL honoured, the key from the "
                         "usual places); says the cost and asks first")
    ck.add_argument("--yes", action="store_true", help="with --live: go ahead without asking")
    ck.add_argument("--model", metavar="M", help="the chat model to check (default: the setting)")
    ck.add_argument("--out", type=Path, metavar="REPORT", help="also write the JSON report here")
    ck.add_argument("--json", action="store_true",
                    help="print the JSON report instead of the table")
    ck.add_argument("--standin", choices=STANDIN_MODES, default=None,
                    help="without --live: how the built-in stand-in answers (default right; "
                         "wrong gives the other tab's fact, tab-blind ignores the tab labels)")
    ck.add_argument("--grader", action="store_true",
                    help="with --live: a second opinion per probe from a Claude grader")
    ck.add_argument("--grader-model", metavar="M",
                    help="the grader's model (default: the librarian model)")
    ck.add_argument("--core-prompt", type=Path, metavar="FILE",
                    help="pinned instructions to measure instead of the setting's (before/after)")
    ck.add_argument("--day", action="append", default=[], metavar="ID",
                    help="only this built-in day (repeatable): ja-1, ja-2, en-1, en-2")
    return ck


def main(args: argparse.Namespace, home: Path) -> int:
    """``monet check-mixing``: the table (or ``--json``) on stdout; the report kept in
    ``home``."""
    from monet_app.mixing import check
    from storage.errors import InputError

    if args.live and args.standin is not None:
        raise InputError("--standin chooses the built-in stand-in's answers; with --live "
                         "Claude answers. Use one of them.")
    core_prompt = source = None
    if args.core_prompt is not None:
        try:
            core_prompt = Path(args.core_prompt).read_text("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(
                "Cannot read the pinned instructions {core_prompt} ({kind}).",
                core_prompt=args.core_prompt, kind=exc.__class__.__name__) from None
        source = str(args.core_prompt)
    options = check.CheckOptions(
        live=args.live, standin=args.standin or "right", model=args.model,
        grader=args.grader, grader_model=args.grader_model, core_prompt=core_prompt,
        core_prompt_source=source or "", days=tuple(args.day),
    ).checked()
    if options.live:
        check.gateway_ready()
        estimate = check.estimate_cost(home, options)
        if not check.confirm(estimate, yes=args.yes):
            print("monet: not run; nothing was spent.", file=sys.stderr)
            return 1

    def progress(done: int, total: int) -> None:
        if sys.stderr.isatty():
            end = "\n" if done == total else ""
            print(f"\rcheck-mixing: {done}/{total} probes", end=end, file=sys.stderr, flush=True)

    report = check.run_check(home, options, progress=progress)
    if args.out is not None:
        check.write_json(args.out, report)
    if args.json:
        import json

        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        print(check.report_table(report))
    print(f"report kept in {check.report_path(home)}"
          + (f" and written to {args.out}" if args.out is not None else ""),
          file=sys.stderr if args.json else sys.stdout)
    return 0
