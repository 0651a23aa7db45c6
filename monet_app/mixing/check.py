"""``monet check-mixing``: does Claude keep topics apart when they share one daily stream?

How a run goes (decisions):

- **Each built-in day runs twice**, as the sunset model (one stream: every tab's talk in
  one request) and as the thread model (a tab is a thread, as ``monet replay --sunset
  off`` does it: a change of tab is a change of thread, so a request carries one tab's
  talk raw, and the other threads only as Timeline Index lines, summarized offline, as
  in the app). Both go through the real context manager, turn runner, prompt and
  librarian (offline summarizer), in a throwaway data folder (``tempfile``): the day's
  talk is replayed with ``monet_app.services.replay.replay`` and the replay's stand-in model,
  never sent anywhere.
- **Each probe is asked alone**, on a copy of the replayed day's folder, as the
  person's next message in its tab, at the day's ``probes_at`` time: no probe sees
  another probe's question or answer (a wrong answer cannot spoil the next probe, and
  each is the same request whatever the order). The probe's request is the only one
  that goes to the answering model.
- **Who answers.** Offline (the default) an in-process stand-in of Anthropic's API
  (``AnswerKeyServer``, a ``StandInServer``) answers through the real SDK and gateway,
  from the probe's answer key: ``right`` (this tab's fact), ``wrong`` (the other tab's
  fact: the checker must report it mixed up), ``echo`` (the question back: "other")
  or ``tab-blind`` (reads the request's messages and answers with the fact of the
  latest message that mentions the shared word, whatever its tab: a reader that
  ignores the tab labels, which mixes topics up in one stream and not in threads, so
  the check is seen to tell the two apart). With ``--live`` the answers come from
  Claude through the gateway (``ANTHROPIC_BASE_URL`` honoured, the key from the usual
  places), with the person's model (or ``--model``) and pinned instructions (or
  ``--core-prompt FILE``, to measure a change before making it).
- **The person's data folder** is only read for the settings and the key, written for
  the usage ledger (live runs: purpose ``check-mixing``, the grader's requests too) and
  for the last report (``check-mixing-report.json``, which the window shows).
  Nothing of the check enters the person's conversation or its prompt.
- **The throwaway settings** are the person's, except: the day's tabs (Japanese days
  チャット / リサーチ / 仕事 / ソーシャル, English days Chat / Research / Work /
  Social), the model shape, day start 04:00, no incognito, the offline librarian.
  Promoted core facts (``system_prompt_core.txt``) are not copied: the pinned block is
  the instructions alone.
- **Cost** (``estimate_cost``): the check runs once offline (``echo``) to build the
  exact probe requests; their usage as the prompt-cache simulator reports it, priced
  at the model, with ``ESTIMATED_ANSWER_TOKENS`` of answer each, is the estimate; the
  "at most" figure assumes one ``search_history`` round per probe, nothing read from
  the cache and ``MOST_ANSWER_TOKENS`` per answer. The grader's requests are counted
  separately.
- **The grader** (``--grader``, only with ``--live``): a second opinion per probe from
  a cheaper Claude model (``librarian_model`` unless ``--grader-model``), given the
  question, both tabs' facts and the answer, asked for RIGHT, MIXED or OTHER; reported
  beside the rule's verdict, never instead of it.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
import threading
import unicodedata
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import IO, Any, Literal

from cms.clock import ManualClock, day_of, parse_ts
from cms.model.errors import MissingKeyError
from cms.model.ledger import record, usage_record
from cms.model.pricing import Price, dollars, price_for, prices_from_settings
from cms.model.protocol import (
    ChatModel,
    Completed,
    ModelEvent,
    RequestBody,
    TextDelta,
    Usage,
    body_text_tokens,
)
from cms.settings import Settings, load_settings
from cms.tokens import TiktokenEstimator, TokenEstimator
from monet_app.mixing.days import (
    STANDIN_MODES,
    VERDICTS,
    Day,
    Probe,
    Verdict,
    builtin_days,
    contains,
    judge,
)
from monet_app.services.keys import load_api_key
from monet_app.services.replay import replay
from monet_app.services.standin_server import StandInServer
from monet_app.services.wiring import build_core, gateway_model, standin_model
from storage import Database
from storage.errors import CheckStopped, InputError
from storage.models import MessageRole

#: The usage ledger's purpose for what the check spends (probes and grader).
PURPOSE = "check-mixing"
#: The last report, kept in the person's data folder for the window.
REPORT_FILE = "check-mixing-report.json"
REPORT_VERSION = 1
Shape = Literal["sunset", "thread"]
SHAPES: tuple[Shape, ...] = ("sunset", "thread")
#: An answer's length in the estimate; the "at most" figure takes the longer one.
ESTIMATED_ANSWER_TOKENS = 150
MOST_ANSWER_TOKENS = 400
GRADER_MAX_TOKENS = 16
#: Said wherever stand-in answers are reported.
STANDIN_NOTE = "stand-in answers: this checks the path, not Claude"

_USER_LABEL = re.compile(r"^\[(.+) \d{2}:\d{2}\]\n")


@dataclass(frozen=True)
class CheckOptions:
    live: bool = False
    standin: str = "right"  # offline only: right | wrong | echo | tab-blind
    model: str | None = None  # default: the person's chat model
    grader: bool = False
    grader_model: str | None = None  # default: the person's librarian model
    core_prompt: str | None = None  # pinned instructions to try (default: the person's)
    core_prompt_source: str = ""  # where they came from, for the report
    days: tuple[str, ...] = ()  # built-in day ids; empty: all

    def checked(self) -> CheckOptions:
        if self.standin not in STANDIN_MODES:
            raise InputError(
                "The stand-in answers {modes} (got {standin!r}).", modes=" | ".join(STANDIN_MODES),
                standin=self.standin)
        if self.grader and not self.live:
            raise InputError("The grader asks Claude for a second opinion: it needs --live.")
        if self.model is not None and not self.model.strip():
            raise InputError("--model needs a model name.")
        if self.core_prompt is not None and not self.core_prompt.strip():
            raise InputError("The pinned instructions to try are empty.")
        known = [d.id for d in builtin_days()]
        unknown = [d for d in self.days if d not in known]
        if unknown:
            raise InputError(
                "No built-in mixed day {unknown}; there are {known}.", unknown=", ".join(unknown),
                known=", ".join(known))
        return self


# ----- who answers ----------------------------------------------------------------------
def request_labels(body: RequestBody | dict[str, Any]) -> list[str]:
    """The tab labels of the person's turns in a request's messages, in order of first
    appearance (each user turn starts ``[label HH:MM]``)."""
    seen: list[str] = []
    for message in body.get("messages", []):
        if message.get("role") != "user":
            continue
        for block in message.get("content", []):
            if isinstance(block, dict) and block.get("type") == "text":
                found = _USER_LABEL.match(str(block.get("text", "")))
                if found and found.group(1) not in seen:
                    seen.append(found.group(1))
    return seen


def _mentions(text: str, topic: Iterable[str]) -> bool:
    return any(contains(text, word) for word in topic)


class AnswerKeyServer(StandInServer):
    """The stand-in of Anthropic's API that answers a probe from its answer key.

    ``current`` is the probe being asked (set before its request); without one, the
    stand-in answers as usual. Only the request's text decides ``tab-blind``."""

    def __init__(self, mode: str) -> None:
        super().__init__(answer_prefix="（stand-in）")
        self.mode = mode
        self.current: tuple[Day, Probe] | None = None

    def answer(self, body: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
        current = self.current
        if current is None:
            return super().answer(body)
        day, probe = current
        if self.mode == "right":
            text = probe.right
        elif self.mode == "wrong":
            text = probe.wrong
        elif self.mode == "tab-blind":
            text = self._tab_blind(body, day, probe)
        else:
            text = probe.question
        return [{"type": "text", "text": text}], "end_turn"

    @staticmethod
    def _tab_blind(body: dict[str, Any], day: Day, probe: Probe) -> str:
        """The fact of the latest earlier message that mentions the shared word: this
        tab's fact if that message is in this tab, else the other tab's."""
        label = ""
        latest: str | None = None
        for message in body.get("messages", [])[:-1]:  # the last one is the question
            for block in message.get("content", []):
                if not isinstance(block, dict) or block.get("type") != "text":
                    continue
                text = str(block.get("text", ""))
                found = _USER_LABEL.match(text) if message.get("role") == "user" else None
                if found:
                    label = found.group(1)
                if _mentions(text, probe.topic):
                    latest = label
        if latest is None:
            return probe.question
        return probe.right if latest == day.label(probe.tab) else probe.wrong


class _Recorded:
    """The answering model as the throwaway core sees it: keeps each request body and
    leaves the shared model open when a core closes."""

    def __init__(self, owner: _Answers) -> None:
        self.owner = owner
        self.usage_source = owner.model.usage_source

    def stream(self, body: RequestBody) -> Generator[ModelEvent, None, None]:
        self.owner.bodies.append(copy.deepcopy(body))
        yield from self.owner.model.stream(body)

    def close(self) -> None:
        """The shared model is closed by its owner, once."""


class _Answers:
    """Where the probes' answers come from: Claude through the gateway (``live``) or
    the answer-key stand-in through the real SDK and the same gateway."""

    def __init__(self, options: CheckOptions, settings: Settings) -> None:
        self.server: AnswerKeyServer | None = None
        if options.live:
            self.model: ChatModel = gateway_model(settings)
        else:
            self.server = AnswerKeyServer(options.standin).start()
            self.model = standin_model(self.server.url)(settings)
        self.bodies: list[RequestBody] = []

    def factory(self, settings: Settings) -> ChatModel:
        return _Recorded(self)

    def asking(self, day: Day, probe: Probe | None) -> None:
        """``probe`` is asked next (its bodies are kept from now); None: it was asked."""
        if probe is not None:
            self.bodies.clear()
        if self.server is not None:
            self.server.current = (day, probe) if probe is not None else None

    def close(self) -> None:
        self.model.close()
        if self.server is not None:
            self.server.stop()


# ----- one probe ------------------------------------------------------------------------
@dataclass
class Outcome:
    """One probe asked in one model shape."""

    verdict: Verdict
    answer: str
    right_found: tuple[str, ...]
    mixed_found: tuple[str, ...]
    usages: list[Usage]
    dollars: float
    tabs_in_request: list[str]
    prompt_tokens_estimate: int  # the first request body, counted offline (tiktoken)
    grader: str | None = None  # "right" | "mixed up" | "other" | "unclear"
    grader_usage: Usage | None = None
    grader_dollars: float = 0.0

    @property
    def prompt_tokens(self) -> int:
        return sum(u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens
                   for u in self.usages)

    def as_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "answer": self.answer,
            "right_found": list(self.right_found),
            "mixed_found": list(self.mixed_found),
            "requests": len(self.usages),
            "input_tokens": sum(u.input_tokens for u in self.usages),
            "cache_read_tokens": sum(u.cache_read_input_tokens for u in self.usages),
            "cache_write_tokens": sum(u.cache_creation_input_tokens for u in self.usages),
            "prompt_tokens": self.prompt_tokens,
            "output_tokens": sum(u.output_tokens for u in self.usages),
            "dollars": round(self.dollars, 6),
            "tabs_in_request": self.tabs_in_request,
            "grader": self.grader,
        }


