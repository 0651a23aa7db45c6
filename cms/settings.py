"""MONET's settings: defaults from the design, a typed and validated model (pydantic,
which the SDK and SQLModel bring already: issue 42), and persistence.

Settings live in the ``setting`` table as JSON values, only those that differ from the
defaults. Making a ``Settings`` converts and checks every value; one that cannot work is
refused with one clear sentence, before anything runs.
"""

from __future__ import annotations

import json
from datetime import time
from importlib import resources
from typing import Any, Literal, NamedTuple

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    ValidationError,
    field_validator,
    model_validator,
)

from storage.errors import Phrase, Phrases, SettingsError
from storage.rows import Db
from storage.settings import delete_setting, every_setting, put_setting

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


#: What each setting must be, in words (the window says them in its language:
#: ``monet_app/window/error_words.py``), and the name each sentence gives the value.
_SAID: dict[str, str] = {
    "ceiling_tokens": "the token ceiling must be above 0 (got {ceiling})",
    "keep_exchanges": "at least 1 exchange must be kept raw (keep is {keep})",
    "low_water_fraction": "the low-water mark must be below the ceiling: a fraction between "
                          "0 and 1 (got {fraction})",
    "day_start": "the day boundary must be HH:MM, 00:00-23:59 (got {start!r})",
    "max_tokens": "max_tokens must be above 0 (got {max_tokens})",
    "segment_pause_minutes": "the segment pause must be above 0 minutes",
    "segment_max_tokens": "the segment size must be above 0 tokens",
    "ti_budget_tokens": "the Timeline Index budget must be above 0 tokens",
    "context_budget_tokens": "the context block budget must be at least 200 tokens",
    "librarian_interval_minutes": "the librarian interval must be above 0 minutes",
    "librarian_summarizer": "the librarian summarizer must be claude or offline",
    "model": "a model name is needed",
    "tabs": "tabs need at least one entry and unique ids",
    "pinned_ttl": "the pinned cache lifetime must be 5m or 1h (got {ttl!r})",
    "ti_ttl": "the Timeline Index cache lifetime must be 5m or 1h (got {ttl!r})",
    "turn_ttl": "the conversation's cache lifetime must be auto, 5m or 1h (got {ttl!r})",
    "max_retries": "retries must be 0 or more and the timeout above 0 seconds",
    "request_timeout_seconds": "retries must be 0 or more and the timeout above 0 seconds",
    "backup_keep": "the backups kept must be from 0 to 3,650 (got {keep})",
    "theme": "the appearance must be system, light or dark (got {theme!r})",
    "core_prompt": "the core prompt (pinned instructions) cannot be empty",
    # any other setting (a list where a number goes, a name MONET does not have)
    "": "{name} cannot be {value!r} ({reason})",
}
#: Why a value of another kind cannot be used, by pydantic's error type.
_KIND: dict[str, str] = {
    "bool": "it must be true or false",
    "int": "it must be a whole number",
    "float": "it must be a number",
    "string": "it must be text",
    "tuple": "it must be a list",
    "list": "it must be a list",
    "dict": "it must be a table of names and values",
    "extra": "MONET has no such setting",
    "": "it cannot be used there",
}
_GOT = {"ceiling_tokens": "ceiling", "keep_exchanges": "keep", "low_water_fraction": "fraction",
        "day_start": "start", "max_tokens": "max_tokens", "pinned_ttl": "ttl", "ti_ttl": "ttl",
        "turn_ttl": "ttl", "backup_keep": "keep", "theme": "theme"}
_CACHE_LIFETIME = Literal["5m", "1h"]


def _phrase(error: Any) -> Phrase:
    """One of pydantic's errors as the sentence of its setting."""
    name = str(error["loc"][0]) if error["loc"] else ""
    if name in _SAID and name:
        return Phrase(_SAID[name], **{_GOT.get(name, "value"): error["input"]})
    kind = str(error["type"]).split("_")[0]
    return Phrase(_SAID[""], name=name or "?", value=error["input"],
                  reason=Phrase(_KIND[kind if kind in _KIND else ""]))


