"""A small world for context-manager tests: a real database, a manual clock, exact tokens;
and the ``monet`` command run in its own process (``run_monet``)."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from cms.clock import ManualClock, parse_ts
from cms.model.protocol import ChatModel
from cms.model.standin import StandInModel
from cms.settings import Settings
from cms.summaries import OfflineSummarizer, Summarizer, Turn
from cms.tokens import CharEstimator, TokenEstimator
from monet_app.services.wiring import build_core


class CountingSummarizer:
    name = "counting"

    def __init__(self) -> None:
        self.calls = 0
        self.inner = OfflineSummarizer()

    def close(self) -> None:
        pass

    def summarize(self, turns: Any) -> str:
        self.calls += 1
        return self.inner.summarize(turns)


OPEN_WORLDS: list[World] = []


@dataclass
class World:
    home: Path
    settings: Settings
    estimator: TokenEstimator = field(default_factory=CharEstimator)
    start: str = "2026-03-02T09:00:00+09:00"
    summarizer: Summarizer = field(default_factory=CountingSummarizer)

    def __post_init__(self) -> None:
        self.clock = ManualClock(parse_ts(self.start))
        self.log_path = self.home / "requests.jsonl"
        self.core = build_core(
            self.home, clock=self.clock, settings=self.settings, request_log=self.log_path,
            estimator=self.estimator, summarizer=self.summarizer,
            model_factory=lambda settings: StandInModel(self.estimator),
        )
        self.db, self.log, self.cm = self.core.db, self.core.log, self.core.context
        self.librarian, self.runner = self.core.librarian, self.core.runner
        model = self.core.chat_model()
        assert isinstance(model, StandInModel)
        self.model = model
        self.bodies: list[dict[str, Any]] = []
        OPEN_WORLDS.append(self)
        self.cm.app_started()

    def at(self, ts: str) -> World:
        self.clock.set(parse_ts(ts))
        return self

    def later(self, minutes: float = 1) -> World:
        self.clock.set(self.clock.now() + timedelta(minutes=minutes))
        return self

    def turn(self, user: str, reply: str = "ok", tab: str = "chat", recall: str | None = None) -> dict[str, Any]:
        self.cm.switch_tab(tab)
        self.model.expect(reply, recall)
        original = self.model.stream
        seen: list[dict[str, Any]] = []

        def spy(body: Any) -> Any:
            seen.append(body)
            return original(body)

        self.model.stream = spy  # type: ignore[method-assign]
        try:
            self.runner.send(user, tab)
        finally:
            self.model.stream = original  # type: ignore[method-assign]
        self.bodies.extend(seen)
        return seen[-1]

    def events(self) -> list[str]:
        import json

        return [
            json.loads(line)["name"]
            for line in self.log_path.read_text(encoding="utf-8").splitlines()
            if json.loads(line)["kind"] == "event"
        ]

    def user_message_ids(self) -> list[int]:
        """The person's messages' ids, oldest first (what a memory's sources cite)."""
        from sqlmodel import col, select

        from storage.models import Message

        with self.db.session() as session:
            return [i for i in session.exec(select(Message.id).where(
                Message.role == "user").order_by(col(Message.id))).all() if i is not None]

    def use_model(self, model: ChatModel) -> None:
        """Answer with ``model`` from now on; the world owns it and closes it."""
        self.core.drop_model()
        self.core.model_factory = lambda _settings: model
        self.core.chat_model()

    def close(self) -> None:
        self.core.close()


def turn_texts(body: Mapping[str, Any]) -> list[str]:
    return [
        block.get("text", "")
        for message in body["messages"]
        for block in message["content"]
        if block.get("type") == "text"
    ]


def ti_text(body: dict[str, Any]) -> str:
    """The Timeline Index of a body (its head and tail blocks joined)."""
    from cms.context.prompt import system_parts

    return system_parts(body)[1]


__all__ = ["CountingSummarizer", "Turn", "World", "monet_command", "monet_env", "run_monet",
           "ti_text", "turn_texts"]


# ----- the monet command in its own process ------------------------------------------------
def monet_command(*args: str | os.PathLike[str]) -> list[str]:
    """The ``monet`` command line with ``args``: this checkout's interpreter running the
    package (``python -m monet_app.cli``), so no installed script is needed. For a process
    kept running (``subprocess.Popen``); ``run_monet`` runs one to its end."""
    return [sys.executable, "-m", "monet_app.cli", *(os.fspath(arg) for arg in args)]


def monet_env(env: Mapping[str, str] | None = None, *,
              without: Iterable[str] = ()) -> dict[str, str]:
    """This process's environment as it is now (a test's monkeypatch included), with
    ``env`` laid over it and the names in ``without`` left out."""
    merged = {**os.environ, **(env or {})}
    for name in without:
        merged.pop(name, None)
    return merged


def run_monet(*args: str | os.PathLike[str], home: str | os.PathLike[str] | None = None,
              env: Mapping[str, str] | None = None, without: Iterable[str] = (),
              cwd: str | os.PathLike[str] | None = None, timeout: float = 300,
              check: bool = False) -> subprocess.CompletedProcess[str]:
    """Run ``monet *args`` to its end; its output is captured as text. ``home`` adds
    ``--home HOME`` after the arguments; ``env`` and ``without`` change the environment
    (``monet_env``), which is otherwise this process's; ``check`` raises on a nonzero exit."""
    command = monet_command(*args, *(("--home", home) if home is not None else ()))
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                          check=check, cwd=cwd, env=monet_env(env, without=without))