def _throwaway_overrides(settings: Settings, day: Day, shape: Shape) -> dict[str, Any]:
    values: dict[str, Any] = settings.values()
    values.update(
        tabs=day.tabs, sunset_model=shape == "sunset", day_start="04:00",
        incognito_days=(), incognito_tabs=(), librarian_summarizer="offline",
    )
    return values


def _replay_day(day: Day, home: Path, overrides: dict[str, Any],
                estimator: TokenEstimator) -> None:
    trace = home.with_suffix(".jsonl")
    trace.write_text("\n".join(day.trace_lines()) + "\n", "utf-8")
    replay(trace, home, None, overrides=overrides, librarian=True, estimator=estimator)


def _ask(home: Path, day: Day, probe: Probe, overrides: dict[str, Any], answers: _Answers,
         estimator: TokenEstimator) -> tuple[str, list[Usage]]:
    """Ask ``probe`` as the next message in its tab on the replayed day in ``home``."""
    clock = ManualClock(parse_ts(day.probes_at))
    core = build_core(home, clock=clock, overrides=overrides, estimator=estimator,
                      summarizer="offline", model_factory=answers.factory)
    try:
        core.chat_model()
        cm = core.context
        cm.app_started()
        cm.switch_tab(probe.tab)
        if not core.settings.sunset_model:
            cm.switch_thread(cm.thread_named(probe.tab))  # a tab is a thread
        answers.asking(day, probe)
        result = core.runner.send(probe.question, probe.tab)
    finally:
        answers.asking(day, None)
        core.close()
    text = result.reply.text if result.reply is not None else ""
    return text, list(result.usages)


