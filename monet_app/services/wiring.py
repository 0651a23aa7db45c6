"""Building MONET's core, in one place, for every entry point.

``build_core`` opens the data folder and makes what each entry point needs: the database,
the settings (with per-run overrides), the token estimator, the request log, the context
manager, the turn runner and, on first use, the librarian (its summarizer and context
writer) and the chat model. The window (``monet_app.window.app``), ``monet replay``,
``monet librarian``, ``monet timeline`` and the tests all call it, so a part is
configured the same way everywhere (``docs/ARCHITECTURE.md``, "Building the core").
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from cms.clock import Clock, day_of
from cms.context.events import RequestLog
from cms.context.manager import ContextManager
from cms.context.turn import TurnRunner
from cms.librarian.runner import Librarian, LibrarianReport, ServiceElsewhere
from cms.librarian.summarizer import ClaudeSummarizer
from cms.meaning import Meaning
from cms.memory.context_summary import (
    ClaudeContextWriter,
    ContextWriter,
    OfflineContextWriter,
)
from cms.memory.proposer import ClaudeProposer, Proposer, RuleProposer
from cms.model.cache_sim import PromptCacheSimulator
from cms.model.errors import ModelError
from cms.model.ledger import record, usage_record
from cms.model.pricing import prices_from_settings
from cms.model.protocol import ChatModel, ModelEvent, RequestBody, Usage
from cms.model.standin import StandInModel
from cms.settings import Privacy, Settings, load_settings, save_settings
from cms.summaries import OfflineSummarizer, Summarizer
from cms.tokens import TiktokenEstimator, TokenEstimator
from monet_app.services.gate import Gate
from storage import Database
from storage.errors import UserFacingError

log = logging.getLogger("monet.wiring")

#: Makes the chat model from the current settings; may raise ``MissingKeyError``.
ModelFactory = Callable[[Settings], ChatModel]
#: Where the librarian's summaries come from: Claude when a key exists (else offline,
#: said in ``Core.librarian_note``), always offline, or a given summarizer (tests).
SummarizerChoice = Literal["auto", "offline"] | Summarizer
#: A summary of a long run may take a while; a chat reply has its own setting.
LIBRARIAN_TIMEOUT_SECONDS = 120.0


def env_request_log() -> Path | None:
    """The request log a person asked for with ``MONET_REQUEST_LOG`` (docs/replay.md)."""
    value = os.environ.get("MONET_REQUEST_LOG")
    return Path(value) if value else None


def gateway_model(settings: Settings, timeout: float | None = None) -> ChatModel:
    """Claude through the official SDK (key from the environment or the OS keyring)."""
    from monet_app.services.gateway import AnthropicModel, make_client

    return AnthropicModel(make_client(
        max_retries=settings.max_retries, timeout=timeout or settings.request_timeout_seconds
    ))


def standin_model(base_url: str) -> ModelFactory:
    """Replies from a local stand-in of Anthropic's API (the demo's), through the real
    SDK with a placeholder key: nothing leaves the machine."""

    def make(settings: Settings) -> ChatModel:
        from monet_app.services.gateway import AnthropicModel, make_client

        return AnthropicModel(make_client("sk-ant-demo-stand-in", base_url=base_url,
                                          max_retries=0))

    return make


def no_model(settings: Settings) -> ChatModel:
    """For entry points that never talk to Claude (``monet timeline``)."""
    raise ModelError("This command does not talk to Claude.")


@dataclass
class Core:
    """The parts one process uses over one data folder. ``close()`` releases all of them."""

    home: Path
    db: Database
    settings: Settings
    clock: Clock
    estimator: TokenEstimator
    log: RequestLog
    context: ContextManager
    runner: TurnRunner
    model_factory: ModelFactory
    summarizer_choice: SummarizerChoice
    #: Whether ``settings`` are the data folder's (with ``overrides`` for this run), not
    #: given whole by the caller (tests).
    stored_settings: bool = True
    overrides: Mapping[str, Any] = field(default_factory=dict)
    #: What every writing operation enters (``monet_app/services/gate.py``); a core
    #: built again after a restore keeps the old one.
    gate: Gate = field(default_factory=Gate)
    #: Recall by meaning: the librarian embeds with it, Claude's search and the person's
    #: ask it (``cms/meaning.py``; the encoder loads on its first use, off the GUI thread).
    meaning: Meaning = field(default_factory=Meaning)
    #: Whether the librarian embeds messages (a replay may leave it out: ``--meaning off``).
    embeds: bool = True
    #: Messages without vectors after the last librarian pass of this process (the
    #: window shows the count while a year's history or a new model is embedded).
    unembedded: int = 0
    #: The librarian service doing this shared history's passes, as the last pass found
    #: (None: this process does them).
    service: ServiceElsewhere | None = None
    _model: ChatModel | None = field(default=None, repr=False)
    _librarian: tuple[Librarian, str] | None = field(default=None, repr=False)
    _retired: list[Librarian] = field(default_factory=list, repr=False)

    def _built_librarian(self) -> tuple[Librarian, str]:
        """Made on first use: finding the API key (the OS keyring) is left to the first
        pass, off the window's start-up and, in the app, off the GUI thread."""
        if self._librarian is None:
            self._librarian = build_librarian(
                self.db, self.settings, self.clock, self.log, self.summarizer_choice,
                privacy=self.privacy, meaning=self.meaning if self.embeds else None,
            )
        return self._librarian

    @property
    def librarian(self) -> Librarian:
        return self._built_librarian()[0]

    def librarian_pass(self) -> int:
        """``librarian_report``: how many summaries were written."""
        return self.librarian_report().written

    def librarian_report(self, *, embed: bool = True) -> LibrarianReport:
        """One librarian pass in this process, then the Timeline Index lines it made
        ready counted ahead (``ContextManager.count_ahead``), so the next rebuild does
        not encode them while the person waits. ``embed``: the pass also embeds the
        messages for recall by meaning (the window does it as a step of its own)."""
        report = self.librarian.run_pass(embed=embed)
        try:
            self.context.count_ahead()
        except Exception as exc:  # for speed only: the rebuild counts, as before
            # (a locked database is said in a line; anything else with its traceback)
            log.warning("counting ahead skipped: %s", exc,
                        exc_info=not isinstance(exc, UserFacingError))
        return report

    def privacy(self) -> Privacy:
        """The incognito days and tabs as they are now, for the librarian's memory scan.
        With the data folder's settings they are read from it each time: a change made
        while a librarian was being built on a worker, or by another process (the window
        beside ``monet librarian --watch``), holds at the next batch."""
        if not self.stored_settings:
            return self.settings.privacy
        with self.db.session() as session:
            return load_settings(session).with_overrides(**dict(self.overrides)).privacy

    @property
    def librarian_by_model(self) -> bool:
        """Whether this process's librarian summarizes with Claude (a key was found; the
        offline summarizer otherwise). Builds the librarian: the keyring, off the GUI
        thread."""
        return not isinstance(self.librarian.summarizer, OfflineSummarizer)

    @property
    def librarian_note(self) -> str:
        """A sentence saying which summarizer the librarian uses."""
        return self._built_librarian()[1]

    def chat_model(self) -> ChatModel:
        """The chat model, made on first use (a ``UserFacingError`` if there is no key)."""
        if self._model is None:
            self._model = self.model_factory(self.settings)
            self.runner.model = self._model
        return self._model

    def warm(self) -> None:
        """What the first send and the first search would wait for, done ahead (on a
        worker, after the window opens), so they start as fast as the tenth: the
        tokenizer's encoding (0.2 s, the first commit counts with it), the anthropic
        SDK's import (1-2 s; the model itself is made with the first reply,
        ``chat_model``), and the meaning index and its encoder (``Meaning.warm``).

        After each step what is loaded so far is moved out of the garbage collector's
        reach (``gc.freeze``: it lives as long as the process). A full collection walks
        every tracked object holding the interpreter lock; with the SDK's objects in it,
        one ran ~120-150 ms, and the window's event loop waited that long
        (``benchmarks/gui_first_send.py``; 60-75 ms turns with the freezes)."""
        import gc

        from cms import tokens

        tokens.preload()
        gc.freeze()
        import monet_app.services.gateway  # noqa: F401

        gc.freeze()
        if self.embeds:
            with self.db.session() as session:
                self.meaning.warm(session)
            gc.freeze()

    def drop_model(self) -> None:
        """Close the chat model; the next use makes a new one (a new key, a network back)."""
        if self._model is not None:
            self._model.close()
            self._model = None

    def use_settings(self, settings: Settings) -> None:
        """Store validated settings and use them.

        A change of the incognito days or tabs only tells the context manager (a reply or
        a librarian pass in flight goes on; the librarian asks ``privacy`` at each batch).
        Any other change rebuilds the context manager, the runner and the librarian and
        drops the model; the caller makes sure no reply is in flight (the window's gate).
        The old librarian may still be in a pass on a worker: it is closed with the core,
        not now."""
        settings = settings.validated()
        with self.db.session() as session:
            save_settings(session, settings)
        # privacy, appearance and backups change nothing that is sent: no rebuild for them
        privacy_only = self.settings.model_copy(update={
            "incognito_days": settings.incognito_days, "incognito_tabs": settings.incognito_tabs,
            "theme": settings.theme, "backup_keep": settings.backup_keep,
        }) == settings
        self.settings = settings
        if privacy_only:
            self.context.settings = settings
            return
        self.drop_model()
        self.context = ContextManager(self.db, settings, self.clock, self.estimator, self.log)
        self.runner = TurnRunner(self.context, _Unset(), self.log, meaning=self.meaning)
        if self._librarian is not None:
            self._retired.append(self._librarian[0])
            self._librarian = None

    def close(self) -> None:
        self.drop_model()
        current = [self._librarian[0]] if self._librarian is not None else []
        for librarian in [*self._retired, *current]:
            librarian.close()
        self.log.close()
        self.db.close()


