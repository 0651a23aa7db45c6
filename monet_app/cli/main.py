"""The ``monet`` command.

Errors the person can act on are printed as one sentence (exit 2); anything unexpected
prints a short line and writes the traceback to ``monet.log`` in the data folder.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from monet_app.services.version import monet_version

if TYPE_CHECKING:
    from monet_app.services.wiring import Core
from storage.errors import MemoryItemError, UserFacingError

log = logging.getLogger("monet")


def _on_off(value: str) -> bool:
    if value not in ("on", "off"):
        raise argparse.ArgumentTypeError("use on or off")
    return value == "on"


def _whole(low: int, high: int, what: str):  # type: ignore[no-untyped-def]
    """An argparse type: a whole number from ``low`` to ``high``, else a sentence."""

    def parse(value: str) -> int:
        try:
            number = int(value)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{what} must be a whole number (got {value!r})") from None
        if not low <= number <= high:
            raise argparse.ArgumentTypeError(
                f"{what} must be from {low:,} to {high:,} (got {value})")
        return number

    return parse


_ID = _whole(1, 2**63 - 1, "an id")
# Settings are checked by the settings' own rules (one sentence for all that is wrong);
# the parser only keeps numbers to sizes that can be stored.
_SETTING_INT = _whole(-(10**9), 10**9, "the number")


def _fraction(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a fraction like 0.3 is needed (got {value!r})") \
            from None
    if not -1e9 < number < 1e9:  # nan and inf; the range itself is the settings' to check
        raise argparse.ArgumentTypeError(f"the fraction must be a finite number (got {value})")
    return number


def _seconds(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seconds must be a number (got {value!r})") from None
    if not 0 < number <= 86_400:
        raise argparse.ArgumentTypeError(f"seconds must be from 0 to 86,400 (got {value})")
    return number


def _home(value: str | None) -> Path:
    from storage.database import default_home

    return Path(value).expanduser() if value else default_home()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="monet",
        description="MONET: one continuous conversation with Claude per day. "
        "With no command, the window opens.",
    )
    parser.add_argument("--home", help="data folder (default: MONET_HOME or the user data folder)")
    parser.add_argument("--demo", action="store_true",
                        help="open the window on a bundled sample history in a throwaway "
                             "folder (--home DIR keeps it); answered by a built-in stand-in")
    parser.add_argument("--version", action="version", version=f"monet {monet_version()}")
    parser.add_argument("--smoke", action="store_true",
                        help="a check for packagers: open the window (also with --demo), "
                             "print the time to its first paint, close it, exit 0")
    sub = parser.add_subparsers(dest="command")

    rp = sub.add_parser("replay", help="run a trace through MONET on a simulated clock")
    rp.add_argument("trace", type=Path)
    rp.add_argument("--home", dest="sub_home")
    rp.add_argument("--request-log", type=Path)
    rp.add_argument("--sunset", type=_on_off, metavar="on|off")
    rp.add_argument("--ceiling", type=_SETTING_INT, metavar="TOKENS")
    rp.add_argument("--low-water", type=_fraction, metavar="FRACTION")
    rp.add_argument("--keep", type=_SETTING_INT, metavar="N")
    rp.add_argument("--day-start", metavar="HH:MM")
    rp.add_argument("--librarian", type=_on_off, default=True, metavar="on|off")
    rp.add_argument("--meaning", type=_on_off, default=True, metavar="on|off",
                    help="embed messages for recall by meaning in the librarian's passes "
                         "(off: faster; search by words only)")
    rp.add_argument(
        "--live", action="store_true",
        help="send through the real gateway (ANTHROPIC_BASE_URL, key from the environment)",
    )

    sv = sub.add_parser(
        "standin-server", help="serve a local stand-in of Anthropic's Messages API"
    )
    sv.add_argument("--trace", type=Path, help="answer with this trace's replies")
    sv.add_argument("--port", type=_whole(0, 65_535, "a port"), default=8765)

    ex = sub.add_parser("export", help="write every stored message (JSONL or Markdown)")
    ex.add_argument("--home", dest="sub_home")
    ex.add_argument("--format", choices=["jsonl", "markdown"], default="jsonl")
    ex.add_argument("--day", metavar="YYYY-MM-DD")
    ex.add_argument("--out", type=Path)
    ex.add_argument("--attachments", type=Path, metavar="DIR",
                    help="also write every attached file into DIR")

    lb = sub.add_parser("librarian", help="summarize pending Timeline Index lines")
    lb.add_argument("action", nargs="?", choices=["install-schedule"])
    lb.add_argument("--home", dest="sub_home")
    mode = lb.add_mutually_exclusive_group()
    mode.add_argument("--once", action="store_true", help="one pass, then exit (the default)")
    mode.add_argument("--watch", action="store_true", help="a pass every interval until stopped")
    lb.add_argument("--interval", type=_seconds, metavar="SECONDS",
                    help="with --watch: seconds between passes (default: the setting)")
    lb.add_argument("--offline", action="store_true", help="use the offline summarizer")
    lb.add_argument("--write", action="store_true", help="with install-schedule: install it")
    lb.add_argument("--kind", choices=["launchd", "systemd", "cron", "service"],
                    help="with install-schedule: which scheduler (default: this machine's); "
                         "service: a systemd service beside a history on a server")

    se = sub.add_parser("search", help="find messages across all days (Japanese substrings too)")
    se.add_argument("query", nargs="+",
                    help="words to find; after -- they may start with a dash")
    se.add_argument("--home", dest="sub_home")
    se.add_argument("--json", action="store_true")
    se.add_argument("--limit", type=_whole(1, 10_000, "--limit"), default=50)

    me = sub.add_parser("memory", help="see, correct and delete what MONET remembers")
    me.add_argument("action", choices=["list", "show", "add", "edit", "keep", "delete"],
                    help="add TEXT: remember a fact in your own words (it replaces what it "
                         "says changed); keep N: of two contradicting items, N is true")
    me.add_argument("item", nargs="?", help="the item's number (add: the first word)")
    me.add_argument("text", nargs="*")
    me.add_argument("--home", dest="sub_home")
    me.add_argument("--json", action="store_true")
    me.add_argument("--messages", action="store_true",
                    help="with delete: delete the messages it came from too (default: keep "
                         "them in your history, hidden from Claude)")

    fo = sub.add_parser("forget", help="delete a message or a whole day, everywhere")
    target = fo.add_mutually_exclusive_group(required=True)
    target.add_argument("--day", metavar="YYYY-MM-DD")
    target.add_argument("--message", type=_ID, metavar="ID")
    fo.add_argument("--home", dest="sub_home")

    pr = sub.add_parser("promote", help="add a statement to the lasting core prompt")
    pr.add_argument("--home", dest="sub_home")
    pr.add_argument("--category", required=True, choices=["values", "decisions", "facts"])
    pr.add_argument("text", nargs="+")

    us = sub.add_parser("usage", help="tokens, cache reads/writes and dollars, per day")
    us.add_argument("--home", dest="sub_home")
    us.add_argument("--json", action="store_true")
    us.add_argument("--day", metavar="YYYY-MM-DD")

    tl = sub.add_parser("timeline", help="print the Timeline Index as it would be rendered now")
    tl.add_argument("--home", dest="sub_home")

    bk = sub.add_parser("backup", help="a consistent copy of the data folder, safe while "
                                       "MONET runs (one zip file)")
    bk.add_argument("--home", dest="sub_home")
    bk.add_argument("--out", type=Path, metavar="FILE",
                    help="where to write it (default: HOME/backups/monet-<when>.zip)")
    rs = sub.add_parser("restore", help="put a backup back into a data folder (close MONET "
                                        "on it first)")
    rs.add_argument("archive", type=Path, metavar="FILE")
    rs.add_argument("--home", dest="sub_home")
    rs.add_argument("--force", action="store_true",
                    help="replace a database already there (kept beside it as a dated copy)")

    de = sub.add_parser("install-desktop",
                        help="add MONET to the Linux application menu, with its icon")
    de.add_argument("--dry-run", action="store_true",
                    help="say which files would be written, write none")

    mv = sub.add_parser("migrate-to", help="copy the history to a PostgreSQL database or a "
                        "new data folder, checked row by row; the source is only read")
    mv.add_argument("target", help="postgresql://user@host:5432/db (an empty database) or a "
                                   "folder (a new data folder)")
    mv.add_argument("--switch", action="store_true",
                    help="then use the copy on this device (device.json); a server target "
                         "only, or this data folder itself")
    mv.add_argument("--home", dest="sub_home")

    pw = sub.add_parser("server-password",
                        help="keep the history server's password in the OS keyring (read "
                             "from standard input, or asked for without echo)")
    pw.add_argument("target", nargs="?", help="postgresql://user@host:5432/monet (default: "
                                              "this device's, --database-url or device.json)")
    pw.add_argument("--forget", action="store_true", help="remove it from the keyring")
    pw.add_argument("--home", dest="sub_home")

    jn = sub.add_parser("join", help="use the shared history on a PostgreSQL server from "
                                     "this device (device.json; the password into the OS "
                                     "keyring); tries the login, makes nothing")
    jn.add_argument("target", help="postgresql://user@host:5432/monet")
    jn.add_argument("--password-stdin", action="store_true",
                    help="read the password from standard input (else it is asked for when "
                         "the server wants one)")
    jn.add_argument("--home", dest="sub_home")

    cs = sub.add_parser("check-server",
                        help="check a PostgreSQL database for a history (login, TLS, rights, "
                             "locale, pg_trgm, another program's tables); changes nothing")
    cs.add_argument("target", nargs="?", help="postgresql://user@host:5432/db (default: "
                                              "this device's, --database-url or device.json)")
    cs.add_argument("--home", dest="sub_home")

    from monet_app.mixing import add_parser as add_check_mixing

    add_check_mixing(sub)
    url_help = ("where the history is: postgresql://user@host:5432/db, or \"\" for the SQLite "
                "file in the data folder (default: MONET_DATABASE_URL, then the data "
                "folder's device.json; docs/postgresql.md)")
    parser.add_argument("--database-url", help=url_help)
    for command in sub.choices.values():  # after the command too, as --home
        command.add_argument("--database-url", dest="sub_database_url", help=url_help)
    return parser


class LogFile(logging.FileHandler):
    """``monet.log``. When it cannot be written (the disk holding the home is full, the
    file became read-only), one line on standard error says so, once, instead of the
    logging module's traceback for every record: the log is the second channel, and what
    the person is told (a sentence) stays the first."""

    told = False

    def handleError(self, record: logging.LogRecord) -> None:
        error = sys.exc_info()[1]
        if not isinstance(error, OSError):
            super().handleError(record)
            return
        if not self.told:
            self.told = True
            reason = error.strerror or str(error)
            print(f"monet: {self.baseFilename} cannot be written ({reason}); "
                  "what follows is not logged there.", file=sys.stderr)


def _setup_logging(home: Path) -> None:
    from storage.private import private_folder, tightened_sentence

    try:
        tightened = private_folder(home)  # before the log file is made (issue 41)
        handler: logging.Handler = LogFile(home / "monet.log", encoding="utf-8")
        if tightened:  # (the window says it too: storage.private.take_tightened)
            print(f"monet: {tightened_sentence(home, tightened)}", file=sys.stderr)
    except OSError:
        handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.getLogger().addHandler(handler)
    logging.getLogger().setLevel(logging.INFO)


def _demo(args: argparse.Namespace) -> int:
    """``monet --demo``: never opens the person's own data folder (not even for its log)."""
    if args.command is not None:
        print("monet: --demo opens the window; it takes no command.", file=sys.stderr)
        return 2

    def start() -> int:
        from monet_app.demo import run_demo

        return run_demo(Path(args.home).expanduser() if args.home else None)

    return _open_window(start)