# ----- the grader -----------------------------------------------------------------------
GRADER_SYSTEM = (
    "You check one answer of an assistant in a test of topic mixing. A person talks to the "
    "assistant in several tabs (chat, research, work, social) of one conversation, and the "
    "same word can mean different things in different tabs. The person asked a question in "
    "one tab. Say RIGHT if the answer gives the fact from that tab, MIXED if it gives or "
    "brings in the fact from the other tab, OTHER if it does neither. Reply with one word: "
    "RIGHT, MIXED or OTHER."
)


def grader_body(model: str, day: Day, probe: Probe, answer: str) -> RequestBody:
    text = (
        f"Tab the question was asked in: {day.label(probe.tab)}\n"
        f"Question: {probe.question}\n"
        f"The fact from this tab: {probe.right}\n"
        f"The fact from the other tab: {probe.wrong}\n\n"
        f"The assistant's answer:\n{answer or '(no answer)'}"
    )
    return {
        "model": model,
        "max_tokens": GRADER_MAX_TOKENS,
        "system": [{"type": "text", "text": GRADER_SYSTEM}],
        "messages": [{"role": MessageRole.USER, "content": [{"type": "text", "text": text}]}],
    }


def grader_opinion(text: str) -> str:
    """The grader's word as a verdict; "unclear" when it said none of the three."""
    found = re.search(r"\b(RIGHT|MIXED|OTHER)\b", text.upper())
    if found is None:
        return "unclear"
    return {"RIGHT": "right", "MIXED": "mixed up", "OTHER": "other"}[found.group(1)]


