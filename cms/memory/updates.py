"""Newer values: a Timeline Index line that states an older value says that it changed.

The person says "I've watched 4 MCU films in the last 3 months"; weeks later, "I've
watched 12 films in the last 3 months, including 5 MCU films". Each day has its line,
and a line picks what stood for its talk: the older line may carry the 4 while no line
carries the 5, and Claude answers with the old value. When a later sentence of the
person restates what a line says (most of its content words) with another number, the
line says so: `` (later, 2023-05-29: I've watched 12 films …)``. The librarian notes
these in the background (``notes_for``); the line reaches the prompt at the next rebuild
point, as any rewritten line does. Forgetting the later message removes its note
(``without_notes_of``).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cms.clock import parse_ts
from cms.records import sentences_of
from cms.summaries import terms
from storage.queries import Line, Talk

#: How a line says it changed, at its end; one note, the newest.
NOTE = " (later, {day}: {said})"
_NOTE = re.compile(r" \(later, \d{4}-\d{2}-\d{2}: (?P<said>.+)\)$")
#: The most of the later sentence a note quotes.
NOTE_CHARS = 90
#: What a later sentence shares with the line's sentence: at least this many content
#: words, and this share of the shorter one's.
SHARED_MIN = 3
SHARED_SHARE = 0.4

_WORD_NUMBERS = {
    "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12",
    "twenty": "20", "thirty": "30", "hundred": "100",
}
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*|\b(?:" + "|".join(_WORD_NUMBERS) + r")\b", re.IGNORECASE)


def _numbers(text: str) -> set[str]:
    found = set()
    for match in _NUMBER.findall(unicodedata.normalize("NFKC", text)):
        value = _WORD_NUMBERS.get(match.lower(), match.replace(",", ""))
        found.add(value)
    return found


def _content(text: str) -> set[str]:
    return {t[:5] for t in terms(text) if t.lower() not in _WORD_NUMBERS}


def restates(older: str, newer: str) -> bool:
    """Does ``newer`` say what ``older`` says, with another number?"""
    return _restates(_numbers(older), _content(older), _numbers(newer), _content(newer))


def _restates(old_numbers: set[str], old_words: set[str], new_numbers: set[str],
              new_words: set[str]) -> bool:
    if not old_numbers - new_numbers or not new_numbers - old_numbers:
        return False
    shared = len(old_words & new_words)
    return shared >= SHARED_MIN and shared >= SHARED_SHARE * min(len(old_words), len(new_words))


def _trim(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= NOTE_CHARS else text[: NOTE_CHARS - 1].rstrip(" ,、") + "…"


def body_of(summary: str) -> str:
    """A line's summary without its note."""
    return _NOTE.sub("", summary)


@dataclass(frozen=True)
class Rewrite:
    line_id: int
    summary: str


def notes_for(lines: Sequence[Line], said: Iterable[Talk]) -> list[Rewrite]:
    """The lines to rewrite with a note, for the person's ``said`` messages (oldest
    first): each line restated later with another number gets the newest such sentence
    (a line is only noted by what was said after it). The lines' sentences are indexed
    by their content words, so a message is compared only with those it shares words
    with."""
    summaries = {line.id: line.summary for line in lines if line.summary}
    ends = {line.id: parse_ts(line.end_ts) for line in lines if line.summary}
    facts: list[tuple[int, set[str], set[str]]] = []  # (line id, numbers, words)
    index: dict[str, list[int]] = {}
    for line_id, summary in summaries.items():
        for sentence in sentences_of(body_of(summary or "")):
            numbers = _numbers(sentence)
            if not numbers:
                continue
            words = _content(sentence)
            for word in words:
                index.setdefault(word, []).append(len(facts))
            facts.append((line_id, numbers, words))
    notes: dict[int, str] = {}
    for message in said:
        if not _NUMBER.search(message.text):
            continue
        when = parse_ts(message.ts)
        for sentence in sentences_of(message.text):
            if sentence.endswith(("?", "？")):
                continue
            numbers = _numbers(sentence)
            if not numbers:
                continue
            words = _content(sentence)
            hits = Counter(i for word in words for i in index.get(word, ()))
            for fact, shared in hits.items():
                line_id, old_numbers, old_words = facts[fact]
                if shared < SHARED_MIN or ends[line_id] >= when:
                    continue
                if _restates(old_numbers, old_words, numbers, words):
                    notes[line_id] = body_of(summaries[line_id] or "") + NOTE.format(
                        day=message.day, said=_trim(sentence))
    return [Rewrite(line_id, text) for line_id, text in notes.items()
            if text != summaries.get(line_id)]


def without_notes_of(summary: str, forgotten: Sequence[str]) -> str:
    """``summary`` without its note when the note quotes one of the ``forgotten`` texts."""
    match = _NOTE.search(summary)
    if match is None:
        return summary
    quoted = match.group("said").rstrip("…")
    if any(quoted in " ".join(text.split()) for text in forgotten):
        return body_of(summary)
    return summary
