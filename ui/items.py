"""What the window is given to show: plain frozen dataclasses, no Qt.

The controller and its navigator build these from the database; the widgets only
display them. Keeping them Qt-free lets the navigator be tested without a QApplication.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The tab id of the "all tabs" view: the whole day, every tab (never a message's tab).
ALL_TABS = "*"


@dataclass(frozen=True)
class ShownFile:
    """A picture or document shown with a message (issue 30), as the transcript draws it:
    a thumbnail of ``preview`` (what Claude was sent, at most 1568 px) or a chip, and
    ``path`` (the original) opened large or in the system's viewer."""

    name: str
    media_type: str  # of the original
    path: str  # the original, in the data folder (named by its hash: no extension)
    preview: str  # what was sent (a picture scaled down on arrival), for thumbnails
    width: int = 0  # of the preview (pictures)
    height: int = 0
    size: int = 0  # bytes of the original
    pages: int = 0  # PDFs

    @property
    def picture(self) -> bool:
        return self.media_type.startswith("image/")


@dataclass(frozen=True)
class MessageRow:
    """One message of the transcript."""

    id: int  # 0 for the streaming reply not stored yet
    role: str  # "user" | "assistant" | "tool"
    tab: str
    tab_label: str
    time: str  # HH:MM
    text: str
    status: str = "complete"  # "complete" | "incomplete" | "streaming"
    hidden: bool = False  # forgotten: kept here, never sent to Claude again
    files: tuple[ShownFile, ...] = ()  # the pictures and documents shown with it
    #: said after midnight but before the day starts (04:00 by default): the day it
    #: counts in, while ``time`` carries its own calendar date ("2026-03-03 00:55")
    counts_in: str = ""


@dataclass(frozen=True)
class DayItem:
    day: str
    count: int
    today: bool


@dataclass(frozen=True)
class ThreadItem:
    id: int
    title: str
    count: int
    current: bool


@dataclass(frozen=True)
class SearchItem:
    """One search result: where it was said, who said it, and the text around the match."""

    message_id: int
    where: str  # day, time and tab
    role: str  # "user" | "assistant"
    snippet: str
    terms: tuple[str, ...] = ()  # the words searched for, to highlight in the snippet
    hidden: bool = False  # forgotten: kept in the history, never sent to Claude again
    related: bool = False  # found by meaning, not by the words typed


@dataclass(frozen=True)
class TimelineItem:
    """One line of the Timeline Index, for the panel that groups them under their days."""

    text: str  # the summary; "" while it is still being written
    day: str  # the (first) day it covers
    first_message_id: int
    pending: bool
    day_to: str = ""  # the last day a week or month roll-up covers
    tabs: tuple[str, ...] = ()  # tab names as the person named them
    span: str = ""  # "10:02–10:40" for a stretch of one day; "" for a week or month


@dataclass(frozen=True)
class LastReply:
    """The figures of the last reply, for the status bar."""

    input_tokens: int
    cache_read: int
    cache_write: int
    output_tokens: int
    dollars: float


@dataclass(frozen=True)
class StatusFigures:
    pending: int  # Timeline Index lines waiting for a summary
    last_reply: LastReply | None
    today_dollars: float
    unembedded: int = 0  # messages not yet searchable by meaning
    #: the model's memory proposals are failing and the offline rules propose instead
    memories_offline: bool = False
    #: the host of the librarian service doing this shared history's passes ("": this
    #: window does them), and when its last pass ended ("HH:MM", or a date before today)
    service: str = ""
    service_last: str = ""


@dataclass(frozen=True)
class SettingsValues:
    api_key: str  # empty: leave the stored key as it is
    model: str
    tabs: tuple[tuple[str, str], ...]
    ceiling_tokens: int
    day_start: str
    librarian_interval_minutes: int
    sunset_model: bool
    incognito_tabs: tuple[str, ...] = ()
    theme: str = "system"  # "system" | "light" | "dark"
    backup_keep: int = 7  # daily backups kept; 0: none


@dataclass(frozen=True)
class MemoryRow:
    id: int
    kind: str
    status: str
    fact: str
    source: str  # the person's words it came from, with day and tab
    #: what it replaced, newest first: (the older words, the day they were remembered)
    history: tuple[tuple[str, str], ...] = ()
    created: str = ""  # the day it was remembered