def _grade(model: ChatModel, body: RequestBody) -> tuple[str, Usage]:
    pieces: list[str] = []
    usage = Usage()
    for event in model.stream(body):
        if isinstance(event, TextDelta):
            pieces.append(event.text)
        elif isinstance(event, Completed):
            usage = event.usage
    return grader_opinion("".join(pieces)), usage


# ----- the person's side: settings, ledger, report --------------------------------------
def person_settings(home: Path) -> Settings:
    db = Database(home)
    try:
        with db.session() as session:
            return load_settings(session)
    finally:
        db.close()


class _Ledger:
    """What a live check spends, in the person's usage ledger (purpose ``check-mixing``)."""

    def __init__(self, home: Path, settings: Settings, now: Callable[[], datetime]) -> None:
        self.db = Database(home)
        self.settings = settings
        self.prices = prices_from_settings(settings.prices)
        self.now = now

    def add(self, usage: Usage, model: str, source: str, estimated_input: int) -> None:
        moment = self.now()
        record(self.db, usage_record(
            ts=moment.isoformat(), day=day_of(moment, self.settings.day_start_time),
            purpose=PURPOSE, model=model, usage=usage, estimated_input=estimated_input,
            source=source, prices=self.prices,
        ))

    def close(self) -> None:
        self.db.close()


def report_path(home: Path) -> Path:
    return home / REPORT_FILE