def write_between_reads(monkeypatch: Any, revisions: Any, write: Callable[[], None]) -> None:
    """Make another writer's ``write`` land between a kept-rows reader's two reads: right
    after ``revisions`` (the statement of the ids and revisions) has answered, before the
    reader reads the rows in full (``storage.rows.KeptRows``)."""
    from storage import rows as kept_rows

    real = kept_rows.execute

    def execute(conn: Any, statement: Any, *args: Any, **kwargs: Any) -> Any:
        result = real(conn, statement, *args, **kwargs)
        if statement is not revisions:
            return result
        rows = result.all()
        write()

        class Rows:
            def all(self) -> list[Any]:
                return rows

        return Rows()

    monkeypatch.setattr(kept_rows, "execute", execute)


def blank_pdf(pages: int) -> bytes:
    """A small valid PDF of ``pages`` empty A4 pages (tests and benchmarks of
    attachments)."""
    import io

    from pypdf import PdfWriter

    writer = PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(width=595, height=842)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


@contextmanager
def memory_keyring() -> Iterator[dict[tuple[str, str], str]]:
    """The OS keyring replaced, for the block, by one in this process's memory (a real
    ``keyring`` backend: what MONET calls goes through the keyring module); yields its
    store, {(service, account): secret}."""
    import keyring
    from keyring.backend import KeyringBackend

    store: dict[tuple[str, str], str] = {}

    class Memory(KeyringBackend):
        priority = 1

        def get_password(self, service: str, username: str) -> str | None:
            return store.get((service, username))

        def set_password(self, service: str, username: str, password: str) -> None:
            store[(service, username)] = password

        def delete_password(self, service: str, username: str) -> None:
            store.pop((service, username), None)

    previous = keyring.get_keyring()
    keyring.set_keyring(Memory())
    try:
        yield store
    finally:
        keyring.set_keyring(previous)


def differences_from_the_models(session: Any) -> list[Any]:
    """What alembic finds between the database of ``session`` (made by the migrations) and
    ``storage/models.py``: a model column, table or index the chain does not make, or
    makes of another type. What only the database has (the search's tables and columns,
    the partial indexes, the triggers' tables) is the migrations' own and is left out."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlmodel import SQLModel

    import storage.models  # noqa: F401  (the tables)

    def ours(obj: object, name: str | None, type_: str, reflected: bool,
             compare_to: object) -> bool:
        return not (reflected and compare_to is None)

    context = MigrationContext.configure(
        session.connection(), opts={"compare_type": True, "include_object": ours})
    with warnings.catch_warnings():  # an expression index (the migrations' own) is not read
        warnings.filterwarnings("ignore", "Skipped unsupported reflection")
        return list(compare_metadata(context, SQLModel.metadata))


def write_past_day(home: Path) -> None:
    """A history at ``home`` holding one exchange on a past day (2025-01-05)."""
    from cms.context.manager import ContextManager
    from cms.tokens import TiktokenEstimator
    from storage import Database

    db = Database(home)
    cm = ContextManager(db, Settings(), ManualClock(parse_ts("2025-01-05T10:00:00+09:00")),
                        TiktokenEstimator())
    cm.commit_user_message("an old message from January", "chat")
    cm.record_reply("an old reply", "chat")
    db.close()
