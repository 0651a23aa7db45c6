"""The latest exchange's versions: regenerate, edit and resend's setting aside, choosing
a version, and settling what was set aside once the new reply ended (issue 42: in one
transaction, rolled forward at a start after a kill).

What a send replaces is never deleted before the new reply exists: edit and resend and
regenerate *set aside* the old exchange or reply (hidden from Claude, kept, and noted in
the ``set_aside`` setting); once the new reply is stored whole, it is deleted everywhere
(a regenerated reply kept as a version first); if the reply fails, is stopped or is cut,
or MONET is killed meanwhile (``conversation.recover``, at the next start), it is put back
as it was. All of it is ``Work.REPLY`` in the gate.
"""

from __future__ import annotations

from cms.memory import forget
from monet_app.operations.changes import NOTHING, TALK, Changes, Done
from monet_app.services.gate import Ticket, Work
from monet_app.services.wiring import Core
from storage import talk
from storage.database import Session
from storage.errors import InputError
from storage.models import Message, MessageRole, MessageStatus, ReplyVersion
from storage.prompt_state import bump_memory
from storage.settings import read_value, setting_json, write_value
from storage.talk import Talk, messages_by_ids, reply_versions


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


def write_held_first(core: Core) -> int:
    """Inside a ``Work.REPLY`` step: a reply held on this device while the history's
    server was away (``cms/context/away.py``) goes into the history before anything
    else of a send, in its place, and what it replaced is settled; the number written
    (``ServerAwayError`` while the server is still away: the step is refused, nothing
    changed). Nothing to do on a SQLite file (a stat otherwise)."""
    if not core.context.away.waiting():
        return 0
    written = len(core.context.away.write_held())
    settle(core, replaced=None)
    return written


def set_aside(core: Core, message_ids: list[int], *,
              ticket: Ticket | None = None) -> Done[int]:
    """Hide these messages from Claude until the next reply is stored (then they are
    deleted) or fails (then they come back); 0 if none. Messages already hidden (a
    forgotten memory's sources) stay as they are. A held reply written first changes
    what "the latest reply" is: refused then, to be chosen again on screen."""
    with core.gate.hold(Work.REPLY, ticket):
        if write_held_first(core):
            raise InputError("The reply kept while the server was away is in the history "
                             "now; nothing else was changed. Look at it, then try again.")
        if not message_ids:
            return Done(0)
        with core.db.session() as session:
            count = _set_aside_in(session, message_ids)
        return Done(count, TALK)


def _set_aside_in(session: Session, message_ids: list[int]) -> int:
    rows = [m for m in messages_by_ids(session, message_ids) if not m.hidden]
    for message in rows:
        message.hidden = True
        session.add(message)
    kept = sorted({*(read_value(session, SET_ASIDE) or []),
                   *(m.id for m in rows if m.id is not None)})
    write_value(session, SET_ASIDE, kept or None)
    bump_memory(session)
    return len(rows)


def set_aside_exchange(user_id: int, session: Session) -> None:
    """Edit and resend: the old message ``user_id`` and its answer are set aside in the
    transaction that stores the new message (``commit``)."""
    _set_aside_in(session, _exchange_ids(session, user_id))


def settle(core: Core, replaced: bool | None, reply: Talk | None = None) -> Changes:
    """After a reply, in one transaction (issue 42): what was set aside goes for good when
    ``replaced`` (the new reply is stored whole; a regenerated reply is kept as a version
    first, ``_keep_versions``), else it comes back as it was and a new reply that did not
    end is kept only as a version (``_half_reply``). ``None`` (at a start, after a kill):
    as the history shows, a whole new reply stored after what was set aside settling it
    as replaced."""
    with core.db.transaction() as conn:  # (after most replies: nothing was set aside)
        if setting_json(conn, SET_ASIDE) is None:
            return NOTHING
    now = core.clock.now()
    with core.db.session() as session:
        ids = [int(i) for i in read_value(session, SET_ASIDE) or []]
        if not ids:
            return NOTHING
        write_value(session, SET_ASIDE, None)
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
            for message in messages_by_ids(session, ids):
                message.hidden = False
                session.add(message)
            session.flush()
            half = _half_reply(session, ids)
            if half:  # the new reply never ended: a version, never beside the old one
                forget.delete_in(session, core.db, half, now)
            bump_memory(session)
    forget.settle_files(core.db)
    return TALK


def _whole_reply_after(session: Session, replaced_ids: list[int]) -> tuple[str, str] | None:
    """The reply stored whole after what a regenerate or an edit set aside (MONET killed
    between storing it and settling): its text and time; None when there is none, or the
    person has spoken since."""
    replaced = messages_by_ids(session, replaced_ids)
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
    rows = messages_by_ids(session, replaced_ids)
    if not rows or any(m.role == MessageRole.USER for m in rows):
        return []
    after = talk.after_on_day(session, rows[0].day, rows[-1].id or 0)
    if not after or any(m.role == MessageRole.USER for m in after):
        return []
    user_id = talk.said_before(session, rows[0].day, rows[0].id or 0)
    said = [m for m in after if m.role == MessageRole.ASSISTANT and m.text.strip()]
    if user_id is not None and said:
        versions = reply_versions(session, user_id)
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
    rows = messages_by_ids(session, replaced_ids)
    if not rows or any(m.role == MessageRole.USER for m in rows):
        return
    user_id = talk.said_before(session, rows[0].day, rows[0].id or 0)
    old = [m for m in rows if m.role == MessageRole.ASSISTANT]
    if user_id is None or not old:
        return
    versions = reply_versions(session, user_id)
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
            versions = reply_versions(session, user_id)
            chosen = next((v for v in versions if v.number == number), None)
            person = session.get(Message, user_id)
            if chosen is None or chosen.current or person is None:
                return Done(0)
            text, tab = chosen.text, person.tab
        now = core.clock.now()

        def replace(session: Session) -> None:
            answers = _exchange_ids(session, user_id)[1:]
            if answers:
                forget.delete_in(session, core.db, answers, now)
            for version in reply_versions(session, user_id):
                version.current = version.number == number
                session.add(version)
            session.flush()

        core.context.record_reply(text, tab, within=replace)
        forget.settle_files(core.db)
        return Done(number, TALK)