def write_json(path: Path, report: dict[str, Any]) -> None:
    """Written whole or not at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = json.dumps(report, ensure_ascii=False, indent=2) + "\n"
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def last_report(home: Path) -> dict[str, Any] | None:
    """The report the last check left in ``home``; None when there is none (or it cannot
    be read: an unreadable report is not worth an error)."""
    try:
        data = json.loads(report_path(home).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("version") != REPORT_VERSION:
        return None
    return data


# ----- the run --------------------------------------------------------------------------
@dataclass
class _Asked:
    day: Day
    probe: Probe
    outcomes: dict[Shape, Outcome] = field(default_factory=dict)


def _selected_days(options: CheckOptions) -> list[Day]:
    days = builtin_days()
    return [d for d in days if not options.days or d.id in options.days]


def _wall_clock() -> datetime:
    return datetime.now().astimezone()


def _run(
    home: Path,
    options: CheckOptions,
    *,
    progress: Callable[[int, int], None] | None = None,
    cancel: threading.Event | None = None,
    now: Callable[[], datetime] = _wall_clock,
) -> tuple[dict[str, Any], list[_Asked]]:
    options = options.checked()
    person = person_settings(home)
    settings = person.with_overrides(model=options.model, core_prompt=options.core_prompt)
    prices = prices_from_settings(settings.prices)
    grader_model = options.grader_model or settings.librarian_model
    days = _selected_days(options)
    total = sum(len(d.probes) for d in days) * len(SHAPES)
    estimator = TiktokenEstimator()
    asked = [_Asked(day, probe) for day in days for probe in day.probes]
    by_key = {(a.day.id, a.probe.id): a for a in asked}
    answers = _Answers(options, settings)
    ledger = _Ledger(home, settings, now) if options.live else None
    done = 0
    try:
        with tempfile.TemporaryDirectory(prefix="monet-check-mixing-") as scratch:
            for day in days:
                for shape in SHAPES:
                    overrides = _throwaway_overrides(settings, day, shape)
                    base = Path(scratch) / f"{day.id}-{shape}"
                    _replay_day(day, base, overrides, estimator)
                    for probe in day.probes:
                        if cancel is not None and cancel.is_set():
                            if options.live:
                                raise CheckStopped("The check was stopped; nothing was "
                                                   "reported (what it spent is in the "
                                                   "usage ledger).")
                            raise CheckStopped("The check was stopped; nothing was reported.")
                        copy_home = Path(scratch) / f"{day.id}-{shape}-{probe.id}"
                        shutil.copytree(base, copy_home)
                        answer, usages = _ask(copy_home, day, probe, overrides, answers,
                                              estimator)
                        shutil.rmtree(copy_home, ignore_errors=True)
                        bodies = list(answers.bodies)
                        if ledger is not None:
                            for usage in usages:
                                ledger.add(usage, settings.model, answers.model.usage_source, 0)
                        judged = judge(probe, answer)
                        outcome = Outcome(
                            verdict=judged.verdict, answer=answer,
                            right_found=judged.right_found, mixed_found=judged.mixed_found,
                            usages=usages,
                            dollars=sum(dollars(u, settings.model, prices) for u in usages),
                            tabs_in_request=request_labels(bodies[0]) if bodies else [],
                            prompt_tokens_estimate=(
                                body_text_tokens(estimator, bodies[0]) if bodies else 0),
                        )
                        if options.grader:
                            body = grader_body(grader_model, day, probe, answer)
                            outcome.grader, outcome.grader_usage = _grade(answers.model, body)
                            outcome.grader_dollars = dollars(
                                outcome.grader_usage, grader_model, prices)
                            if ledger is not None:
                                ledger.add(outcome.grader_usage, grader_model,
                                           answers.model.usage_source, 0)
                        by_key[(day.id, probe.id)].outcomes[shape] = outcome
                        done += 1
                        if progress is not None:
                            progress(done, total)
    finally:
        answers.close()
        if ledger is not None:
            ledger.close()
    report = _report(asked, options, settings, grader_model, now())
    return report, asked


def run_check(
    home: Path,
    options: CheckOptions,
    *,
    progress: Callable[[int, int], None] | None = None,
    cancel: threading.Event | None = None,
    now: Callable[[], datetime] = _wall_clock,
    keep: bool = True,
) -> dict[str, Any]:
    """Run the check; the report (also kept in ``home`` unless ``keep`` is False).

    ``progress(done, total)`` is called after each probe (from this thread); ``cancel``
    stops the run before the next probe (``CheckStopped``)."""
    report, _asked = _run(home, options, progress=progress, cancel=cancel, now=now)
    if keep:
        write_json(report_path(home), report)
    return report


# ----- the report -----------------------------------------------------------------------
def _totals(asked: list[_Asked], shape: Shape, grader: bool) -> dict[str, Any]:
    outcomes = [a.outcomes[shape] for a in asked if shape in a.outcomes]
    usages = [u for o in outcomes for u in o.usages]
    counts = {v: sum(1 for o in outcomes if o.verdict == v) for v in VERDICTS}
    totals: dict[str, Any] = {
        "probes": len(outcomes),
        "right": counts["right"],
        "mixed_up": counts["mixed up"],
        "other": counts["other"],
        "requests": len(usages),
        "input_tokens": sum(u.input_tokens for u in usages),
        "cache_read_tokens": sum(u.cache_read_input_tokens for u in usages),
        "cache_write_tokens": sum(u.cache_creation_input_tokens for u in usages),
        "prompt_tokens": sum(o.prompt_tokens for o in outcomes),
        "output_tokens": sum(u.output_tokens for u in usages),
        "dollars": round(sum(o.dollars for o in outcomes), 6),
        "grader": None,
    }
    if grader:
        opinions = [o.grader for o in outcomes]
        totals["grader"] = {
            "right": opinions.count("right"), "mixed_up": opinions.count("mixed up"),
            "other": opinions.count("other"), "unclear": opinions.count("unclear"),
            "dollars": round(sum(o.grader_dollars for o in outcomes), 6),
        }
    return totals


#: What a report's counts suggest (``finding`` in the report; the window says it in
#: the person's language).
FINDINGS: dict[str, str] = {
    "stream_mixes_more": "one stream mixed topics up more often than separate threads: read "
                         "the mixed-up probes before turning the sunset model on",
    "cannot_tell": "most answers gave neither tab's fact, so this run cannot tell",
    "no_sign": "no sign that one stream mixes topics up",
    "fewer_right": "nothing mixed up, but one stream got fewer answers right (see 'other')",
    "both_mix": "one stream mixed topics up no more often than separate threads, but both "
                "mixed some up: read those probes",
}


def finding(totals: dict[str, dict[str, Any]]) -> str:
    """The key of ``FINDINGS`` that the two models' counts support."""
    s, t = totals["sunset"], totals["thread"]
    n = max(s["probes"], t["probes"], 1)
    if s["mixed_up"] > t["mixed_up"]:
        return "stream_mixes_more"
    if 2 * max(s["other"], t["other"]) > n:
        return "cannot_tell"
    if s["mixed_up"] == 0 and t["mixed_up"] == 0:
        return "no_sign" if s["right"] >= t["right"] else "fewer_right"
    return "both_mix"