def _open_window(start: Callable[[], int]) -> int:
    """Start a window: a broken Qt install, or a sentence the person can act on, is said
    on stderr (exit 2)."""
    try:
        return start()
    except ImportError as exc:  # a broken Qt install: say what is missing
        print(f"monet: the window cannot start ({exc}). See the README's Linux notes.",
              file=sys.stderr)
        return 2
    except UserFacingError as exc:
        print(f"monet: {exc}", file=sys.stderr)
        return 2


def _ask_for_smoke(started: float) -> bool:
    """``--smoke``: the window (the demo's too) closes after its first paint. False when
    Qt cannot start (said on stderr)."""
    try:
        from monet_app.window.desktop import request_smoke
    except ImportError as exc:  # a broken Qt install: say what is missing
        print(f"monet: the window cannot start ({exc}). See the README's Linux notes.",
              file=sys.stderr)
        return False
    request_smoke(started)
    return True


#: Commands that only read a data folder: on a folder without a database they say so and
#: create nothing (no folder, no log, no empty database).
READING = frozenset({"export", "search", "timeline", "usage", "memory", "forget", "migrate-to"})


def _replay_overrides(args: argparse.Namespace) -> dict[str, object]:
    """The settings ``monet replay`` changes for its run (None: as stored)."""
    return {"sunset_model": args.sunset, "ceiling_tokens": args.ceiling,
            "low_water_fraction": args.low_water, "keep_exchanges": args.keep,
            "day_start": args.day_start}


