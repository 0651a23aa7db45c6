"""Newer values: a Timeline Index line that states an older value says that it changed.

The person says "I've watched 4 MCU films in the last 3 months"; weeks later, "I've
watched 12 films in the last 3 months, including 5 MCU films". Each day has its line,
and a line picks what stood for its talk: the older line may carry the 4 while no line
carries the 5, and Claude answers with the old value. When a later sentence of the
person restates what a line says (most of its content words) with another number, the
line says so: `` (later, 2023-05-29: I've watched 12 films …)``. A change said in words
is noted the same way: a later sentence that states the same subject's property as a
line's sentence with another value (``cms.facts``: "we live in Leeds" / "we moved to
Manchester", 「名古屋に住んでいて」/「仙台に引っ越した」). The librarian notes
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

from cms import facts
from cms.clock import parse_ts
from cms.records import sentences_of
from cms.summaries import NOTE, body_of, clip, note_of, terms
from storage.talk import Talk
from storage.timeline import Line

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


#: Numbers that date or time a statement rather than state a value: years, clock times.
_WHEN = re.compile(r"\b(?:19|20)\d\d\b|\b\d{1,2}:\d\d\b")
#: Who a statement is about, when it is not the person: "my son" and "my daughter" (or
#: "my neighbour") are not the same fact with another number.
_WHO = re.compile(
    r"\b(?:son|daughter|kids?|child|children|wife|husband|partner|boyfriend|girlfriend|"
    r"mom|mum|mother|dad|father|brother|sister|grandma|grandpa|grandmother|grandfather|"
    r"friend|neighbou?r|boss|colleague|coworker|roommate|aunt|uncle|cousin|niece|nephew)s?\b|"
    r"息子|娘|妻|夫|彼氏|彼女|母|父|兄|弟|姉|妹|祖母|祖父|友達|友人|上司|同僚",
    re.IGNORECASE)


def _value(number: str) -> str:
    """A number as a value: "five" -> "5", "1,300" -> "1300"."""
    return _WORD_NUMBERS.get(number.lower(), number.replace(",", ""))


def _numbers(text: str) -> set[str]:
    """The values a text states (``text`` read as ``_fact`` reads it: NFKC, no dates)."""
    return {_value(match) for match in _NUMBER.findall(text)}


def _who(text: str) -> frozenset[str]:
    return frozenset(m.lower().rstrip("s") for m in _WHO.findall(text))


def _content(text: str) -> set[str]:
    return {t[:5] for t in terms(text) if t.lower() not in _WORD_NUMBERS}


#: A count and what it counts: "4 engineers", "5 MCU films" (the two words after it).
_COUNTED = re.compile(
    r"(?P<n>\d+(?:[.,]\d+)*|\b(?:" + "|".join(_WORD_NUMBERS) + r"))\s+"
    r"(?P<a>[A-Za-z][\w'’-]*)(?:\s+(?P<b>[A-Za-z][\w'’-]*))?", re.IGNORECASE)
_NOT_COUNTED = frozenset({"of", "the", "a", "an", "in", "on", "at", "to", "and", "or", "more",
                          "so", "far", "times", "per", "each", "am", "pm", "from", "with"})


def _counts(text: str) -> dict[str, set[str]]:
    """What is counted in ``text`` (its first five letters) -> the numbers it is given."""
    found: dict[str, set[str]] = {}
    for match in _COUNTED.finditer(text):
        number = _value(match["n"])
        for word in (match["a"], match["b"]):
            if word and word.lower() not in _NOT_COUNTED:
                found.setdefault(word.lower()[:5], set()).add(number)
    return found


@dataclass(frozen=True)
class _Fact:
    numbers: set[str]
    words: set[str]
    counts: dict[str, set[str]]
    who: frozenset[str]


def _fact(text: str) -> _Fact:
    """What a sentence states; its values are read once, after NFKC (full-width digits as
    ASCII ones) and without the years and clock times that date it."""
    undated = _WHEN.sub(" ", unicodedata.normalize("NFKC", text))
    return _Fact(_numbers(undated), _content(text), _counts(undated), _who(text))


def _changed(old: _Fact, new: _Fact) -> set[str]:
    """The new values: of a thing counted again, or numbers the old sentence lacks."""
    recounted = {value for thing, values in old.counts.items() if thing in new.counts
                 for value in new.counts[thing] - values}
    return recounted | (new.numbers - old.numbers)


def restates(older: str, newer: str) -> bool:
    """Does ``newer`` say what ``older`` says, with another number?"""
    return _restates(_fact(older), _fact(newer))


def _restates(old: _Fact, new: _Fact) -> bool:
    """Another number for the same thing: the same count of the same thing with a new
    value ("4 engineers" / "five engineers") and one more word in common, or most of the
    sentence said again with a number of its own."""
    if old.who != new.who:
        return False  # about someone else (my son / my daughter / my neighbour)
    shared = len(old.words & new.words)
    recounted = any(new.counts[thing] - values for thing, values in old.counts.items()
                    if thing in new.counts)
    if recounted and shared >= 2:
        return True
    if not old.numbers - new.numbers or not new.numbers - old.numbers:
        return False
    return shared >= SHARED_MIN and shared >= SHARED_SHARE * min(len(old.words),
                                                                 len(new.words))


def _quote(sentence: str, new_numbers: set[str]) -> str:
    """The later sentence as the note quotes it: whole when short, otherwise the stretch
    that ends just after its last new number (the value is what the note is for)."""
    text = " ".join(sentence.split())
    if len(text) <= NOTE_CHARS:
        return text
    ends = [m.end() for m in _NUMBER.finditer(text) if _value(m.group()) in new_numbers]
    end = min(len(text), (ends[-1] if ends else NOTE_CHARS) + 25)
    start = max(0, end - NOTE_CHARS)
    if start:
        space = text.find(" ", start)
        start = space + 1 if 0 <= space < end else start
    quoted = text[start:end]
    if end < len(text):
        cut = quoted.rfind(" ")
        quoted = (quoted[:cut] if cut > NOTE_CHARS // 2 else quoted).rstrip(" ,、") + "…"
    return ("…" if start else "") + quoted


@dataclass(frozen=True)
class Rewrite:
    line_id: int
    summary: str  # the line with its note
    was: str  # the line as it was read (written only if it still is)
    message_id: int  # the message the note quotes (written only if Claude still sees it)


def notes_for(lines: Sequence[Line], said: Iterable[Talk]) -> list[Rewrite]:
    """The lines to rewrite with a note, for the person's ``said`` messages (oldest
    first): each line restated later with another number gets the newest such sentence
    (a line is only noted by what was said after it). The lines' sentences are indexed
    by their content words, so a message is compared only with those it shares words
    with."""
    summaries = {line.id: line.summary for line in lines if line.summary}
    ends = {line.id: parse_ts(line.end_ts) for line in lines if line.summary}
    numbered: list[tuple[int, _Fact]] = []  # (line id, what one of its sentences states)
    index: dict[str, list[int]] = {}
    for line_id, summary in summaries.items():
        for sentence in sentences_of(body_of(summary or "")):
            fact = _fact(sentence)
            if not fact.numbers:
                continue
            for word in fact.words:
                index.setdefault(word, []).append(len(numbered))
            numbered.append((line_id, fact))
    # what the lines' sentences state about a subject's property, in words (a home, a
    # job, a diet, a name...): (line id, its keys, its value)
    stated = [(line_id, {st.key}, _plain(st.value)) for line_id, summary in summaries.items()
              for sentence in sentences_of(body_of(summary or ""))
              for st in facts.statements(sentence)]
    notes: dict[int, tuple[str, int]] = {}
    for message in said:
        when = parse_ts(message.ts)
        for sentence in sentences_of(message.text) if stated else ():
            if sentence.endswith(("?", "？")):
                continue
            for st in facts.statements(sentence):
                for line_id, keys, value in stated:
                    if ends[line_id] < when and facts.same_property({st.key}, keys) \
                            and value != _plain(st.value):
                        notes[line_id] = (body_of(summaries[line_id] or "") + NOTE.format(
                            day=message.day, said=clip(sentence, NOTE_CHARS)), message.id)
        if not _NUMBER.search(message.text):
            continue
        for sentence in sentences_of(message.text):
            if sentence.endswith(("?", "？")):
                continue
            new = _fact(sentence)
            if not new.numbers:
                continue
            hits = Counter(i for word in new.words for i in index.get(word, ()))
            for index_of_fact, shared in hits.items():
                line_id, old = numbered[index_of_fact]
                if shared < 2 or ends[line_id] >= when:
                    continue
                if _restates(old, new):
                    notes[line_id] = (body_of(summaries[line_id] or "") + NOTE.format(
                        day=message.day, said=_quote(sentence, _changed(old, new))),
                        message.id)
    return [Rewrite(line_id, text, summaries[line_id] or "", message_id)
            for line_id, (text, message_id) in notes.items()
            if text != summaries.get(line_id)]


def _plain(value: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", value).lower().split())


def without_notes_of(summary: str, forgotten: Sequence[str]) -> str:
    """``summary`` without its note when the note quotes one of the ``forgotten`` texts
    (a quote may be cut at either end, "…")."""
    quoted = note_of(summary)
    if quoted is None:
        return summary
    quoted = " ".join(quoted.strip("…").split())
    if any(quoted and quoted in " ".join(text.split()) for text in forgotten):
        return body_of(summary)
    return summary