def verdict_line(totals: dict[str, dict[str, Any]], standin: bool, model: str) -> str:
    """One line: both models' counts and what they suggest, honest about who answered."""
    s, t = totals["sunset"], totals["thread"]
    counts = (
        f"sunset model: {s['right']}/{s['probes']} right, {s['mixed_up']} mixed up; "
        f"thread model: {t['right']}/{t['probes']} right, {t['mixed_up']} mixed up"
    )
    who = STANDIN_NOTE if standin else f"answers from {model}"
    return f"{counts} — {FINDINGS[finding(totals)]} ({who})"


def _report(asked: list[_Asked], options: CheckOptions, settings: Settings,
            grader_model: str, when: datetime) -> dict[str, Any]:
    totals: dict[str, dict[str, Any]] = {
        shape: _totals(asked, shape, options.grader) for shape in SHAPES}
    standin = not options.live
    probes: list[dict[str, Any]] = []
    for a in asked:
        probes.append({
            "id": f"{a.day.id}/{a.probe.id}",
            "day": a.day.id,
            "lang": a.day.lang,
            "tab": a.probe.tab,
            "tab_label": a.day.label(a.probe.tab),
            "question": a.probe.question,
            **{shape: a.outcomes[shape].as_dict() for shape in SHAPES if shape in a.outcomes},
        })
    pinned = settings.core_prompt
    return {
        "version": REPORT_VERSION,
        "created": when.isoformat(timespec="seconds"),
        "answers": "stand-in" if standin else "claude",
        "standin_mode": options.standin if standin else None,
        "endpoint": (None if standin
                     else os.environ.get("ANTHROPIC_BASE_URL") or "https://api.anthropic.com"),
        "model": settings.model,
        "core_prompt": {
            "source": options.core_prompt_source or "settings",
            "sha256": hashlib.sha256(pinned.encode()).hexdigest()[:16],
        },
        "days": list(dict.fromkeys(a.day.id for a in asked)),
        "probes": probes,
        "totals": totals,
        "grader_model": grader_model if options.grader else None,
        "finding": finding(totals),
        "verdict": verdict_line(totals, standin, settings.model),
    }


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - _width(text))


