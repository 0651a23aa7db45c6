"""What an operation changed, so the window reads again only what went stale (after
Anki's ``OpChanges``).

Every operation returns ``Done(value, changes)``; the window's controller passes
``changes`` to its one ``refresh``, and the command line ignores it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Changes:
    """Which panes are stale."""

    messages: bool = False  # the transcript, the tab marks, the latest exchange's actions
    days: bool = False  # the list of days (threads, in the thread model) and their counts
    timeline: bool = False  # the Timeline Index and the librarian's queue
    settings: bool = False  # tabs, theme, the incognito mark
    backups: bool = False  # when the last backup was made

    def __or__(self, other: Changes) -> Changes:
        return Changes(**{f.name: getattr(self, f.name) or getattr(other, f.name)
                          for f in fields(self)})

    def __bool__(self) -> bool:
        return any(getattr(self, f.name) for f in fields(self))


NOTHING = Changes()
#: What the person said or what Claude answered: the talk, the day's count, the Timeline
#: Index (a fold may have come with it) and the incognito mark (a sunset may have come:
#: the mark is today's).
TALK = Changes(messages=True, days=True, timeline=True, settings=True)
EVERYTHING = Changes(messages=True, days=True, timeline=True, settings=True, backups=True)


@dataclass(frozen=True)
class Done(Generic[T]):
    """An operation's result and what it changed."""

    value: T
    changes: Changes = NOTHING
