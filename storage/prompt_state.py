"""The prompt state: the one row that holds what the request body was built from
(fingerprints, the pinned and context texts, the Timeline Index as rendered, the day and
thread the prompt is in), so that a restart builds the same prefix byte for byte."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, update
from sqlalchemy import select as sa_select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlmodel import Session

from storage.models import (
    PromptState,
)
from storage.rows import Db, connection_of, run


def prompt_state(session: Session) -> PromptState:
    """The prompt state as an ORM object (made if new, as ``_ensure_prompt_state`` makes it)."""
    state = session.get(PromptState, 1)
    if state is None:
        _ensure_prompt_state(session)
        state = session.get(PromptState, 1)
        assert state is not None
    return state


_STATE = PromptState.__table__  # type: ignore[attr-defined]


_TURN_STATE = sa_select(_STATE.c.current_day, _STATE.c.current_tab,
                        _STATE.c.current_thread_id).where(_STATE.c.id == 1)


_SET_STATE = update(_STATE).where(_STATE.c.id == 1)


@dataclass(slots=True)
class PromptRecord:
    """The prompt state's row as plain values (``PromptState``'s columns). The context
    manager reads it with one Core statement and writes back only the columns it changed
    (``save_prompt``): the librarian and the memory panel write other columns of the row."""

    id: int
    fingerprint: str
    pinned_text: str
    context_text: str
    pinned_tokens: int
    context_tokens: int
    ti_text: str
    ti_head_text: str
    ti_tokens: int
    ti_rendered_day: str
    ti_pending_ids_json: str
    prompt_day: str
    prompt_thread_id: int | None
    current_day: str
    current_thread_id: int | None
    current_tab: str
    librarian_last_run_ts: str
    memory_version: int
    memory_rendered: int


_PROMPT = sa_select(*(_STATE.c[name] for name in PromptRecord.__slots__)).where(
    _STATE.c.id == 1)


def load_prompt(db: Db) -> PromptRecord:
    """The prompt state (made if new) as a ``PromptRecord``."""
    row = run(db, _PROMPT).first()
    if row is None:
        _ensure_prompt_state(db)
        row = run(db, _PROMPT).first()
        assert row is not None
    return PromptRecord(*row)


def save_prompt(db: Db, record: PromptRecord, loaded: PromptRecord) -> None:
    """Write the columns of ``record`` that differ from ``loaded`` (as it was read)."""
    changed = {name: getattr(record, name) for name in PromptRecord.__slots__
               if getattr(record, name) != getattr(loaded, name)}
    if changed:
        run(db, _SET_STATE, changed)


_MAKE_PROMPT_STATE = insert(PromptState).prefix_with("OR IGNORE", dialect="sqlite")


_MAKE_PROMPT_STATE_PG = postgresql_insert(PromptState).on_conflict_do_nothing()


def _ensure_prompt_state(db: Db) -> None:
    """Make the prompt state's row (a new home, before the app's first start). Another
    process may make it at the same moment (a replay and a watching librarian on a new
    home): the second insert is then a no-op, not an error."""
    statement = (_MAKE_PROMPT_STATE if connection_of(db).dialect.name == "sqlite"
                 else _MAKE_PROMPT_STATE_PG)
    run(db, statement, PromptState(id=1).model_dump())


def turn_state(db: Db) -> tuple[str, str, int | None]:
    """(current day, current tab, current thread id) of the prompt state (made if new)."""
    row = run(db, _TURN_STATE).first()
    if row is None:
        _ensure_prompt_state(db)
        row = run(db, _TURN_STATE).first()
        assert row is not None
    return row[0], row[1], row[2]


_LIBRARIAN_LAST_RUN = sa_select(_STATE.c.librarian_last_run_ts).where(_STATE.c.id == 1)


def librarian_last_run(db: Db) -> str:
    """When a librarian pass last ended ("" before the first)."""
    return str(run(db, _LIBRARIAN_LAST_RUN).scalar() or "")


def set_turn_state(db: Db, **values: Any) -> None:
    """Update these columns of the prompt state (made first if there is none yet)."""
    if run(db, _SET_STATE, values).rowcount == 0:
        _ensure_prompt_state(db)
        run(db, _SET_STATE, values)


def bump_memory(session: Session) -> None:
    """What is remembered changed: the next request is rebuilt (memory_changed)."""
    state = prompt_state(session)
    state.memory_version += 1
    session.add(state)
