"""MONET's settings: defaults from the design, validation, and persistence.

Settings live in the ``setting`` table as JSON values. ``validated()`` refuses values
that cannot work (a ceiling of 0, keeping 0 exchanges, a low-water mark at or above the
ceiling ...) with one clear sentence, before anything runs.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field, fields, replace
from datetime import time
from importlib import resources
from typing import Any, NamedTuple

from storage import queries
from storage.errors import Phrase, Phrases, SettingsError
from storage.queries import Db

DEFAULT_TABS: tuple[tuple[str, str], ...] = (
    ("chat", "チャット"),
    ("research", "リサーチ"),
    ("work", "仕事"),
    ("social", "ソーシャル"),
)

#: The default tabs as an English-speaking person's first run names them (the labels
#: reach the prompt, so they are set once, on a new home, never changed under history).
ENGLISH_TABS: tuple[tuple[str, str], ...] = (
    ("chat", "Chat"),
    ("research", "Research"),
    ("work", "Work"),
    ("social", "Social"),
)

# Context windows in tokens. Keep in configuration, not scattered through code.
CONTEXT_WINDOWS: dict[str, int] = {
    "claude-sonnet-4-6": 1_000_000,
    "claude-sonnet-5": 1_000_000,
    "claude-opus-4-6": 1_000_000,
    "claude-opus-4-7": 1_000_000,
    "claude-opus-4-8": 1_000_000,
    "claude-sonnet-4-5": 200_000,
    "claude-haiku-4-5": 200_000,
    "claude-opus-4-5": 200_000,
}
DEFAULT_CONTEXT_WINDOW = 200_000


def default_core_prompt() -> str:
    return resources.files("cms").joinpath("system_prompt_default.txt").read_text("utf-8")


class Privacy(NamedTuple):
    """The days and tabs whose talk becomes no memory (``incognito_days``, ``incognito_tabs``)."""

    days: tuple[str, ...]
    tabs: tuple[str, ...]


@dataclass(frozen=True)
class Settings:
    model: str = "claude-sonnet-4-6"
    max_tokens: int = 4096
    ceiling_tokens: int = 20_000
    low_water_fraction: float = 0.3  # measured: docs/cache-strategy.md
    keep_exchanges: int = 4
    day_start: str = "04:00"
    segment_pause_minutes: int = 30
    segment_max_tokens: int = 4_000
    ti_budget_tokens: int = 6_000
    context_budget_tokens: int = 1_500  # the context block: notes about the person
    sunset_model: bool = True
    librarian_interval_minutes: int = 5
    librarian_summarizer: str = "claude"  # "claude" (offline when there is no key) | "offline"
    librarian_model: str = "claude-haiku-4-5"
    # Nothing said on these days or in these tabs becomes a memory.
    incognito_days: tuple[str, ...] = ()
    incognito_tabs: tuple[str, ...] = ()
    tabs: tuple[tuple[str, str], ...] = DEFAULT_TABS
    core_prompt: str = field(default_factory=default_core_prompt)
    context_window_tokens: int = 0  # 0: from CONTEXT_WINDOWS by model
    pinned_ttl: str = "1h"  # cache lifetime of the pinned breakpoint: "5m" | "1h"
    ti_ttl: str = "1h"  # cache lifetime of the Timeline Index breakpoint
    # of the newest turn's breakpoint: "auto" (chosen from the person's pauses,
    # cms/context/rhythm.py), "5m" or "1h"
    turn_ttl: str = "auto"
    max_retries: int = 2  # SDK retries of 408/409/429/5xx, honouring retry-after
    request_timeout_seconds: float = 600.0
    # {"model-prefix": {"input": $/MTok, "output": $/MTok, "write_5m": x, ...}}
    prices: dict[str, dict[str, float]] = field(default_factory=dict)
    theme: str = "system"  # the window's appearance: "system" | "light" | "dark"
    backup_keep: int = 7  # daily automatic backups kept (monet_app/services/backup.py); 0: none

    # ----- derived values -------------------------------------------------------------
    @property
    def low_water_tokens(self) -> int:
        return int(self.ceiling_tokens * self.low_water_fraction)

    @property
    def day_start_time(self) -> time:
        hours, minutes = self.day_start.split(":")
        return time(int(hours), int(minutes))

    @property
    def context_window(self) -> int:
        if self.context_window_tokens > 0:
            return self.context_window_tokens
        return CONTEXT_WINDOWS.get(self.model, DEFAULT_CONTEXT_WINDOW)

    def tab_label(self, tab: str) -> str:
        for tab_id, label in self.tabs:
            if tab_id == tab:
                return label
        return tab

    # ----- checks ---------------------------------------------------------------------
    def validated(self) -> Settings:
        problems: list[Phrase] = []
        if self.ceiling_tokens <= 0:
            problems.append(Phrase("the token ceiling must be above 0 (got {ceiling})",
                                   ceiling=self.ceiling_tokens))
        if self.keep_exchanges < 1:
            problems.append(Phrase(
                "at least 1 exchange must be kept raw (keep is {keep})", keep=self.keep_exchanges
            ))
        if not 0 < self.low_water_fraction < 1:
            problems.append(Phrase(
                "the low-water mark must be below the ceiling: a fraction between 0 and 1 "
                "(got {fraction})", fraction=self.low_water_fraction
            ))
        if not re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", self.day_start):
            problems.append(Phrase("the day boundary must be HH:MM, 00:00-23:59 (got {start!r})",
                                   start=self.day_start))
        if self.max_tokens <= 0:
            problems.append(Phrase("max_tokens must be above 0 (got {max_tokens})",
                                   max_tokens=self.max_tokens))
        if self.segment_pause_minutes <= 0:
            problems.append(Phrase("the segment pause must be above 0 minutes"))
        if self.segment_max_tokens <= 0:
            problems.append(Phrase("the segment size must be above 0 tokens"))
        if self.ti_budget_tokens <= 0:
            problems.append(Phrase("the Timeline Index budget must be above 0 tokens"))
        if self.context_budget_tokens < 200:
            problems.append(Phrase("the context block budget must be at least 200 tokens"))
        if self.librarian_interval_minutes <= 0:
            problems.append(Phrase("the librarian interval must be above 0 minutes"))
        if self.librarian_summarizer not in ("claude", "offline"):
            problems.append(Phrase("the librarian summarizer must be claude or offline"))
        if not self.model.strip():
            problems.append(Phrase("a model name is needed"))
        if not self.tabs or len({t for t, _ in self.tabs}) != len(self.tabs):
            problems.append(Phrase("tabs need at least one entry and unique ids"))
        if self.pinned_ttl not in ("5m", "1h"):
            problems.append(Phrase("the pinned cache lifetime must be 5m or 1h (got {ttl!r})",
                                   ttl=self.pinned_ttl))
        if self.ti_ttl not in ("5m", "1h"):
            problems.append(Phrase(
                "the Timeline Index cache lifetime must be 5m or 1h (got {ttl!r})",
                ttl=self.ti_ttl))
        if self.pinned_ttl == "5m" and self.ti_ttl == "1h":
            problems.append(Phrase(
                "a 1-hour breakpoint cannot follow a 5-minute one (pinned 5m, TI 1h)"))
        if self.turn_ttl not in ("auto", "5m", "1h"):
            problems.append(Phrase("the conversation's cache lifetime must be auto, 5m or 1h "
                                   "(got {ttl!r})", ttl=self.turn_ttl))
        elif self.turn_ttl == "1h" and "5m" in (self.pinned_ttl, self.ti_ttl):
            problems.append(Phrase("a 1-hour breakpoint cannot follow a 5-minute one (turn 1h)"))
        if self.max_retries < 0 or self.request_timeout_seconds <= 0:
            problems.append(Phrase("retries must be 0 or more and the timeout above 0 seconds"))
        if not 0 <= self.backup_keep <= 3650:
            problems.append(Phrase("the backups kept must be from 0 to 3,650 (got {keep})",
                                   keep=self.backup_keep))
        if self.theme not in ("system", "light", "dark"):
            problems.append(Phrase(
                "the appearance must be system, light or dark (got {theme!r})", theme=self.theme))
        if not self.core_prompt.strip():
            problems.append(Phrase("the core prompt (pinned instructions) cannot be empty"))
        if problems:
            raise SettingsError("Invalid settings: {problems}.", problems=Phrases(problems))
        return self

    @property
    def privacy(self) -> Privacy:
        return Privacy(self.incognito_days, self.incognito_tabs)

    def with_overrides(self, **overrides: Any) -> Settings:
        given = {k: v for k, v in overrides.items() if v is not None}
        return replace(self, **given).validated()


_FIELD_NAMES = {f.name for f in fields(Settings)}


def load_settings(session: Db) -> Settings:
    stored: dict[str, Any] = {key: json.loads(value)
                              for key, value in queries.every_setting(session).items()
                              if key in _FIELD_NAMES}
    if "tabs" in stored:
        stored["tabs"] = tuple((str(a), str(b)) for a, b in stored["tabs"])
    for key in ("incognito_days", "incognito_tabs"):
        if key in stored:
            stored[key] = tuple(str(x) for x in stored[key])
    return replace(Settings(), **stored)


def save_settings(session: Db, settings: Settings) -> None:
    settings.validated()
    defaults = asdict(Settings())
    for key, value in asdict(settings).items():
        if value == defaults[key]:
            queries.delete_setting(session, key)
        else:
            queries.put_setting(session, key, json.dumps(value, ensure_ascii=False))