def report_table(report: dict[str, Any]) -> str:
    """The report as a readable plain-text table."""
    grader = report.get("grader_model") is not None
    who = (f"the built-in stand-in (mode {report['standin_mode']})"
           if report["answers"] == "stand-in" else f"{report['model']} at {report['endpoint']}")
    lines = [
        f"check-mixing {report['created']}: {len(report['probes'])} probes x 2 models, "
        f"answers from {who}",
        "",
    ]
    probe_w = max([_width(p["id"]) for p in report["probes"]] + [5]) + 2
    tab_w = max([_width(p["tab_label"]) for p in report["probes"]] + [3]) + 2
    head = _pad("probe", probe_w) + _pad("tab", tab_w) + _pad("sunset", 10) + _pad("thread", 10)
    if grader:
        head += _pad("grader sunset", 15) + "grader thread"
    lines += [head.rstrip(), "-" * _width(head.rstrip())]
    for p in report["probes"]:
        row = _pad(p["id"], probe_w) + _pad(p["tab_label"], tab_w)
        for shape in SHAPES:
            row += _pad(p.get(shape, {}).get("verdict", "-"), 10)
        if grader:
            for shape in SHAPES:
                row += _pad(str(p.get(shape, {}).get("grader") or "-"), 15)
        lines.append(row.rstrip())
    lines.append("")
    head = (f"{'model':8}{'right':>8}{'mixed up':>10}{'other':>7}{'requests':>10}"
            f"{'prompt tokens':>15}{'dollars':>10}")
    lines += [head, "-" * len(head)]
    for shape in SHAPES:
        t = report["totals"][shape]
        lines.append(
            f"{shape:8}{str(t['right']) + '/' + str(t['probes']):>8}{t['mixed_up']:>10}"
            f"{t['other']:>7}{t['requests']:>10}{t['prompt_tokens']:>15,}{t['dollars']:>10.4f}"
        )
    if report["answers"] == "stand-in":
        lines.append(f"(stand-in: the tokens and dollars are what these requests would cost "
                     f"at {report['model']}, from the prompt-cache simulator)")
    if grader:
        parts = []
        for shape in SHAPES:
            g = report["totals"][shape]["grader"]
            parts.append(f"{shape} {g['right']} right, {g['mixed_up']} mixed up, "
                         f"{g['other']} other, {g['unclear']} unclear")
        lines.append(f"grader ({report['grader_model']}, a second opinion): " + "; ".join(parts))
    lines += ["", f"verdict: {report['verdict']}"]
    return "\n".join(lines)


# ----- the cost, before a live run ------------------------------------------------------
@dataclass(frozen=True)
class CostEstimate:
    model: str
    requests: int
    dollars: float  # as the cache simulator expects, short answers
    most_dollars: float  # a search round per probe, no cache reads, long answers
    grader_model: str | None = None
    grader_requests: int = 0
    grader_dollars: float = 0.0

    @property
    def total_dollars(self) -> float:
        return self.dollars + self.grader_dollars

    def text(self) -> str:
        line = (f"check-mixing --live: about ${self.dollars:.2f} for {self.requests} requests to "
                f"{self.model} (at most about ${self.most_dollars:.2f} if Claude searches its "
                "history once per probe and nothing is read from the cache)")
        if self.grader_model:
            line += (f"; the grader: about ${self.grader_dollars:.2f} for "
                     f"{self.grader_requests} requests to {self.grader_model}")
        return line + "; it goes to the usage ledger as check-mixing."

    def as_dict(self) -> dict[str, Any]:
        return {
            "model": self.model, "requests": self.requests, "dollars": self.dollars,
            "most_dollars": self.most_dollars, "grader_model": self.grader_model,
            "grader_requests": self.grader_requests, "grader_dollars": self.grader_dollars,
            "total_dollars": self.total_dollars,
        }