def _refusal(args: argparse.Namespace, argv: Sequence[str]) -> str | None:
    """What is wrong with the command line before anything is opened, or None."""
    for arg in argv:
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            return "an argument is not valid text (UTF-8); nothing was done."
    day = getattr(args, "day", None)
    if args.command in ("usage", "forget", "export") and day is not None:
        from datetime import date

        try:
            date.fromisoformat(day)
        except ValueError:
            return f"--day needs a date as YYYY-MM-DD (got {day!r}); nothing was done."
    if args.command == "replay":
        if args.trace.is_dir():
            return f"{args.trace} is a folder; replay needs a trace file (.jsonl)."
        from cms.settings import Settings
        from storage.errors import SettingsError

        try:
            Settings().with_overrides(**_replay_overrides(args)).validated()
        except SettingsError as exc:
            return f"{exc} Nothing was replayed."
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """The ``monet`` command. Its output piped into a program that stops reading
    (``monet export | head -1``) ends it quietly, as a Unix tool ends: exit 141, no
    traceback, nothing said (the Python documentation's note on SIGPIPE)."""
    try:
        code = _main(argv)
        sys.stdout.flush()  # (inside: what is still buffered may meet the closed pipe)
    except BrokenPipeError:
        _output_gone()
        return 141  # 128 + SIGPIPE, the status of a Unix tool the pipe's reader left
    return code