def build_core(
    home: Path,
    *,
    clock: Clock,
    settings: Settings | None = None,
    overrides: Mapping[str, Any] | None = None,
    request_log: Path | None = None,
    estimator: TokenEstimator | None = None,
    summarizer: SummarizerChoice = "auto",
    model_factory: ModelFactory = gateway_model,
    gate: Gate | None = None,
    database_url: str | None = None,
) -> Core:
    """Open ``home`` and build every part: with the stored settings, or ``settings`` if
    given (tests), and ``overrides`` on top for this run only. ``database_url``: where
    the history is (``storage.database.database_url``: None reads the environment and the
    device's file; "" is the SQLite file)."""
    db = Database(home, url=database_url)
    stored = settings is None
    if settings is None:
        with db.session() as session:
            settings = load_settings(session)
    settings = settings.with_overrides(**dict(overrides or {}))
    estimator = estimator or TiktokenEstimator()
    log = RequestLog(request_log)
    context = ContextManager(db, settings, clock, estimator, log)
    meaning = Meaning()
    return Core(
        home=db.home, db=db, settings=settings, clock=clock, estimator=estimator, log=log,
        context=context, runner=TurnRunner(context, _Unset(), log, meaning=meaning),
        meaning=meaning,
        model_factory=model_factory, summarizer_choice=summarizer,
        stored_settings=stored, overrides=dict(overrides or {}), gate=gate or Gate(),
    )