class Settings(BaseModel):
    """Every setting, typed: made from what is stored (``load_settings``: JSON lists
    become tuples, numbers in text become numbers) or given, and checked as it is made.
    A value that cannot work (a ceiling of 0, keeping 0 exchanges, a low-water mark at or
    above the ceiling, a 1-hour cache breakpoint after a 5-minute one, ...) is refused
    with a ``SettingsError`` naming each problem once, before anything runs."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model: str = "claude-sonnet-4-6"
    max_tokens: int = Field(default=4096, gt=0)
    ceiling_tokens: int = Field(default=20_000, gt=0)
    low_water_fraction: float = Field(default=0.3, gt=0, lt=1)  # measured: docs/cache-strategy.md
    keep_exchanges: int = Field(default=4, ge=1)
    day_start: str = Field(default="04:00", pattern=r"^([01]\d|2[0-3]):[0-5]\d$")
    segment_pause_minutes: int = Field(default=30, gt=0)
    segment_max_tokens: int = Field(default=4_000, gt=0)
    ti_budget_tokens: int = Field(default=6_000, gt=0)
    # the context block: notes about the person
    context_budget_tokens: int = Field(default=1_500, ge=200)
    sunset_model: bool = True
    librarian_interval_minutes: int = Field(default=5, gt=0)
    # "claude" (offline when there is no key) | "offline"
    librarian_summarizer: Literal["claude", "offline"] = "claude"
    librarian_model: str = "claude-haiku-4-5"
    # Nothing said on these days or in these tabs becomes a memory.
    incognito_days: tuple[str, ...] = ()
    incognito_tabs: tuple[str, ...] = ()
    tabs: tuple[tuple[str, str], ...] = DEFAULT_TABS
    core_prompt: str = Field(default_factory=default_core_prompt)
    context_window_tokens: int = Field(default=0, ge=0)  # 0: from CONTEXT_WINDOWS by model
    pinned_ttl: _CACHE_LIFETIME = "1h"  # cache lifetime of the pinned breakpoint
    ti_ttl: _CACHE_LIFETIME = "1h"  # cache lifetime of the Timeline Index breakpoint
    # of the newest turn's breakpoint: "auto" (chosen from the person's pauses,
    # cms/context/rhythm.py), "5m" or "1h"
    turn_ttl: Literal["auto", "5m", "1h"] = "auto"
    # the SDK's retries of 408/409/429/5xx, honouring retry-after
    max_retries: int = Field(default=2, ge=0)
    request_timeout_seconds: float = Field(default=600.0, gt=0)
    # {"model-prefix": {"input": $/MTok, "output": $/MTok, "write_5m": x, ...}}
    prices: dict[str, dict[str, float]] = Field(default_factory=dict)
    theme: Literal["system", "light", "dark"] = "system"  # the window's appearance
    # daily automatic backups kept (monet_app/services/backup.py); 0: none
    backup_keep: int = Field(default=7, ge=0, le=3650)

    # ----- checks ---------------------------------------------------------------------
    @model_validator(mode="wrap")
    @classmethod
    def _in_words(cls, data: Any, handler: ModelWrapValidatorHandler[Settings]) -> Settings:
        """Every problem said once, in words, as one ``SettingsError``."""
        try:
            return handler(data)
        except ValidationError as exc:
            problems: list[Phrase] = []
            for phrase in map(_phrase, exc.errors()):
                if all(p.template != phrase.template or p.values != phrase.values
                       for p in problems):
                    problems.append(phrase)
            raise SettingsError("Invalid settings: {problems}.",
                                problems=Phrases(problems)) from None

    @field_validator("model", "core_prompt")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("blank")
        return value

    @field_validator("tabs")
    @classmethod
    def _tabs(cls, value: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
        if not value or len({tab for tab, _ in value}) != len(value):
            raise ValueError("no tab, or one id twice")
        return value

    @model_validator(mode="after")
    def _breakpoints(self) -> Settings:
        """A cache breakpoint never lives longer than the one before it
        (docs/anthropic-caching.md)."""
        problems: list[Phrase] = []
        if self.pinned_ttl == "5m" and self.ti_ttl == "1h":
            problems.append(Phrase(
                "a 1-hour breakpoint cannot follow a 5-minute one (pinned 5m, TI 1h)"))
        if self.turn_ttl == "1h" and "5m" in (self.pinned_ttl, self.ti_ttl):
            problems.append(Phrase("a 1-hour breakpoint cannot follow a 5-minute one (turn 1h)"))
        if problems:
            raise SettingsError("Invalid settings: {problems}.", problems=Phrases(problems))
        return self

    def validated(self) -> Settings:
        """The settings (checked when they were made; kept for the callers that say so)."""
        return self

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

    @property
    def privacy(self) -> Privacy:
        return Privacy(self.incognito_days, self.incognito_tabs)

    def with_overrides(self, **overrides: Any) -> Settings:
        """These settings with the given values (None: unchanged), checked."""
        given = {k: v for k, v in overrides.items() if v is not None}
        return Settings(**{**self.values(), **given})

    def values(self) -> dict[str, Any]:
        """Every setting by name, as held (tuples stay tuples)."""
        return {name: getattr(self, name) for name in type(self).model_fields}


_FIELD_NAMES = set(Settings.model_fields)


def load_settings(session: Db) -> Settings:
    """The stored settings over the defaults, converted to their types and checked (a
    stored value that cannot be one is refused in words: ``SettingsError``)."""
    stored: dict[str, Any] = {key: json.loads(value)
                              for key, value in every_setting(session).items()
                              if key in _FIELD_NAMES}
    return Settings(**stored)


def save_settings(session: Db, settings: Settings) -> None:
    """What differs from the defaults is stored (as JSON); a default is not."""
    defaults = Settings().values()
    for key, value in settings.values().items():
        if value == defaults[key]:
            delete_setting(session, key)
        else:
            put_setting(session, key, json.dumps(value, ensure_ascii=False))
