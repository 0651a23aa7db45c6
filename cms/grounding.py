"""What a model writes about the person must say what the person's messages say.

The librarian's model writes the Timeline Index's lines, the memory statements and the
daily context summary, all of which reach Claude's system blocks. The records filter
(``cms/records.py``) leaves out sentences that read as instructions, by their grammar; a
model can word one in a way no grammar check foresees. This check does not depend on
wording: a sentence a model wrote is kept only when enough of its content words (cut to
four letters: bike/bikes, four/fourth), CJK pairs and numbers are found in what it was
written from. An honest summary paraphrases, so a share is asked, not every word; an
instruction planted in a model's answer shares almost nothing with the talk it claims to
summarize, and is left out (docs/performance.md has the figures on honest and hostile
sets).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from cms.records import sentences_of, without_invisibles
from cms.summaries import terms

#: The share of a sentence's content words its sources must hold.
GROUNDED_SHARE = 0.4

#: Words any statement or summary about the person may use without its sources saying
#: them: who (the person, Claude) and what was done (asked, talked, suggested...).
GENERIC = frozenset({
    "person", "user", "they", "their", "them", "has", "have", "likes", "wants", "said",
    "says", "claude", "assistant", "asked", "asks", "asking", "talked", "talk", "talks",
    "discussed", "discussion", "discusses", "about", "suggested", "suggests", "suggestion",
    "suggestions", "recommended", "recommends", "recommendations", "explained", "explains",
    "shared", "shares", "mentioned", "mentions", "tips", "ideas", "advice", "advised",
    "options", "question", "questions", "help", "helped", "planning", "plans", "plan",
    "discussing", "considering", "considered", "also", "including", "both", "each",
    "この人", "本人", "ユーザ", "ーザー", "相談", "話題", "提案", "質問", "会話", "について",
})
_NUMBER = re.compile(r"\d{2,}")
_HIRAGANA = re.compile(r"[\u3040-\u309f]")


#: Japanese words for one's family that a summary may use for one another (the person
#: says 嫁 or 奥さん, a summary 妻): read as one before comparing.
_KIN = (("奥さん", "妻"), ("家内", "妻"), ("嫁さん", "妻"), ("嫁", "妻"), ("旦那", "夫"),
        ("主人", "夫"), ("息子さん", "息子"), ("娘さん", "娘"), ("お母さん", "母"),
        ("お父さん", "父"), ("母親", "母"), ("父親", "父"), ("お袋", "母"), ("親父", "父"))
_IDEOGRAPH = re.compile(r"[\u4e00-\u9fff\u3400-\u4dbf]")


def _normal(text: str) -> str:
    """NFKC, without zero-width and bidirectional controls (a word cut by one is still the
    word), family words read as one."""
    text = unicodedata.normalize("NFKC", without_invisibles(text))
    for said, read in _KIN:
        text = text.replace(said, read)
    return text


def _grounds(text: str, *, strict: bool = False) -> set[str]:
    """Content words cut to their first four letters, CJK pairs and numbers, after NFKC
    (full-width letters and digits read as ASCII ones): what a sentence and its sources
    are compared by. ``strict``: without the CJK pairs that hold hiragana (a pair with a
    particle, 勤は or の許, matches by chance)."""
    text = _normal(text)
    return ({term[:4] if term.isascii() else term for term in terms(text)
             if not strict or term.isascii() or not _HIRAGANA.search(term)}
            | set(_NUMBER.findall(text)))


def _said(sources: str) -> set[str]:
    """What sources say: their grounds and each of their kanji (``_claims`` may compare a
    short Japanese statement by its kanji)."""
    return _grounds(sources) | set(_IDEOGRAPH.findall(_normal(sources)))


_GENERIC_GROUNDS = _grounds(" ".join(GENERIC))
_GENERIC_KANJI = frozenset(_IDEOGRAPH.findall("".join(GENERIC)))


def _claims(sentence: str) -> set[str]:
    """What a sentence claims: its strict grounds; without one (妻の恵と5歳の娘ひなた: a
    short Japanese statement of kana and single kanji) its kanji, two at least; else
    all its grounds."""
    strict = _grounds(sentence, strict=True) - _GENERIC_GROUNDS
    if strict:
        return strict
    kanji = set(_IDEOGRAPH.findall(_normal(sentence))) - _GENERIC_KANJI
    if len(kanji) >= 2:
        return kanji | set(_NUMBER.findall(_normal(sentence)))
    return _grounds(sentence) - _GENERIC_GROUNDS


def _holds(claimed: set[str], said: set[str]) -> bool:
    """At least ``GROUNDED_SHARE`` of what a sentence claims is said, and two things at
    least when it claims two or more (in a short sentence one word in common is chance).
    A sentence that claims nothing (generic words only, or a script without content words
    to compare) is not grounded: it says nothing worth keeping, or nothing checkable."""
    found = len(claimed & said)
    return bool(claimed) and found >= GROUNDED_SHARE * len(claimed) \
        and found >= min(len(claimed), 2)


#: A figure as written: digits with their separators (1,950 / 9.5 / 148/95 keep apart).
_FIGURE = re.compile(r"\d+(?:[.,]\d+)*")


_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
          "fourteen fifteen sixteen seventeen eighteen nineteen twenty").split()
_NUMBER_WORDS = {**{w: str(n) for n, w in enumerate(_WORDS)},
                 **{w: str(n * 10) for n, w in enumerate(
                     "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split())
                    if w != "_"},
                 "half": "0.5", "once": "1", "twice": "2", "dozen": "12", "hundred": "100"}
_KANJI = {ch: str(n) for n, ch in enumerate("〇一二三四五六七八九十", start=0)}
_NUMBER_WORD = re.compile(r"\b(?:" + "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True))
                          + r")\b|[〇一二三四五六七八九十]", re.IGNORECASE)


def _figures(text: str) -> set[str]:
    """The figures of ``text`` after NFKC, without thousands separators (1,950 = 1950),
    and the small numbers it spells (seven, 七)."""
    text = unicodedata.normalize("NFKC", text)
    found = {_NUMBER_WORDS.get(w.lower()) or _KANJI.get(w, w)
             for w in _NUMBER_WORD.findall(text)}
    for figure in _FIGURE.findall(text):
        plain = re.sub(r",(?=\d{3}\b)", "", figure)
        found.add(plain)
        found.update(part for part in re.split(r"[.,]", plain) if part)
    return found


def figures_said(text: str, sources: Sequence[str] | Iterable[str]) -> bool:
    """Every figure of ``text`` is one its sources say (issue 41: "50 nights" for 5, a
    price times ten, 20年目 for 2年目, in an otherwise true line)."""
    said = _figures(" ".join(sources))
    return all(re.sub(r",(?=\d{3}\b)", "", figure) in said
               for figure in _FIGURE.findall(unicodedata.normalize("NFKC", text)))


def grounded(statement: str, sources: Sequence[str]) -> bool:
    """Does ``statement`` (a memory a model proposed) say what its sources say? Its
    content words in share, and every figure of it (issue 41)."""
    return _holds(_claims(statement), _said(" ".join(sources))) \
        and figures_said(statement, sources)


def grounded_sentences(text: str, sources: Iterable[str]) -> tuple[str, int]:
    """``text`` (a summary a model wrote) with only its sentences grounded in ``sources``,
    and how many were left out. An empty text means none was grounded."""
    sources = list(sources)
    said = _said(" ".join(sources))
    kept: list[str] = []
    dropped = 0
    for sentence in sentences_of(text):
        if _holds(_claims(sentence), said) and figures_said(sentence, sources):
            kept.append(sentence)
        else:
            dropped += 1
    return " ".join(kept), dropped