def _output_gone() -> None:
    """Standard output's reader has gone: what is still buffered for it, and the flush at
    exit, go to the null device instead of raising again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (AttributeError, OSError, ValueError):  # not a file (a test's capture)
        pass


def _home_refusal(home: Path) -> str | None:
    """What makes ``home`` unusable as a data folder before anything is written in it: a
    file where the folder (or a folder above it) should be. None when it is fine (or not
    there yet: it is made)."""
    for each in (home, *home.parents):
        if each.exists():
            if not each.is_dir():
                inside = "" if each == home else f", so {home} cannot be a data folder"
                return (f"{each} is a file, not a folder{inside}; give --home a folder "
                        "(MONET makes it if it is not there). Nothing was written.")
            break
    return None


def _database_refusal(home: Path) -> str | None:
    """A ``monet.db`` in ``home`` that is not a file (a folder), for a history kept in
    the data folder; None when it is a file or not there."""
    database = home / "monet.db"
    if database.exists() and not database.is_file():
        return (f"{database} is not a file (a folder?), so MONET cannot keep its history "
                "there; move it away or give another --home. Nothing was written.")
    return None


def _main(argv: Sequence[str] | None = None) -> int:
    started = time.perf_counter()
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(argv)
    if args.command == "memory" and args.action != "add" and args.item is not None:
        try:  # the item is a number except for add (its first word), checked before the home
            args.item = _ID(args.item)
        except argparse.ArgumentTypeError as exc:
            parser.error(f"memory {args.action}: {exc}")
    if (refused := _refusal(args, argv)) is not None:
        print(f"monet: {refused}", file=sys.stderr)
        return 2
    if args.command == "install-desktop":  # writes nothing in any data folder
        from monet_app.cli.install_desktop import install

        try:
            return install(dry_run=args.dry_run)
        except UserFacingError as exc:
            print(f"monet: {exc}", file=sys.stderr)
            return 2
    if args.smoke:
        if args.command is not None:
            print("monet: --smoke opens the window; it takes no command.", file=sys.stderr)
            return 2
        if not _ask_for_smoke(started):
            return 2
    if args.demo:
        return _demo(args)
    home = _home(getattr(args, "sub_home", None) or args.home)
    if (refused := _home_refusal(home)) is not None:
        print(f"monet: {refused}", file=sys.stderr)
        return 2
    from storage.where import URL_ENV, database_url

    url = getattr(args, "sub_database_url", None)
    url = url if url is not None else args.database_url
    if url is not None:  # every Database this process (and its children) opens reads it
        os.environ[URL_ENV] = url
    try:
        on_server = database_url(home) is not None
    except UserFacingError as exc:
        print(f"monet: {exc}", file=sys.stderr)
        return 2
    if args.command == "server-password":
        return _server_password(home, forget=args.forget, target=args.target)
    if args.command == "check-server":  # reads nothing of this device but its URL
        from monet_app.cli.server import check_server

        return check_server(home, args.target)
    if not on_server and (refused := _database_refusal(home)) is not None:
        print(f"monet: {refused}", file=sys.stderr)
        return 2
    if args.command in READING and not on_server and not (home / "monet.db").is_file():
        print(f"monet: there is no MONET data folder at {home} (no monet.db); check --home. "
              "Nothing was created.", file=sys.stderr)
        return 2
    _setup_logging(home)
    if args.command is None:

        def start() -> int:
            from monet_app.window.desktop import run_app

            return run_app(home)

        return _open_window(start)
    try:
        return _run(args, home)
    except UserFacingError as exc:
        print(f"monet: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("monet: interrupted; everything stored so far is kept.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        raise  # the output's reader left: main ends quietly
    except Exception as exc:
        log.exception("unexpected error")
        print(
            f"monet: unexpected error: {exc.__class__.__name__}: {exc} "
            f"(details in {home / 'monet.log'})",
            file=sys.stderr,
        )
        return 1


def _server_password(home: Path, *, forget: bool, target: str | None = None) -> int:
    """``monet server-password``: the password of this device's history server into the OS
    keyring (or out of it). Nothing is opened; the password is never printed."""
    import getpass

    from storage.server_password import forget_password, store_password
    from storage.where import database_url, redact_url

    try:
        url = database_url(home, target) if target else database_url(home)
        if url is None:
            print("monet: this device's history is the SQLite file in its data folder; give "
                  "the server with --database-url (or device.json). Nothing was stored.",
                  file=sys.stderr)
            return 2
        if forget:
            print(f"forgot the password of {forget_password(url)} (OS keyring)")
            return 0
        if sys.stdin.isatty():
            secret = getpass.getpass(f"password for {redact_url(url)}: ")
        else:
            secret = sys.stdin.readline().rstrip("\r\n")
        from storage.database import server_facts

        server_facts(url, password=secret)  # refused or unreachable: said, nothing stored
        print(f"kept the password of {store_password(url, secret)} in the OS keyring "
              "(the server accepted it)")
        return 0
    except UserFacingError as exc:
        print(f"monet: {exc}", file=sys.stderr)
        return 2


def _replay(args: argparse.Namespace, home: Path) -> int:
    """``monet replay``."""
    from monet_app.services.replay import replay

    overrides = _replay_overrides(args)
    from monet_app.services.wiring import env_request_log

    request_log = args.request_log or env_request_log()
    summary = replay(
        args.trace, home, request_log, overrides=overrides, librarian=args.librarian,
        live=args.live, meaning=args.meaning,
    )
    print(summary.text())
    return 0


def _join(args: argparse.Namespace, home: Path) -> int:
    """``monet join`` (``monet_app/cli/server.py``)."""
    from monet_app.cli.server import join

    return join(home, args.target, password_stdin=args.password_stdin)


def _migrate_to(args: argparse.Namespace, home: Path) -> int:
    """``monet migrate-to``."""
    from monet_app.operations import moving

    moved = moving.migrate_to(home, args.target, switch=args.switch).value
    tables = sum(1 for n in moved.report.rows.values() if n)
    print(f"copied {moved.report.messages:,} messages ({sum(moved.report.rows.values()):,} "
          f"rows in {tables} tables{f', {moved.files} files' if moved.files else ''}) to "
          f"{moved.target}; every table checked (rows and SHA-256); the source is "
          f"unchanged{'; this device now uses the copy' if args.switch else ''}")
    return 0


def _backup(args: argparse.Namespace, home: Path) -> int:
    """``monet backup``."""
    from datetime import datetime

    from monet_app.operations import backups

    made = backups.back_up(home, datetime.now().astimezone(), args.out).value
    print(f"backed up {made.messages:,} messages (schema {made.schema_revision}) to "
          f"{made.path} ({made.size_bytes / 1e6:.1f} MB); integrity checked")
    return 0


def _restore(args: argparse.Namespace, home: Path) -> int:
    """``monet restore``."""
    from datetime import datetime

    from monet_app.operations import backups

    done = backups.restore(home, args.archive, datetime.now().astimezone(),
                           force=args.force).value
    kept = "; the replaced files are kept as " + ", ".join(
        p.name for p in done.replaced) if done.replaced else ""
    into = done.server or str(done.home)
    print(f"restored {done.messages:,} messages (schema {done.schema_revision}) into "
          f"{into}; integrity checked before and after{kept}")
    return 0


def _export(args: argparse.Namespace, home: Path) -> int:
    """``monet export``."""
    from monet_app.cli.export import checked_day, target_of, write_export
    from storage import Database

    checked_day(args.day)  # refused before anything is opened
    if args.out is not None:
        target_of(args.out)
    db = Database(home)
    try:
        skipped = write_export(db, args.format, args.day, args.out, sys.stdout)
        if args.attachments is not None:
            from monet_app.cli.export import write_attachments

            count, damaged = write_attachments(db, checked_day(args.day), args.attachments)
            print(f"monet: {count} attached file(s) written to {args.attachments}.",
                  file=sys.stderr)
            if damaged:
                print(f"monet: left out {len(damaged)} file(s) whose copy in the data folder "
                      f"was changed or replaced: {', '.join(damaged[:10])}.", file=sys.stderr)
    finally:
        db.close()
    if skipped.ids:
        shown = ", ".join(str(i) for i in skipped.ids[:10])
        more = " …" if len(skipped.ids) > 10 else ""
        print(f"monet: exported every readable message; skipped {len(skipped.ids)} damaged "
              f"row(s) (message ids {shown}{more}).", file=sys.stderr)
    return 0


def _forget(args: argparse.Namespace, home: Path) -> int:
    """``monet forget``."""
    from monet_app.operations import memory

    with _core(home) as core:
        if args.day:
            count = memory.delete_day(core, args.day).value
            print(f"deleted {args.day}: {count} messages, with their summaries, memories "
                  "and index entries; Claude's next request no longer contains them")
        else:
            memory.delete_message(core, args.message)
            print(f"deleted message {args.message} and what was drawn from it")
    return 0


def _promote(args: argparse.Namespace, home: Path) -> int:
    """``monet promote``."""
    from cms.context.core_prompt import core_path
    from monet_app.operations import settings as settings_ops

    with _core(home) as core:
        heading = settings_ops.promote(core, args.category, " ".join(args.text)).value
        where = (f"the history on {core.db.where}" if core.db.server
                 else str(core_path(home)))
    print(f"promoted under {heading} in {where}; Claude reads it from the next "
          "message on")
    return 0


def _librarian(args: argparse.Namespace, home: Path) -> int:
    """``monet librarian``."""
    from monet_app.cli import librarian_process
    from storage import Database

    if args.action == "install-schedule":
        from cms.settings import load_settings

        at = "04:00"
        if args.kind != "service":  # (a daily pass at the day's start; a service watches)
            db = Database(home)
            try:
                with db.session() as session:
                    at = load_settings(session).day_start
            finally:
                db.close()
        schedule = librarian_process.schedule_for(home, args.kind, at)
        if args.write:
            return librarian_process.install(schedule)
        print(schedule.text, end="")
        for note in schedule.notes:
            print(f"# {note}")
        return 0
    from monet_app.services.clock import SystemClock

    return librarian_process.run(
        home, watch=args.watch, interval_seconds=args.interval, offline=args.offline,
        clock=SystemClock(),
    )


def _check_mixing(args: argparse.Namespace, home: Path) -> int:
    """``monet check-mixing``."""
    from monet_app import mixing

    return mixing.main(args, home)


def _standin_server(args: argparse.Namespace, home: Path) -> int:
    """``monet standin-server``."""
    from monet_app.services.standin_server import serve

    serve(args.trace, args.port)
    return 0


def _usage(args: argparse.Namespace, home: Path) -> int:
    """``monet usage``."""
    from monet_app.cli.usage import usage_json, usage_report, usage_text
    from storage import Database

    db = Database(home)
    try:
        report = usage_report(db, args.day)
    finally:
        db.close()
    print(usage_json(report) if args.json else usage_text(report))
    return 0


def _timeline(args: argparse.Namespace, home: Path) -> int:
    """``monet timeline``."""
    from datetime import datetime

    from cms.clock import ManualClock
    from monet_app.services.wiring import build_core, no_model

    core = build_core(home, clock=ManualClock(datetime.now().astimezone()),
                      summarizer="offline", model_factory=no_model)
    try:
        print(core.context.timeline_now())
    finally:
        core.close()
    return 0




@contextmanager
def _core(home: Path) -> Iterator[Core]:
    """The core a command works on (no model: these commands never talk to Claude)."""
    from monet_app.services.clock import SystemClock
    from monet_app.services.wiring import build_core, no_model

    core = build_core(home, clock=SystemClock(), model_factory=no_model, summarizer="offline")
    try:
        yield core
    finally:
        core.close()


def _search(args: argparse.Namespace, home: Path) -> int:
    """``monet search``: the window's search (``operations.search``), as text or JSON;
    a message hidden from Claude is marked so."""
    import json as _json

    from cms.clock import parse_ts
    from monet_app.operations import search

    with _core(home) as core:
        found = search.search(core, " ".join(args.query), args.limit).value
    if args.json:
        rows = [
            {"id": hit.id, "day": hit.day, "time": parse_ts(hit.ts).strftime("%H:%M"),
             "tab": hit.tab, "role": hit.role, "text": hit.text, "hidden": hit.hidden}
            for hit in found
        ]
        print(_json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    for hit in found:
        line = " ".join(hit.text.split())
        time = parse_ts(hit.ts).strftime("%H:%M")
        mark = " (hidden from Claude)" if hit.hidden else ""
        print(f"{hit.day} {time} [{hit.tab}] {hit.role}{mark}: {line[:160]}")
    if not found:
        print("no message matches")
    return 0


def _memory(args: argparse.Namespace, home: Path) -> int:
    import json as _json

    from monet_app.operations import memory

    with _core(home) as core:
        if args.action == "list":
            items = memory.all_items(core)
            if args.json:
                print(_json.dumps([i.model_dump() for i in items], ensure_ascii=False, indent=2))
            for item in items if not args.json else []:
                print(f"{item.id:5d} [{item.kind}] {item.status:10} {item.fact}")
            if not items and not args.json:
                print("nothing is remembered yet")
            return 0
        if args.action == "add":
            words = " ".join([args.item or "", *args.text]).strip()
            added = memory.add_memory(core, words).value
            print(f"memory {added} added; Claude reads it from the next message")
            return 0
        if args.item is None:
            raise MemoryItemError("memory {action} needs an item number.", action=args.action)
        if args.action == "show":
            shown = memory.item_with_sources(core, args.item)
            print(_json.dumps(shown.item.model_dump(), ensure_ascii=False, indent=2))
            for source in shown.sources:
                print(f"source {source.id} ({source.day} {source.tab}): {source.text}")
            return 0
        if args.action == "edit":
            memory.correct_memory(core, args.item, " ".join(args.text))
            print(f"memory {args.item} corrected; Claude uses the new text from the next message")
            return 0
        if args.action == "keep":
            memory.settle_memory(core, args.item)
            print(f"memory {args.item} kept as true; what it contradicted is its history now")
            return 0
        count = memory.delete_memory(core, args.item, delete_sources=args.messages).value
    what = "deleted" if args.messages else "kept in your history, hidden from Claude"
    print(f"memory {args.item} forgotten; {count} message(s) it came from {what}; "
          "no later request contains it")
    return 0


#: Each subcommand's function (``_run`` looks the command up here).
COMMANDS: dict[str, Callable[[argparse.Namespace, Path], int]] = {
    "replay": _replay,
    "migrate-to": _migrate_to,
    "join": _join,
    "backup": _backup,
    "restore": _restore,
    "export": _export,
    "search": _search,
    "forget": _forget,
    "memory": _memory,
    "promote": _promote,
    "librarian": _librarian,
    "check-mixing": _check_mixing,
    "standin-server": _standin_server,
    "usage": _usage,
    "timeline": _timeline,
}


def _run(args: argparse.Namespace, home: Path) -> int:
    """Run the subcommand ``args.command`` (``COMMANDS``)."""
    return COMMANDS[args.command](args, home)


if __name__ == "__main__":
    sys.exit(main())