def _answer_cost(price: Price, tokens: int) -> float:
    return tokens * price.output / 1_000_000


def estimate_cost(
    home: Path, options: CheckOptions, *, cancel: threading.Event | None = None
) -> CostEstimate:
    """What ``options`` would spend live, from the exact probe requests of an offline run."""
    options = options.checked()
    dry = replace(options, live=False, standin="echo", grader=False)
    report, asked = _run(home, dry, cancel=cancel)
    settings = person_settings(home).with_overrides(model=options.model)
    prices = prices_from_settings(settings.prices)
    model = report["model"]
    price = price_for(model, prices)
    expected = most = 0.0
    requests = 0
    estimator = TiktokenEstimator()
    grader_model = options.grader_model or settings.librarian_model
    grader_price = price_for(grader_model, prices)
    grader_dollars = 0.0
    for a in asked:
        for outcome in a.outcomes.values():
            for usage in outcome.usages:
                requests += 1
                expected += dollars(replace(usage, output_tokens=0), model, prices)
                expected += _answer_cost(price, ESTIMATED_ANSWER_TOKENS)
            prompt = outcome.prompt_tokens
            most += 2 * (prompt * price.input / 1_000_000
                         + _answer_cost(price, MOST_ANSWER_TOKENS))
            if options.grader:
                tokens = body_text_tokens(
                    estimator, grader_body(grader_model, a.day, a.probe, a.probe.right))
                grader_dollars += (tokens * grader_price.input / 1_000_000
                                   + _answer_cost(grader_price, GRADER_MAX_TOKENS))
    graded = sum(len(a.outcomes) for a in asked) if options.grader else 0
    return CostEstimate(
        model=model, requests=requests, dollars=expected, most_dollars=most,
        grader_model=grader_model if options.grader else None,
        grader_requests=graded, grader_dollars=grader_dollars,
    )


def confirm(estimate: CostEstimate, *, yes: bool, stdin: IO[str] | None = None,
            out: IO[str] | None = None, ask: Callable[[str], str] = input) -> bool:
    """Print the estimate; True to go on. Without ``yes`` a person at a terminal is
    asked; input that is not a terminal is refused (a script must say ``--yes``)."""
    stdin = stdin or sys.stdin
    out = out or sys.stdout
    print(estimate.text(), file=out, flush=True)
    if yes:
        return True
    if not stdin.isatty():
        raise InputError(
            "check-mixing --live spends money (about ${dollars:.2f}) and asks first, but the "
            "input is not a terminal: add --yes to go ahead.", dollars=estimate.total_dollars)
    try:
        answer = ask("Continue? [y/N] ")
    except EOFError:
        answer = ""
    return answer.strip().lower() in ("y", "yes")


# ----- the window's side ----------------------------------------------------------------
class WindowCheck:
    """What the window's "Check topic mixing…" dialog is given (plain callables, run on a
    worker thread; ``ui`` builds no prompts)."""

    def __init__(self, home: Path, model: str, has_key: bool) -> None:
        self.home = home
        self.model = model
        self.has_key = has_key

    def estimate(self) -> dict[str, Any]:
        """The cost of a live run, the grader's counted apart (the dialog adds it when
        the grader is chosen)."""
        return estimate_cost(self.home, CheckOptions(live=True, grader=True)).as_dict()

    def run(self, live: bool, grader: bool, progress: Callable[[int, int], None],
            cancel: threading.Event) -> dict[str, Any]:
        options = CheckOptions(live=live, grader=grader and live)
        return run_check(self.home, options, progress=progress, cancel=cancel)

    def last(self) -> dict[str, Any] | None:
        return last_report(self.home)


def gateway_ready() -> None:
    """Say so, before the estimate, when no key is found where the gateway looks."""
    if load_api_key()[0] is None:
        raise MissingKeyError(
            "check-mixing --live needs an Anthropic API key (ANTHROPIC_API_KEY or the one "
            "saved in MONET's settings); without --live it runs against the built-in "
            "stand-in, which checks the path, not Claude.")