def standin_factory(estimator: TokenEstimator, clock: Clock) -> Callable[[Settings], StandInModel]:
    """The replay's stand-in model, priced by the prompt-cache simulator on ``clock``."""

    def make(settings: Settings) -> StandInModel:
        return StandInModel(estimator, cache=PromptCacheSimulator(estimator), now=clock.now)

    return make


def build_librarian(
    db: Database,
    settings: Settings,
    clock: Clock,
    log: RequestLog | None = None,
    summarizer: SummarizerChoice = "auto",
    *,
    privacy: Callable[[], Privacy] | None = None,
    meaning: Meaning | None = None,
) -> tuple[Librarian, str]:
    """The librarian this machine can run now, and a sentence saying which summarizer."""
    writer: ContextWriter = OfflineContextWriter()
    proposer: Proposer = RuleProposer()
    chosen: Summarizer
    if not isinstance(summarizer, str):
        chosen, note = summarizer, f"summarizer {summarizer.name}"
    elif summarizer == "offline" or settings.librarian_summarizer == "offline":
        chosen, note = OfflineSummarizer(), "offline summarizer (as set)"
    else:
        try:
            model = gateway_model(settings, timeout=LIBRARIAN_TIMEOUT_SECONDS)
        except UserFacingError:
            chosen, note = OfflineSummarizer(), "no API key: the offline summarizer stands in"
        else:
            prices = prices_from_settings(settings.prices)

            def ledger(usage: Usage, model_name: str) -> None:
                now = clock.now()
                record(db, usage_record(
                    ts=now.isoformat(), day=day_of(now, settings.day_start_time),
                    purpose="librarian", model=model_name, usage=usage, estimated_input=0,
                    source="api", prices=prices,
                ))

            chosen = ClaudeSummarizer(model, settings.librarian_model, ledger)
            writer = ClaudeContextWriter(model, settings.librarian_model, ledger)
            proposer = ClaudeProposer(model, settings.librarian_model, ledger,
                                      settle_minutes=settings.segment_pause_minutes)
            note = f"summaries by {settings.librarian_model}"
    librarian = Librarian(
        db, chosen, clock, settings.librarian_interval_minutes,
        context_writer=writer, day_start=settings.day_start_time, log=log,
        pause_minutes=settings.segment_pause_minutes, segment_tokens=settings.segment_max_tokens,
        privacy=privacy or (lambda: settings.privacy), proposer=proposer, meaning=meaning,
    )
    return librarian, note


class _Unset:
    """The runner's model until ``Core.chat_model()`` makes one; never streams."""

    usage_source = "none"

    def stream(self, body: RequestBody) -> Generator[ModelEvent, None, None]:
        raise ModelError("No model is configured yet.")

    def close(self) -> None:
        pass
