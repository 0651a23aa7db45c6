"""The built-in mixed days and how an answer is judged.

``days.json`` (original text written for MONET, see ``README.md`` here) holds four days,
two in Japanese and two in English. Each day interleaves four tabs, and pairs of tabs
share a word that means something different in each: a work deadline and a personal
one, a research model and a shopping model, two people called 鈴木さん, a table in a
paper and a table at a restaurant. After the day's talk come the probes: the same
question asked in each tab of a pair ("締め切りっていつだっけ？" in 仕事 and in
チャット), so that the right answer depends only on the tab it is asked in and on
what was said in that tab.

A probe's expectation is rule-checkable (decisions):

- ``must``: groups of alternatives; every group needs one of its words (all-of over
  any-of). ``must_not``: words that belong to the other tab's topic.
- **mixed up**: the answer holds a ``must_not`` word (the other tab's fact), even when
  the right fact is there too: a careful "yours is Friday, not June 14" is still
  counted, because the check is about the other tab's fact coming into the answer at
  all (the optional grader, and the words found that the report lists, show such a
  case). **right**: every ``must`` group and no ``must_not`` word. **other**: neither
  (a refusal, a question back, a wrong fact from nowhere).
- Words are compared after NFKC (full-width digits and letters become ASCII) and
  casefolding, with commas inside numbers dropped (9,800 = 9800). A word that starts
  or ends with an ASCII letter or digit only matches at that edge when the text beside
  it is not a letter (resp. not a digit): ``sam`` is not found in "same", ``64`` not in
  "1964", but ``june 14`` is found in "June 14th" and ``14時`` in "１４時".

Each probe also carries the answer key the stand-in uses: ``right`` (this tab's fact)
and ``wrong`` (the other tab's fact, which must be judged mixed up), and ``topic``: the
shared word, which the ``tab-blind`` stand-in looks for.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Literal

#: How the built-in stand-in answers a probe (``monet check-mixing --standin``).
STANDIN_MODES = ("right", "wrong", "echo", "tab-blind")

#: What a probe's answer was judged to be.
Verdict = Literal["right", "mixed up", "other"]
VERDICTS: tuple[Verdict, ...] = ("right", "mixed up", "other")


@dataclass(frozen=True)
class Probe:
    id: str  # unique within its day; the report names a probe "<day>/<id>"
    tab: str  # the tab id it is asked in
    question: str
    must: tuple[tuple[str, ...], ...]
    must_not: tuple[str, ...]
    right: str  # the stand-in's right answer (this tab's fact)
    wrong: str  # the stand-in's wrong answer (the other tab's fact)
    topic: tuple[str, ...]  # the word the tabs share


@dataclass(frozen=True)
class Turn:
    ts: str
    tab: str
    user: str
    assistant: str


@dataclass(frozen=True)
class Day:
    id: str
    lang: str
    tabs: tuple[tuple[str, str], ...]  # (id, label): the labels that reach the prompt
    turns: tuple[Turn, ...]
    probes_at: str  # when the probes are asked (after the day's last turn)
    probes: tuple[Probe, ...]

    def label(self, tab: str) -> str:
        return dict(self.tabs).get(tab, tab)

    def trace_lines(self) -> list[str]:
        """The day's talk as a replay trace (docs/replay.md)."""
        return [
            json.dumps({"ts": t.ts, "tab": t.tab, "user": t.user, "assistant": t.assistant},
                       ensure_ascii=False)
            for t in self.turns
        ]


@dataclass(frozen=True)
class Judgement:
    verdict: Verdict
    right_found: tuple[str, ...]  # the ``must`` words found
    mixed_found: tuple[str, ...]  # the ``must_not`` words found


def _probe(data: dict[str, Any]) -> Probe:
    return Probe(
        id=str(data["id"]), tab=str(data["tab"]), question=str(data["question"]),
        must=tuple(tuple(str(w) for w in group) for group in data["must"]),
        must_not=tuple(str(w) for w in data["must_not"]),
        right=str(data["right"]), wrong=str(data["wrong"]),
        topic=tuple(str(w) for w in data["topic"]),
    )


def parse_days(text: str) -> tuple[Day, ...]:
    raw = json.loads(text)
    days = []
    for day in raw["days"]:
        days.append(Day(
            id=str(day["id"]), lang=str(day["lang"]),
            tabs=tuple((str(a), str(b)) for a, b in day["tabs"]),
            turns=tuple(Turn(ts=t["ts"], tab=t["tab"], user=t["user"], assistant=t["assistant"])
                        for t in day["turns"]),
            probes_at=str(day["probes_at"]),
            probes=tuple(_probe(p) for p in day["probes"]),
        ))
    return tuple(days)


@lru_cache(maxsize=1)
def builtin_days() -> tuple[Day, ...]:
    """The mixed days shipped with MONET (package data)."""
    text = resources.files("monet_app.mixing").joinpath("days.json").read_text("utf-8")
    return parse_days(text)


# ----- judging --------------------------------------------------------------------------
_NUMBER_COMMA = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")


def normalized(text: str) -> str:
    """NFKC, casefolded, commas inside numbers dropped."""
    return _NUMBER_COMMA.sub("", unicodedata.normalize("NFKC", text).casefold())


def _is_ascii_letter(ch: str) -> bool:
    return ch.isascii() and ch.isalpha()


def _is_ascii_digit(ch: str) -> bool:
    return ch.isascii() and ch.isdigit()


@lru_cache(maxsize=512)
def _pattern(word: str) -> re.Pattern[str]:
    word = normalized(word)
    left = right = ""
    if word and _is_ascii_letter(word[0]):
        left = r"(?<![a-z])"
    elif word and _is_ascii_digit(word[0]):
        left = r"(?<![0-9])"
    if word and _is_ascii_letter(word[-1]):
        right = r"(?![a-z])"
    elif word and _is_ascii_digit(word[-1]):
        right = r"(?![0-9])"
    return re.compile(left + re.escape(word) + right)


def contains(text: str, word: str) -> bool:
    """Whether ``word`` is in ``text`` under the rules above."""
    return _pattern(word).search(normalized(text)) is not None


def judge(probe: Probe, answer: str) -> Judgement:
    right_found = tuple(
        next(w for w in group if contains(answer, w))
        for group in probe.must if any(contains(answer, w) for w in group)
    )
    mixed_found = tuple(w for w in probe.must_not if contains(answer, w))
    verdict: Verdict
    if mixed_found:
        verdict = "mixed up"
    elif len(right_found) == len(probe.must):
        verdict = "right"
    else:
        verdict = "other"
    return Judgement(verdict, right_found, mixed_found)
