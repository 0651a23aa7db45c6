"""Sending and the latest exchange: send, edit and resend, regenerate, continue, stop.

All of them are ``Work.REPLY`` in the gate (``monet_app/services/gate.py``): the window
enters once when the person presses Enter (or Regenerate) and passes the ticket to each
step, so nothing that deletes or rebuilds can slip in between the commit and the reply.

``commit`` runs on the GUI thread (a few milliseconds of SQLite) so that what was typed
is stored before any request leaves (design.md §7); ``reply`` runs on a worker and
streams through ``on_text``; ``stop`` asks it to stop, and what arrived is kept, marked
incomplete. Edit and resend stores the new message first, then deletes the exchange it
replaces; regenerate deletes today's latest reply (with its tool rounds), then asks again;
continue is a short message of its own answered after the cut reply (never a prefill: the
stored reply is in the cached prompt, which only grows between rebuild points).

What a send replaces is never deleted before the new reply exists: edit and resend and
regenerate *set aside* the old exchange or reply (hidden from Claude, kept, and noted in
the ``set_aside`` setting); once the new reply is stored whole, it is deleted everywhere;
if the reply fails, is stopped or is cut, or MONET is killed meanwhile (``recover``, at
the next start), it is put back as it was.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from cms.attachments import MAX_READ_BYTES, Prepared, prepare, viewer_name
from cms.context.turn import TurnResult
from cms.memory import forget
from monet_app.operations.changes import NOTHING, TALK, Changes, Done
from monet_app.services.backup import finish_forgetting
from monet_app.services.gate import Ticket, Work
from monet_app.services.wiring import Core
from storage import attachments as attachment_files
from storage import queries, talk
from storage.database import Connection, Session, joined_session
from storage.errors import AttachmentError
from storage.files import NotAFile, TooLarge, read_measured
from storage.models import Message, MessageRole, MessageStatus, ReplyVersion
from storage.queries import Talk


def commit(core: Core, text: str, tab: str, *, ticket: Ticket | None = None,
           attachments: Sequence[Prepared] = (), replaces: int = 0) -> Done[Talk]:
    """Store the person's message and its files (refused in words if empty); nothing is
    sent yet. ``replaces``: edit and resend of the person's message of that id: it and
    its answer are set aside in the same transaction, until the new reply is stored."""
    with core.gate.hold(Work.REPLY, ticket):
        within = partial(_set_aside_exchange, replaces) if replaces else None
        return Done(core.context.commit_user_message(text, tab, attachments, within=within),
                    TALK)


def prepare_files(paths: Sequence[str]) -> Done[list[Prepared]]:
    """Read and check files to attach (``cms.attachments.prepare``: a picture scaled down
    once, a damaged or unsupported one refused in a sentence). Reading only: nothing is
    stored until the message is sent."""
    found: list[Prepared] = []
    for path in paths:
        where = Path(path)
        try:
            data = read_measured(where, MAX_READ_BYTES, "file to attach")
        except OSError as exc:
            raise AttachmentError("{name} cannot be read ({reason}).", code="damaged",
                                  name=where.name, reason=exc.strerror or exc) from None
        except NotAFile:  # a device, a FIFO, a socket: refused before reading
            raise AttachmentError(
                "{name} is not a regular file (a device, pipe or socket); MONET reads only "
                "files.", code="unsupported", name=where.name) from None
        except TooLarge as exc:  # by its size, before reading (or it grew while read)
            if exc.size is None:
                raise AttachmentError(
                    "{name} is larger than {limit:,.0f} MB (it grew while it was read); a "
                    "file to attach can be at most that.", code="too_large", name=where.name,
                    limit=exc.limit / 1e6) from None
            raise AttachmentError(
                "{name} is {size:,.1f} MB; a file to attach can be at most {limit:,.0f} MB.",
                code="too_large", name=where.name, size=exc.size / 1e6,
                limit=exc.limit / 1e6) from None
        found.append(prepare(data, where.name))
    return Done(found)


def prepare_pasted(data: bytes, name: str) -> Done[list[Prepared]]:
    """A picture pasted from the clipboard (as PNG), checked as a file is."""
    return Done([prepare(data, name)])


def file_to_open(path: str, name: str, media_type: str) -> Done[Path]:
    """A copy of an attached file for the system's viewer, under its name with the suffix
    of what it is (``cms.attachments.viewer_name``: a text file named ``x.bat`` opens as
    ``x.bat.txt``, never runs). The data folder names files by their hash, without the
    suffix a viewer goes by, so the copy is made in a folder of this process's own,
    readable by this user only and removed when MONET quits. Reads the history only."""
    source = Path(path)
    target = _open_folder() / source.name[:16] / viewer_name(name, media_type)
    try:
        if not target.exists():
            target.parent.mkdir(mode=0o700, exist_ok=True)
            data = source.read_bytes()
            fd, part = tempfile.mkstemp(dir=target.parent, prefix=".part-")
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(part, target)
    except OSError as exc:
        raise AttachmentError("{name} could not be opened ({reason}).", code="cannot_open",
                              name=name, reason=exc.strerror or exc) from None
    return Done(target)


_OPENED: list[Path] = []  # this process's folder of copies, made on the first open


def _open_folder() -> Path:
    if not _OPENED:
        folder = Path(tempfile.mkdtemp(prefix="monet-open-"))  # (mode 0700)
        atexit.register(shutil.rmtree, folder, True)
        _OPENED.append(folder)
    return _OPENED[0]


def generation(core: Core, stamp: tuple[int, ...] | None = None
               ) -> Done[tuple[tuple[int, ...], tuple[int, ...] | None]]:
    """How far the history has come: the SQLite file's ``stamp`` and its messages' and
    Timeline Index lines' counts, newest ids and revisions. Another device's or process's
    write changes it (``SharedWatch``). On a SQLite file whose stamp is still ``stamp``
    nothing was committed since: the counts are not asked (None)."""
    now = core.db.stamp()
    if now and now == stamp:
        return Done((now, None))
    with core.db.transaction() as conn:
        return Done((now, talk.generation(conn)))


def shared_files(core: Core) -> Done[int]:
    """A shared history's attached files in this device's folder as the history names them
    now (``storage/attachments.py``): another device's fetched, a forgotten one's removed.
    Writes nothing of the history; returns how many files changed. Nothing on a SQLite
    file: its folder is the history's own (a file is written there before its message's
    transaction, and must not be swept in between)."""
    if not core.db.server:
        return Done(0)
    with core.db.unlocked_reads() as conn:  # (the other devices' sends do not wait on it)
        fetched = attachment_files.fetch_missing(conn, core.db.home)
        gone = attachment_files.sweep_folder(conn, core.db.home)
    return Done(fetched + gone)


def reply(core: Core, tab: str, on_text: Callable[[str], None], cancel: threading.Event,
          *, ticket: Ticket | None = None) -> Done[TurnResult]:
    """Ask Claude for the reply to the newest stored message (a send or a retry)."""
    with core.gate.hold(Work.REPLY, ticket):
        try:
            core.chat_model()  # made here, off the GUI thread (the SDK's import, the key)
            result = core.runner.resume(tab, on_text, cancel)
        except BaseException:
            _settle(core, replaced=False)  # the old answer comes back
            raise
        whole = (result.reply is not None and result.error is None and not result.cancelled
                 and result.reply.status == MessageStatus.COMPLETE)
        _settle(core, replaced=whole, reply=result.reply if whole else None)
        return Done(result, TALK)


def stop(cancel: threading.Event) -> None:
    """Stop the reply under way: the turn runner keeps what arrived, marked incomplete."""
    cancel.set()


def exchange_ids(core: Core, user_id: int) -> list[int]:
    """The person's message ``user_id`` and everything that answered it, up to their next
    message (an exchange being edited or regenerated)."""
    with core.db.session() as session:
        return _exchange_ids(session, user_id)


def _exchange_ids(session: Session, user_id: int) -> list[int]:
    first = session.get(Message, user_id)
    if first is None or first.role != MessageRole.USER:
        return []
    ids = [user_id]
    for message_id, role in talk.roles_after_on_day(session, first.day, user_id):
        if role == MessageRole.USER:
            break
        ids.append(message_id)
    return ids


#: The setting that notes the messages a send set aside until its reply is stored.
SET_ASIDE = "set_aside"


def regenerate(core: Core, answer_ids: list[int], *, ticket: Ticket | None = None) -> Done[int]:
    """Today's latest reply, with its tool rounds (``answer_ids``), is set aside; the
    caller then asks for the reply again."""
    return set_aside(core, answer_ids, ticket=ticket)


def set_aside(core: Core, message_ids: list[int], *,
              ticket: Ticket | None = None) -> Done[int]:
    """Hide these messages from Claude until the next reply is stored (then they are
    deleted) or fails (then they come back); 0 if none. Messages already hidden (a
    forgotten memory's sources) stay as they are."""
    with core.gate.hold(Work.REPLY, ticket):
        if not message_ids:
            return Done(0)
        with core.db.session() as session:
            count = _set_aside_in(session, message_ids)
        return Done(count, TALK)


def _set_aside_in(session: Session, message_ids: list[int]) -> int:
    rows = [m for m in queries.messages_by_ids(session, message_ids) if not m.hidden]
    for message in rows:
        message.hidden = True
        session.add(message)
    kept = sorted({*(queries.read_value(session, SET_ASIDE) or []),
                   *(m.id for m in rows if m.id is not None)})
    queries.write_value(session, SET_ASIDE, kept or None)
    queries.bump_memory(session)
    return len(rows)


def _set_aside_exchange(user_id: int, conn: Connection) -> None:
    """Edit and resend: the old message ``user_id`` and its answer are set aside in the
    transaction that stores the new message (``commit``)."""
    with joined_session(conn) as session:
        _set_aside_in(session, _exchange_ids(session, user_id))


def _settle(core: Core, replaced: bool | None, reply: Talk | None = None) -> Changes:
    """After a reply, in one transaction (issue 42): what was set aside goes for good when
    ``replaced`` (the new reply is stored whole; a regenerated reply is kept as a version
    first, ``_keep_versions``), else it comes back as it was and a new reply that did not
    end is kept only as a version (``_half_reply``). ``None`` (at a start, after a kill):
    as the history shows, a whole new reply stored after what was set aside settling it
    as replaced."""
    with core.db.transaction() as conn:  # (after most replies: nothing was set aside)
        if queries.setting_json(conn, SET_ASIDE) is None:
            return NOTHING
    now = core.clock.now()
    with core.db.session() as session:
        ids = [int(i) for i in queries.read_value(session, SET_ASIDE) or []]
        if not ids:
            return NOTHING
        queries.write_value(session, SET_ASIDE, None)
        new = (reply.text, reply.ts) if reply is not None else None
        if replaced is None:
            found = _whole_reply_after(session, ids)
            replaced, new = found is not None, found
        if replaced:
            if new is not None:
                _keep_versions(session, ids, *new)
            existing = talk.existing(session, ids)
            if existing:
                forget.delete_in(session, core.db, existing, now)
        else:
            for message in queries.messages_by_ids(session, ids):
                message.hidden = False
                session.add(message)
            session.flush()
            half = _half_reply(session, ids)
            if half:  # the new reply never ended: a version, never beside the old one
                forget.delete_in(session, core.db, half, now)
            queries.bump_memory(session)
    forget.settle_files(core.db)
    return TALK


def _whole_reply_after(session: Session, replaced_ids: list[int]) -> tuple[str, str] | None:
    """The reply stored whole after what a regenerate or an edit set aside (MONET killed
    between storing it and settling): its text and time; None when there is none, or the
    person has spoken since."""
    replaced = queries.messages_by_ids(session, replaced_ids)
    if not replaced:
        return None
    last = replaced[-1]
    after = talk.after_on_day(session, last.day, last.id or 0)
    people = [i for i, m in enumerate(after) if m.role == MessageRole.USER]
    if people not in ([], [0]):  # (an edit's new message comes first; else: spoken since)
        return None
    if not after or after[-1].role != MessageRole.ASSISTANT or \
            after[-1].status != MessageStatus.COMPLETE or not after[-1].text.strip():
        return None
    return after[-1].text, after[-1].ts


def _half_reply(session: Session, replaced_ids: list[int]) -> list[int]:
    """A regenerate whose new reply did not end (MONET killed while it streamed, its draft
    stored as an incomplete reply at the next start; an error after part of it came):
    the ids of what it stored after the replaced answers, once its text is kept as a
    version that is not current (issue 41: both replies came back, and Claude's next
    request carried the two in one turn). None for an edit (the person's message was set
    aside too) or when the person has spoken since."""
    rows = queries.messages_by_ids(session, replaced_ids)
    if not rows or any(m.role == MessageRole.USER for m in rows):
        return []
    after = talk.after_on_day(session, rows[0].day, rows[-1].id or 0)
    if not after or any(m.role == MessageRole.USER for m in after):
        return []
    user_id = talk.said_before(session, rows[0].day, rows[0].id or 0)
    said = [m for m in after if m.role == MessageRole.ASSISTANT and m.text.strip()]
    if user_id is not None and said:
        versions = queries.reply_versions(session, user_id)
        old = [m for m in rows if m.role == MessageRole.ASSISTANT]
        if not versions and old:
            versions = [ReplyVersion(user_message_id=user_id, number=1, text=old[-1].text,
                                     ts=old[-1].ts, current=True)]
            session.add(versions[0])
        session.add(ReplyVersion(user_message_id=user_id, number=versions[-1].number + 1
                                 if versions else 1, text=said[-1].text, ts=said[-1].ts,
                                 current=False))
    return [m.id for m in after if m.id is not None]


def _keep_versions(session: Session, replaced_ids: list[int], text: str, ts: str) -> None:
    """A regenerate (the set-aside messages are answers only; an edit sets aside the
    person's message too): the replaced reply's final text and the new reply (``text``,
    ``ts``) become versions of the answer to the person's message, the new one current."""
    rows = queries.messages_by_ids(session, replaced_ids)
    if not rows or any(m.role == MessageRole.USER for m in rows):
        return
    user_id = talk.said_before(session, rows[0].day, rows[0].id or 0)
    old = [m for m in rows if m.role == MessageRole.ASSISTANT]
    if user_id is None or not old:
        return
    versions = queries.reply_versions(session, user_id)
    if not versions:
        versions = [ReplyVersion(user_message_id=user_id, number=1, text=old[-1].text,
                                 ts=old[-1].ts)]
    for version in versions:
        version.current = False
        session.add(version)
    session.add(ReplyVersion(user_message_id=user_id, number=versions[-1].number + 1,
                             text=text, ts=ts, current=True))


def choose_version(core: Core, user_id: int, number: int, *,
                   ticket: Ticket | None = None) -> Done[int]:
    """Show version ``number`` of the reply to today's latest message ``user_id``: the
    reply the conversation holds (and its tool rounds) goes, and that version's text is
    stored as the reply, as a regenerate replaces it (only the end of today's talk
    changes; what Claude reads before it stays byte for byte), in one transaction.
    Returns the version now current, 0 if there was nothing to change."""
    with core.gate.hold(Work.REPLY, ticket):
        with core.db.session() as session:
            versions = queries.reply_versions(session, user_id)
            chosen = next((v for v in versions if v.number == number), None)
            person = session.get(Message, user_id)
            if chosen is None or chosen.current or person is None:
                return Done(0)
            text, tab = chosen.text, person.tab
        now = core.clock.now()

        def replace(conn: Connection) -> None:
            with joined_session(conn) as session:
                answers = _exchange_ids(session, user_id)[1:]
                if answers:
                    forget.delete_in(session, core.db, answers, now)
                for version in queries.reply_versions(session, user_id):
                    version.current = version.number == number
                    session.add(version)

        core.context.record_reply(text, tab, within=replace)
        forget.settle_files(core.db)
        return Done(number, TALK)


def recover(core: Core) -> Done[None]:
    """At start, what a kill left between two transactions (issue 42): an exchange set
    aside by a send whose reply never ended comes back (nothing said is lost), one whose
    reply was stored whole is settled as that send would have; the files a forget leaves
    outside the database are made to match it."""
    with core.gate.hold(Work.REPLY):
        changes = _settle(core, replaced=None)
        forget.settle_files(core.db)  # (a forget killed after its commit)
        finish_forgetting(core.db, core.clock.now())  # (and before its backups were)
        return Done(None, changes)
