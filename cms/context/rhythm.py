"""The lifetime of the conversation's breakpoint, chosen from the person's rhythm (issue 32,
``docs/cache-strategy.md``).

The newest turn carries the request's last breakpoint: its cache entry is what the next
request reads. It lives 5 minutes (written at 1.25x the input price) or 1 hour (2x); a
read costs 0.1x and refreshes it. What the choice changes is only what happens after a
pause of 5 to 60 minutes: with a 5-minute entry the next request writes the whole
conversation again (everything after the Timeline Index's breakpoint: the context block
and today's turns), with a 1-hour one it reads it. Shorter pauses read either; longer
ones miss either.

So for each request: with ``p`` the chance that the person's next message comes 5-60
minutes later, ``C`` the conversation's tokens, and ``W`` the tokens this request writes
(what came since the previous request's entry, or the whole conversation when that entry
has expired), the 1-hour lifetime is chosen when its extra price now is below what it is
expected to save next:

    (2 - 1.25) * W  <  p * (1.25 - 0.1) * C

``p`` is estimated from the pauses the person leaves: today's (each counting double:
today's rhythm is the best guess of the next pause) and those of the last
``HISTORY_DAYS`` days that began within ``HOUR_WINDOW`` of this time of day, with a
uniform prior of one half-pause per kind. Everything is read from stored timestamps and
token counts, never from a clock, so a restart rebuilds the same body, lifetimes
included (but for a request right after a rebuild point, weighed as writing the whole
conversation: sent again without that rebuild, its lifetime may differ; the lifetime is
not part of the cached prefix).
A tool round's requests follow the choice of the person's message they answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from cms.clock import parse_ts
from storage.models import MessageRole
from storage.talk import Talk

SHORT_S = 5 * 60  # the 5-minute lifetime
LONG_S = 60 * 60  # the 1-hour lifetime
WRITE_5M, WRITE_1H, READ = 1.25, 2.0, 0.1  # multiples of the input price
HISTORY_DAYS = 28
HOUR_WINDOW_MIN = 90  # past pauses that began within this many minutes of the time of day
TODAY_WEIGHT = 2.0
PRIOR = 0.5  # of each kind of pause (short, mid, long)


@dataclass(frozen=True)
class Pauses:
    """How many pauses of each kind: under 5 minutes, 5-60 minutes, over an hour."""

    short: float = 0.0
    mid: float = 0.0
    long: float = 0.0

    def add(self, seconds: float, weight: float = 1.0) -> Pauses:
        if seconds <= SHORT_S:
            return Pauses(self.short + weight, self.mid, self.long)
        if seconds <= LONG_S:
            return Pauses(self.short, self.mid + weight, self.long)
        return Pauses(self.short, self.mid, self.long + weight)

    def __add__(self, other: Pauses) -> Pauses:
        return Pauses(self.short + other.short, self.mid + other.mid, self.long + other.long)

    def mid_chance(self) -> float:
        """The chance the next pause is 5-60 minutes, with the prior."""
        total = self.short + self.mid + self.long + 3 * PRIOR
        return (self.mid + PRIOR) / total


def _minute_of_day(when: datetime) -> int:
    return when.hour * 60 + when.minute


SLOT_MIN = 10  # the past pauses are counted in slots of the day, once


class History:
    """The past days' pauses by the time of day they began, counted in ``SLOT_MIN``-minute
    slots once (``around`` is then a few additions, not a pass over every pause)."""

    def __init__(self, pauses: Sequence[tuple[int, float]] = ()) -> None:
        self.slots = [Pauses()] * (1440 // SLOT_MIN)
        for began, seconds in pauses:
            slot = began // SLOT_MIN
            self.slots[slot] = self.slots[slot].add(seconds)
        self._around: dict[int, Pauses] = {}

    def around(self, minute: int) -> Pauses:
        """The pauses that began within ``HOUR_WINDOW_MIN`` of ``minute`` (to the slot;
        the day wraps)."""
        slot = minute // SLOT_MIN
        found = self._around.get(slot)
        if found is None:
            reach = HOUR_WINDOW_MIN // SLOT_MIN
            found = Pauses()
            for offset in range(-reach, reach + 1):
                found = found + self.slots[(slot + offset) % len(self.slots)]
            self._around[slot] = found
        return found


def history_pauses(times: Sequence[tuple[str, str]]) -> History:
    """The pauses between the person's consecutive messages of one day, from their (day,
    timestamp) pairs, oldest first (``storage.talk.user_times``), by the minute of the
    day each began."""
    found: list[tuple[int, float]] = []
    previous: datetime | None = None
    previous_day = ""
    for day, ts in times:
        when = parse_ts(ts)
        if previous is not None and day == previous_day:
            found.append((_minute_of_day(previous), (when - previous).total_seconds()))
        previous, previous_day = when, day
    return History(found)


def turn_ttl(raw: Sequence[Talk], context_tokens: int,
             history: History | Sequence[tuple[int, float]] = (), *,
             rebuilt: bool = False) -> str:
    """"1h" or "5m" for the breakpoint on the newest turn of ``raw`` (today's turns),
    after ``context_tokens`` of uncached system text (the context block), with ``history``
    the past days' pauses (``history_pauses``). The choices of today's earlier requests
    are made again on the way (whether the previous entry still lives decides what this
    request writes). ``rebuilt``: this request follows a rebuild point (a fold, a
    re-render): it writes the whole conversation again, whatever came before."""
    users = [i for i, m in enumerate(raw) if m.role == MessageRole.USER]
    if not users:
        return "5m"
    if not isinstance(history, History):
        history = History(history)
    prefix = [0]
    for message in raw:
        prefix.append(prefix[-1] + message.token_estimate)
    today = Pauses()
    ttl = "5m"
    previous: int | None = None
    for index in users:
        when = parse_ts(raw[index].ts)
        if previous is None:
            written = context_tokens + prefix[index + 1]  # a first request writes it all
        else:
            gap = (when - parse_ts(raw[previous].ts)).total_seconds()
            lived = SHORT_S if ttl == "5m" else LONG_S
            written = (prefix[index + 1] - prefix[previous + 1] if gap <= lived
                       else context_tokens + prefix[index + 1])
            today = today.add(gap, TODAY_WEIGHT)
        if rebuilt and index == users[-1]:
            written = context_tokens + prefix[index + 1]
        conversation = context_tokens + prefix[index + 1]
        chance = (today + history.around(_minute_of_day(when))).mid_chance()
        ttl = ("1h" if (WRITE_1H - WRITE_5M) * written < chance * (WRITE_5M - READ) * conversation
               else "5m")
        previous = index
    return ttl
