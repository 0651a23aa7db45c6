"""Summaries of folded talk without a model, shared by every job that writes a line.

The Timeline Index's roll-ups (``cms/context/timeline.py``), forgetting
(``cms/memory/forget.py``) and the librarian (``cms/librarian/``, whose summarizer may
also be Claude's: ``cms/librarian/summarizer.py``) all use this one.

``OfflineSummarizer`` is deterministic and extractive: it picks the person's most
representative sentence (weighted by how often its content words recur in the
segment) and trims it to one short line. It needs no model and no network, works on
Japanese (character bigrams of kanji/katakana runs) as well as on space-separated
languages, and also condenses several summary lines into one for TI roll-ups.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from cms.records import instruction_like
from storage.attachments import Attached
from storage.models import MessageRole


@dataclass(frozen=True)
class Turn:
    role: MessageRole
    text: str
    #: The files shown with the message (a Claude summarizer looks at them; the offline
    #: one reads only the note of them in ``text``).
    files: tuple[Attached, ...] = ()


#: A message's note of its attached files, as the librarian gives it to a summarizer
#: ("[files: menu.png (picture, 240 KB)]" on its own last line).
ATTACHED_NOTE = re.compile(r"\n?\[files: [^\n]*\]\s*$")


class Summarizer(Protocol):
    name: str

    def summarize(self, turns: Sequence[Turn]) -> str:
        """One line (no newline) describing the turns."""
        ...

    def close(self) -> None:
        """Release what the summarizer holds (a Claude summarizer's HTTP pool)."""
        ...


#: Where a sentence ends: after a full stop or a mark (a "." or ";" only before a
#: space), and at a line break. (A scan for these characters: 2.6x faster than
#: ``re.split`` on lookbehinds, which tries every position.)
_SENTENCE_END = re.compile(r"[。！？!?\n]|[.;](?=\s)")
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9'’\-]{2,}")
#: Two neighbouring CJK characters, not both hiragana (a particle or an ending, not a
#: content word); the lookahead finds the overlapping pairs of a run.
_CJK_PAIR = re.compile(
    r"(?=(?![\u3040-\u309fー]{2})"
    r"([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f々〆ー]{2}))")
_NUMBER = re.compile(
    r"[0-9０-９]+(?:[.,:/][0-9０-９]+)*|\b(?:one|two|three|four|five|six|seven|eight|nine|ten"
    r"|eleven|twelve|twenty|thirty|hundred|thousand)\b|[一二三四五六七八九十百千万]+[つ人回個台匹年月日時分]",
    re.IGNORECASE,
)
_KATAKANA_NAME = re.compile(r"[\u30a1-\u30faー]{3,}")
SPECIFICS_WEIGHT = 0.5
_LABEL = re.compile(r"^\[[^\]\n]{1,40}\]\s*")

_STOPWORDS = frozenset(
    [
        "the", "and", "for", "that", "this", "with", "you", "your", "are", "was", "were", "have",
        "has", "had", "not", "but", "can", "could", "would", "should", "will", "what", "when",
        "where", "which", "who", "how", "why", "all", "any", "its", "it's", "i'm", "i've", "i'd",
        "from", "they", "them", "their", "there", "then", "than", "been", "being", "into", "about",
        "just", "also", "some", "more", "most", "very", "really", "like", "get", "got", "make",
        "made", "want", "know", "think", "need", "one", "two", "out", "our", "ours", "off", "own",
        "here", "only", "over", "such", "too", "did", "does", "doing", "done", "let", "lets",
        "sure", "yes", "okay", "hello", "thanks", "thank", "please", "well", "much", "many", "may",
        "might", "must", "shall", "let's", "these", "those", "each", "other", "again", "still",
    ]
)


@lru_cache(maxsize=128)
def _terms(text: str) -> tuple[str, ...]:
    """The content words of ``text``: Latin words (no stopwords) and the bigrams of its
    CJK runs that are not hiragana only. (The latest texts' are remembered: a message is
    read again by each summary of a run that holds it, within a few passes. A long text's
    bigrams take ~0.1 MB, hence so few.)"""
    terms = [t for t in (w.lower() for w in _LATIN_WORD.findall(text)) if t not in _STOPWORDS]
    terms.extend(_CJK_PAIR.findall(text))  # one scan: 2x faster than pairing in Python
    return tuple(terms)


def terms(text: str) -> tuple[str, ...]:
    """The content words of ``text`` (Latin words without stopwords, CJK pairs), as the
    summarizer weighs them; also what a memory must share with its sources."""
    return _terms(text)


def _spaced(text: str) -> str:
    """Runs of white space as one space, none at either end (``str.split`` splits where
    ``\\s+`` matches, and faster)."""
    return " ".join(text.split())


@lru_cache(maxsize=128)
def _sentences(text: str) -> tuple[str, ...]:
    text = _LABEL.sub("", text.strip())
    start, parts = 0, []
    for end in _SENTENCE_END.finditer(text):
        parts.append(_spaced(text[start:end.end()]))
        start = end.end()
    parts.append(_spaced(text[start:]))
    return tuple(p for p in parts if len(p) >= 2)


#: Characters a cut never falls between: two of a Latin word or a number ("Scienc…",
#: "$…", "7…5"), a currency mark and its figure, a figure and its decimal part.
_WORDISH = re.compile(r"[0-9A-Za-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff'’$€£¥#%.,:/\-]")
_TRAILING = " 、,;:-–—/([「『\"'“‘$€£¥#"


def _inside_word(before: str, after: str) -> bool:
    if not (_WORDISH.match(before) and _WORDISH.match(after)):
        return False
    # "Paris, France" cuts after the comma; "2.5" and "1,200" do not
    return not (before in ".,:;" and not after.isdigit())


def clip(text: str, max_chars: int) -> str:
    """``text`` in at most ``max_chars`` characters: whole, or cut between words (never
    inside a Latin word or a number; Japanese and Chinese between any two characters)
    and always marked "…"."""
    text = _spaced(text)
    if len(text) <= max_chars:
        return text
    cut = max_chars - 1
    while cut > 0 and _inside_word(text[cut - 1], text[cut]):
        cut -= 1
    if cut < max_chars // 3:  # one very long word: cut it rather than lose the line
        cut = max_chars - 1
    return text[:cut].rstrip(_TRAILING) + "…"


def _trim(text: str, max_chars: int) -> str:
    return clip(text, max_chars)


def specifics(sentence: str) -> int:
    """How many things people ask about later a sentence carries: numbers and counts,
    names and places (capitalised words past the first, katakana names), dates."""
    words = _LATIN_WORD.findall(sentence)
    names = sum(1 for w in words[1:] if w[0].isupper())
    return len(_NUMBER.findall(sentence)) + names + len(_KATAKANA_NAME.findall(sentence))


def _rank(candidates: Sequence[str], weights: Counter[str]) -> list[int]:
    """Candidate indexes, best first; ties keep the original order. A sentence carrying
    specifics (numbers, names, places, dates) is preferred: those are what a later
    question asks about, and a Timeline Index line without them cannot answer it."""
    scored = []
    for index, sentence in enumerate(candidates):
        distinct = set(_terms(sentence))
        score = sum(weights[t] for t in distinct) / (1.0 + math.log1p(len(sentence)))
        score *= 1.0 + SPECIFICS_WEIGHT * min(specifics(sentence), 3)
        if index == 0:
            score *= 1.1
        scored.append((-score, index))
    scored.sort()
    return [index for _, index in scored]


#: A sentence that says nothing a later question could ask about: a greeting, thanks, a
#: "continue", an agreement. It folds into the talk around it.
_NOTHING = re.compile(
    r"^(?:(?:hi|hey|hello|yo|morning|good (?:morning|afternoon|evening|night)|thanks?|"
    r"thank you(?: so much| very much)?|thx|ok(?:ay)?|sure|yes|yeah|yep|no|nope|cool|great|"
    r"nice|perfect|awesome|got it|i see|continue|go on|keep going|more|next|again|please|"
    r"pls|and|so|hmm+|lol|wow|bye|see you|good ?night|claude|monet|"
    r"おはよう(?:ございます)?|こんにちは|こんばんは|おやすみ(?:なさい)?|ありがとう(?:ございます)?|"
    r"どうも|了解(?:です)?|はい|うん|ええ|なるほど|いいね|すごい|続けて(?:ください)?|続き(?:を)?|"
    r"もっと|次|お願いします|よろしく(?:お願いします)?|またね|じゃあね)[\s,.!?。、！？~〜ー…]*)+$",
    re.IGNORECASE)


def said_nothing(sentence: str) -> bool:
    """Is ``sentence`` only a greeting, thanks, "continue" or a yes?"""
    return bool(_NOTHING.match(sentence.strip()))


#: A line's note of a newer value (``cms/memory/updates.py``), at its end: one, the newest.
NOTE = " (later, {day}: {said})"
_NOTE = re.compile(r" \(later, \d{4}-\d{2}-\d{2}: (?P<said>.+)\)$")


def body_of(summary: str) -> str:
    """A line's summary without its note of a newer value."""
    return _NOTE.sub("", summary)


def note_of(summary: str) -> str | None:
    """What a line's note quotes, or None."""
    match = _NOTE.search(summary)
    return match.group("said") if match else None


#: Between what the talk was about and what came of it, in a summary line.
OUTCOME_JOINT = " → "
#: The most a line's outcome (from Claude's side) takes.
OUTCOME_CHARS = 70
#: Markup of a reply that is not its words: emphasis, headings, list marks.
_MARKUP = re.compile(r"\*\*|__|`|^\s*(?:#+|[-*•]|\d+[.)])\s+", re.MULTILINE)


#: A list item's label: "Roscioli: a famous deli…" (its first word is a name too).
_ITEM_LABEL = re.compile(r"^([A-Z][\w'’&.-]*(?: [A-Z][\w'’&.-]*){0,4})\s*[:：–—-]\s")


#: Advice in the imperative ("Check online directories: Look up…"): what Claude told the
#: person to do, not what came of the talk; a line prefers a statement.
_ADVICE = re.compile(
    r"^(?:[^:：]{1,40}[:：]\s*)?(?:check|look|try|consider|use|make|visit|read|start|add|keep|"
    r"take|ask|find|go|get|avoid|be|set|choose|explore|research|contact|reach|join|follow|"
    r"practice|focus|create|write|include|remember|plan|book|call|bring|watch|listen|give|"
    r"eat|drink|stay|search|browse|attend|talk|share|note|don't|do|always|never)\b",
    re.IGNORECASE)


def _new_specifics(sentence: str, said: str) -> int:
    """The specifics of ``sentence`` (numbers, names, katakana names) that ``said`` (the
    person's words) does not hold: what the reply brought."""
    words = _LATIN_WORD.findall(sentence)
    found = [w for w in words[1:] if w[0].isupper()]
    label = _ITEM_LABEL.match(sentence)
    if label and words:
        found.append(words[0])
    found += _NUMBER.findall(sentence) + _KATAKANA_NAME.findall(sentence)
    return sum(1 for item in found if item.lower() not in said)


#: Content words a message shares at least with the talk of a topic to be about the same
#: thing (``topics``), not counting ``_GENERIC`` ones.
TOPIC_SHARED = 1
#: Words any talk may use whatever it is about: they do not make two exchanges one topic.
_GENERIC = frozenset(
    """good best great better help tips tip idea ideas recommend recommendations suggest
    suggestions way ways thing things time times use using used try trying tried look looking
    start started new old lot lots little bit day days week weeks year years people person
    work working going go come able find found give take keep say said tell ask asked
    question questions answer info information options option different specific some
    important interesting right kind sort first last next also even definitely actually
    probably maybe yeah i'll i've i'd you're it's that's there's don't can't won't""".split())
#: A message with fewer content words of its own is a follow-up of the topic before it.
FOLLOW_UP_TERMS = 4
#: The characters a line gives each topic it names, and the most topics it names.
TOPIC_CHARS = 48
MAX_TOPICS = 3


#: A request's asking words, to be told as asked: "Can you recommend…", 「…を教えて」.
_EN_ASK = re.compile(
    r"^(?:(?:hey|hi|ok(?:ay)?|so|also|and|now|unrelated|quick question|one more thing)"
    r"[,:;!.\s-]+)*(?:(?:can|could|would|will) you (?:please |also )?|please |i'd like "
    r"you to |i want you to )?(?:recommend|suggest|give me|tell me about|tell me|explain|"
    r"show me|list|find|help me (?:with|find|plan|write|choose|pick|understand)|write|draft|"
    r"plan|compare|summari[sz]e|describe|name)\s+(?:me\s+)?", re.IGNORECASE)
_JA_ASK = re.compile(
    r"(?P<verb>(?:教え|おしえ|調べ|考え|まとめ|見せ|比べ|探し|選ん|書い|作っ|直し|訳し|"
    r"(?:提案|説明|紹介|比較|添削|翻訳|確認|整理|要約)し)[てで])(?:ください|下さい|くれ(?:る|"
    r"ない|ませんか)?|ほしい(?:です)?|欲しい(?:です)?|もらえ(?:ますか|ませんか|る)?|"
    r"いただけ(?:ますか|ませんか)|頂けますか)?[。！!？?]*$")


def as_asked(request: str) -> str | None:
    """A request of the person told as what they asked about ("Asked about some romantic
    getaways…", 「嵐山の回り方を教えてほしいと頼んだ」), for a line's topic that holds nothing else;
    None when it cannot be told so without still reading as an instruction."""
    text = request.strip()
    if found := _JA_ASK.search(text):
        told = text[:found.end("verb")] + "ほしいと頼んだ"
    elif _EN_ASK.match(text):
        rest = _EN_ASK.sub("", text, count=1).rstrip("?!. ")
        told = f"Asked about {rest}." if rest else ""
    else:
        return None
    return told if len(told) > 8 and not instruction_like(told) else None


_JA_QUESTION = re.compile(r"(?:か|かな|の)[。．]?\s*$", re.MULTILINE)


def _says_little(text: str, own: set[str]) -> bool:
    """A message that does not open a subject of its own: few content words, or neither a
    question, a request nor a name or number ("I'll check their website", "プロみたい")."""
    if len(own) < FOLLOW_UP_TERMS:
        return True
    asks = "?" in text or "？" in text or _JA_QUESTION.search(text) is not None
    return not (asks or specifics(text) or any(instruction_like(s) for s in _sentences(text)))


def topics(talk: Sequence[Turn]) -> list[list[int]]:
    """The person's messages of ``talk`` (their indexes) grouped by what they are about,
    in order. A message joins the latest topic whose talk (the person's words and
    Claude's replies) shares ``TOPIC_SHARED`` content words with it (``_GENERIC`` ones
    aside), or the topic just before when it says little of its own (``_says_little``);
    otherwise it starts a topic. A segment of unrelated exchanges (a squeaky hinge, then
    a chess opening) so has two topics, and its line names each."""
    groups: list[list[int]] = []
    words: list[set[str]] = []
    current = -1
    for index, turn in enumerate(talk):
        own = set(_terms(turn.text)) - _GENERIC
        if turn.role != MessageRole.USER:
            if current >= 0:
                words[current] |= own
            continue
        home = next((n for n in range(len(groups) - 1, -1, -1)
                     if len(own & words[n]) >= TOPIC_SHARED), None)
        if home is None and groups and _says_little(turn.text, own):
            home = current
        if home is None:
            groups.append([])
            words.append(set())
            home = len(groups) - 1
        groups[home].append(index)
        words[home] |= own
        current = home
    return groups


class OfflineSummarizer:
    """Deterministic extractive summaries; no model, no network.

    A line says what the talk was about, from the person's words, and what came of it:
    the sentence of Claude's replies that brings the most names and numbers the person
    did not say (the restaurant recommended, the figure worked out), after
    ``OUTCOME_JOINT``. A reply with none adds nothing."""

    name = "offline"

    def __init__(self, max_chars: int = 110) -> None:
        self.max_chars = max_chars

    def close(self) -> None:
        """Nothing to release."""

    def summarize(self, turns: Sequence[Turn]) -> str:
        # the files' note is for a model that reads it; the line names the files anyway
        talk = [Turn(turn.role, ATTACHED_NOTE.sub("", turn.text)) for turn in turns
                if turn.role != MessageRole.TOOL]
        # a sentence addressed to the assistant (a request, an instruction from a pasted
        # page) does not stand for the talk when another can (cms/records.py); nor does a
        # greeting or a "continue", which fold into what the talk was about
        said = [(s, index) for index, turn in enumerate(talk) if turn.role == MessageRole.USER
                for s in _sentences(turn.text) if not instruction_like(s)]
        candidates = [(s, i) for s, i in said if not said_nothing(s)]
        groups = topics(talk)
        if len(groups) > 1 and candidates:
            candidates = self._asked_too(talk, groups, candidates)
        if not candidates:  # (only then are Claude's sentences split)
            candidates = [(s, i) for i, turn in enumerate(talk) for s in _sentences(turn.text)
                          if not instruction_like(s) and not said_nothing(s)]
        if not candidates:
            candidates = [(s, i) for i, turn in enumerate(talk) for s in _sentences(turn.text)]
        if not candidates:
            return "（内容なし）"
        texts = [s for s, _ in candidates]
        budget = self.max_chars
        if len(candidates) == 1:  # nothing to rank: the words' weights are not needed
            line = _trim(texts[0], budget)
            chosen = [0]
        else:
            weights: Counter[str] = Counter()
            for turn in talk:
                terms = _terms(turn.text)
                weights.update(terms)
                if turn.role == MessageRole.USER:
                    weights.update(terms)  # the person's own words count twice
            topic_of = {index: n for n, group in enumerate(groups) for index in group}
            shown = sorted({topic_of[i] for _, i in candidates if i in topic_of})
            if len(shown) <= 1:
                chosen = self._choose(texts, weights, budget)
                line = _trim(" / ".join(texts[i] for i in chosen), budget)
            else:
                line, chosen = self._each_topic(candidates, weights, topic_of, shown)
                # "A / B → C" reads as what came of B: the outcome is the last topic's
                last = topic_of[candidates[chosen[-1]][1]]
                chosen = [i for i in chosen if topic_of[candidates[i][1]] == last]
        named = sorted({candidates[i][1] for i in chosen})
        return line + self._outcome(talk, named)

    @staticmethod
    def _asked_too(talk: Sequence[Turn], groups: Sequence[Sequence[int]],
                   candidates: list[tuple[str, int]]) -> list[tuple[str, int]]:
        """``candidates`` with, for each topic none of them is from (the person only asked
        for something: "Can you recommend…", 「…を教えてください」), its requests told as
        asked (``as_asked``), so that the line can name that topic too."""
        have = {i for _, i in candidates}
        added = [(asked, i) for group in groups if not have.intersection(group)
                 for i in group for sentence in _sentences(talk[i].text)
                 if not said_nothing(sentence) and instruction_like(sentence)
                 and (asked := as_asked(sentence)) is not None]
        return sorted(candidates + added, key=lambda c: c[1]) if added else candidates

    def _each_topic(self, candidates: Sequence[tuple[str, int]], weights: Counter[str],
                    topic_of: dict[int, int], shown: Sequence[int]) -> tuple[str, list[int]]:
        """A line naming each topic of the segment (``topics``), in their order: the best
        sentence of each, cut to its share of a budget that grows with the topics (up to
        ``MAX_TOPICS``; past them, the best-ranked topics), then, while there is room, more
        of the best sentences whole. Returns the line and the candidates it names."""
        texts = [s for s, _ in candidates]
        order = _rank(texts, weights)
        best: dict[int, int] = {}
        for index in order:
            best.setdefault(topic_of.get(candidates[index][1], -1), index)
        kept = [t for t in shown if t in best]
        if len(kept) > MAX_TOPICS:
            kept = sorted(sorted(kept, key=lambda t: order.index(best[t]))[:MAX_TOPICS])
        budget = max(self.max_chars, TOPIC_CHARS * len(kept))
        share = (budget - 3 * (len(kept) - 1)) // len(kept)
        picked = {t: [best[t]] for t in kept}
        used = sum(min(len(texts[best[t]]), share) for t in kept) + 3 * (len(kept) - 1)
        for index in order:
            topic = topic_of.get(candidates[index][1], -1)
            if topic not in picked or index in picked[topic] or used >= budget * 0.6:
                continue
            if used + 3 + len(texts[index]) <= budget:
                picked[topic].append(index)
                used += 3 + len(texts[index])
        parts, chosen = [], []
        for topic in kept:
            indexes = sorted(picked[topic])
            chosen += indexes
            if len(indexes) == 1:
                parts.append(_trim(texts[indexes[0]], share))
            else:
                parts.append(" / ".join(texts[i] for i in indexes))
        return _trim(" / ".join(parts), budget), chosen

    @staticmethod
    def _outcome(talk: Sequence[Turn], named: Sequence[int] = ()) -> str:
        """What came of the talk from Claude's side, with its joint, or "": only from the
        replies to the person's messages the line names (``named``: their indexes in
        ``talk``), never from a reply to another question of the same segment."""
        asked = [talk[i] for i in named if talk[i].role == MessageRole.USER]
        if not asked:
            return ""  # Claude's sentences already stand for the talk
        said = " ".join(t.text for t in asked).lower()
        replies = []
        for index in named:
            if talk[index].role != MessageRole.USER:
                continue
            for turn in talk[index + 1:]:
                if turn.role == MessageRole.USER:
                    break
                if turn.role == MessageRole.ASSISTANT:
                    replies.append(turn)
        best: tuple[float, str] | None = None
        for turn in replies:
            for sentence in _sentences(_MARKUP.sub("", turn.text)):
                if len(sentence) < 12 or sentence.endswith(("?", "？", ":", "：")) \
                        or _ADVICE.match(sentence) or instruction_like(sentence):
                    continue
                brought = _new_specifics(sentence, said)
                if not brought:
                    continue
                related = sum(1 for t in set(_terms(sentence)) if t in said)
                score = (min(brought, 3) + 0.5 * min(related, 4)) \
                    / (1.0 + math.log1p(len(sentence)))
                if best is None or score > best[0]:
                    best = (score, sentence)
        return OUTCOME_JOINT + _trim(best[1], OUTCOME_CHARS) if best else ""

    def condense(self, lines: Sequence[str], max_chars: int) -> str:
        """Several summary lines into one, for TI roll-ups (without their notes of newer
        values: a note stays on its own line, where forgetting can find it)."""
        candidates = [_spaced(body_of(line)) for line in lines if line.strip()]
        if len(candidates) <= 1:
            return _trim(candidates[0], max_chars) if candidates else "（内容なし）"
        weights: Counter[str] = Counter()
        for line in candidates:
            weights.update(set(_terms(line)))
        return self._pick(candidates, weights, max_chars)

    @classmethod
    def _pick(cls, candidates: Sequence[str], weights: Counter[str], max_chars: int) -> str:
        chosen = cls._choose(candidates, weights, max_chars)
        return _trim(" / ".join(candidates[i] for i in chosen), max_chars)

    @staticmethod
    def _choose(candidates: Sequence[str], weights: Counter[str], max_chars: int) -> list[int]:
        """The indexes of the candidates a line holds, in their order: the best one and,
        while there is room, the next best."""
        order = _rank(candidates, weights)
        chosen = [order[0]]
        used = len(candidates[order[0]])
        for index in order[1:]:
            if used >= max_chars * 0.6:
                break
            if used + 3 + len(candidates[index]) <= max_chars:
                chosen.append(index)
                used += 3 + len(candidates[index])
        chosen.sort()
        return chosen
