"""Claude's tools. Their definitions are part of the cached prefix, so they are constants.

``search_history`` here is the minimal one the core needs: a plain scan of stored
messages scored by how many query terms each contains. The memory issue moves it onto a
full-text index.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from itertools import pairwise
from typing import Any, NotRequired, TypedDict

from cms import facts
from cms.clock import parse_ts
from cms.meaning import Meaning, Near, pieces
from cms.model.protocol import ToolDefinition
from storage import attachments as attachment_files
from storage import fts
from storage.database import Session
from storage.models import MessageRole
from storage.talk import all_messages

log = logging.getLogger("monet.search")

SEARCH_HISTORY: ToolDefinition = {
    "name": "search_history",
    "description": (
        "Search the person's whole stored conversation history with MONET (every past day "
        "and today, including talk that is only summarized in the Timeline Index). Returns "
        "the best-matching messages with their day, tab, time, role and exact text, each "
        "marked by how it was found: \"words\" (it holds the query's words) or \"meaning\" "
        "(it says something close in other words: check that it is what was asked). Use it "
        "to check details instead of guessing."
    ),
    "input_schema": {
        "type": "object",
        "properties": {
            "query": {
                "type": "string",
                "description": "Words or a phrase to look for, in the language of the talk.",
            },
            "limit": {
                "type": "integer",
                "minimum": 1,
                "maximum": 20,
                "description": "How many messages to return (default 5).",
            },
        },
        "required": ["query"],
    },
}

READ_DAY: ToolDefinition = {
    "name": "read_day",
    "description": (
        "Read the person's conversation of one day (YYYY-MM-DD) word for word, from the "
        "database: every message with its time, tab and role. Use it to quote exactly what "
        "was said on a day the Timeline Index summarizes."
    ),
    "input_schema": {
        "type": "object",
        "properties": {
            "day": {"type": "string", "description": "The day, YYYY-MM-DD."},
            "tab": {"type": "string", "description": "Only this tab (optional)."},
        },
        "required": ["day"],
    },
}

VIEW_ATTACHMENT: ToolDefinition = {
    "name": "view_attachment",
    "description": (
        "Look again at a picture or document the person attached on an earlier day or "
        "earlier today (the Timeline Index names them in [files: ...]; the conversation shows "
        "them). Returns the file itself, as it was attached."
    ),
    "input_schema": {
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "The file's name, e.g. menu.png."},
            "day": {"type": "string",
                    "description": "YYYY-MM-DD, when several files share the name."},
        },
        "required": ["name"],
    },
}

TOOLS: list[ToolDefinition] = [SEARCH_HISTORY, READ_DAY, VIEW_ATTACHMENT]
READ_DAY_MAX_CHARS = 30_000

_LATIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9'\-]{2,}")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaffー々]+")
_CONTENT = re.compile(r"[\u30a0-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaffー々]+")
_HIRAGANA_ONLY = re.compile(r"^[\u3040-\u309fー]+$")
#: Words a question is made of but that say nothing of what to look for: a standard
#: English stopword list (NLTK's), and question and request words ("how many", "remind
#: me", "any good ideas", "lately") that would otherwise outrank the words that matter
#: ("interesting" and "recent" matched more messages than "high school" did).
_STOP = frozenset("""
i me my myself we our ours ourselves you your yours yourself yourselves he him his himself
she her hers herself it its itself they them their theirs themselves what which who whom
this that these those am is are was were be been being have has had having do does did
doing a an the and but if or because as until while of at by for with about against
between into through during before after above below to from up down in out on off over
under again further then once here there when where why how all any both each few more
most other some such no nor not only own same so than too very can will just don should
now i'm i've i'd i'll you're you've you'd didn't don't doesn't isn't wasn't
many much could would might since ago long find think tell know remember recall recommend
suggest suggested recommended mentioned mention talked talk said told remind wondering
wonder thinking thought want wanted like liked get got going something anything things
thing way also still back again good great nice interesting idea ideas tips advice
suggestion suggestions recommendation recommendations previous conversation chat earlier
lately recent recently currently ever please thanks help
""".split())
MAX_TEXT = 600
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|my|me|mine)\b|私|僕|俺|わたし|自分", re.IGNORECASE)
_ABOUT_ASSISTANT = re.compile(
    r"\byou (?:said|told|mentioned|recommended|suggested|gave|shared|listed|explained|wrote)\b|"
    r"\bremind me\b|\byour (?:answer|advice|recommendation|suggestion)|"
    r"\bour (?:previous|last|earlier) (?:conversation|chat|discussion)|"
    r"あなたが|教えてくれた|おすすめしてくれた|言ってくれた",
    re.IGNORECASE,
)


def speaker_of(question: str) -> MessageRole | None:
    """Whose words answer the question: the person's for "what did I …", "how many … do I
    own", the assistant's for "what did you recommend", "remind me of …"; else either."""
    if _ABOUT_ASSISTANT.search(question):
        return MessageRole.ASSISTANT
    if _FIRST_PERSON.search(question):
        return MessageRole.USER
    return None


def _singular(word: str) -> str:
    """A plural's stem, so that the substring search finds both forms: "bikes" -> "bike",
    "stories" -> "stor" (finds story and stories). Short words are left alone."""
    lower = word.lower()
    if len(word) >= 6 and lower.endswith("ies"):
        return word[:-3]
    if len(word) >= 5 and lower.endswith("s") and not lower.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def query_terms(query: str, *, pieces: bool = False) -> list[str]:
    """The pieces of a question worth looking for: the whole phrase, neighbouring content
    words as phrases, content words, and for Japanese the three-character pieces of each
    run (the index's trigrams). ``pieces`` (Claude's recall): also the two-character words
    inside a kanji or katakana run (ストレス解消 -> 解消), which a natural question
    shares with the message more often than its longer runs; the person's search looks
    for what they typed."""
    terms: list[str] = []
    phrase = query.strip()
    if phrase:
        terms.append(phrase)
    # two content words side by side, as a phrase: "high school" weighs more than either
    words = _LATIN.findall(query)
    for first, second in pairwise(words):
        if first.lower() not in _STOP and second.lower() not in _STOP \
                and f"{first} {second}" in query:
            terms.append(f"{first} {second}")
    for word in words:
        if word.lower() not in _STOP:
            terms.append(_singular(word))
    for word in _CONTENT.findall(query):
        if len(word) >= 2:
            terms.append(word)  # a kanji/katakana word: 京都, 旅行, ゲーム
        if pieces and len(word) > 2:  # its two-character words: ストレス解消 -> 解消
            terms.extend(word[i:i + 2] for i in range(len(word) - 1))
    for run in _CJK.findall(query):
        if len(run) <= 3 or _HIRAGANA_ONLY.match(run):
            # a word in kana alone, typed as one (そうめん, いろはす): a title or a food
            # written in hiragana is looked for whole; inside a sentence, hiragana-only
            # pieces are endings and particles, and are left out
            if len(run) >= 3 or not _HIRAGANA_ONLY.match(run):
                terms.append(run)
            continue
        for i in range(len(run) - 2):
            gram = run[i : i + 3]
            if not _HIRAGANA_ONLY.match(gram):
                terms.append(gram)
    seen: set[str] = set()
    unique = []
    for term in terms:
        key = term.lower()
        if key not in seen:
            seen.add(key)
            unique.append(term)
    return unique[:40]


class FoundMessage(TypedDict):
    """One message in ``search_history``'s result, as Claude reads it (keys in this order)."""

    day: str
    tab: str
    time: str
    role: MessageRole
    text: str
    match: str  # "words" or "meaning"
    #: an older statement of something a newer result restates: that one's day
    newer_on: NotRequired[str]


class SearchHistoryResult(TypedDict):
    query: str
    results: list[FoundMessage]


class DayMessage(TypedDict):
    time: str
    tab: str
    role: MessageRole
    text: str


class ReadDayResult(TypedDict):
    """``read_day``'s result, as Claude reads it (keys in this order)."""

    day: str
    messages: list[DayMessage]
    truncated: NotRequired[bool]
    shown: NotRequired[int]
    total: NotRequired[int]
    note: NotRequired[str]


def snippet(text: str, terms: Sequence[str], width: int) -> str:
    """``text`` whole if it fits, else the ``width`` characters around the first place a
    term occurs (the start if none does), with … where it was cut."""
    if len(text) <= width:
        return text
    lowered = text.lower()
    places = [p for p in (lowered.find(t.lower()) for t in terms) if p >= 0]
    start = max(0, min(places) - width // 4) if places else 0
    start = min(start, len(text) - width)
    piece = text[start : start + width]
    return ("…" if start > 0 else "") + piece + ("…" if start + width < len(text) else "")


def find(
    session: Session, query: str, limit: int, before_id: int | None = None
) -> list[fts.SearchHit]:
    """The one search, for the person (``monet search``, Ctrl+F) and for Claude
    (``search_history``): the question's terms, OR-ed and ranked by BM25. The person
    also finds what they asked Claude to forget; Claude does not."""
    return fts.search_any(session, query_terms(query), limit, before_id=before_id,
                          include_hidden=True, prefer=speaker_of(query))


def _words(session: Session, query: str, limit: int, before_id: int | None,
           prefer: MessageRole | None) -> list[fts.SearchHit]:
    """The word search: a question in Japanese ranks through the bigram index
    (``fts.search_grams``: BM25 over character pairs, as Japanese is searched without a
    dictionary); otherwise, and to fill what that leaves, the question's terms, OR-ed and
    ranked by BM25, two-character words among them (``pieces``, ``rank_short``)."""
    found: list[fts.SearchHit] = []
    if _CJK.search(query):
        found = fts.search_grams(session, query, limit, before_id=before_id, prefer=prefer)
    if len(found) < limit:
        seen = {hit.id for hit in found}
        more = fts.search_any(session, query_terms(query, pieces=True), limit,
                              before_id=before_id, prefer=prefer, rank_short=True)
        found += [hit for hit in more if hit.id not in seen][: limit - len(found)]
    return found


#: How the word matches and the meaning matches share the list: a letter per place, W a
#: word match, M a meaning match (a place whose list is used up goes to the other). What
#: the word match holding the most of what the question's words weigh (idf,
#: ``_coverage``) holds chooses the order (the most, not the first's: BM25 can put a
#: name behind messages that share the question's everyday words):
#:
#: - at least ``SURE_WORDS``: the words are likely on the mark (a name, a rare word the
#:   person used again) and alternate with meaning from the first place;
#: - at least ``SOME_WORDS``: the first two word matches take the first and the fourth
#:   place (a name the encoder misses), and meaning the rest;
#: - less: what matched is the question's common words and bigrams, and meaning orders
#:   the list (the words only fill it if meaning runs short).
#:
#: Measured (benchmarks/recall_meaning.py, benchmarks/recall.py; docs/performance.md):
#: meaning alone loses LongMemEval questions and names the words answer, the words alone
#: find almost nothing asked in other words, two places for the words whatever they
#: held pushed meaning's 9th and 10th out of the list, and ranking by a sum of cosine
#: and word overlap lost both ways.
SURE_WORDS = 0.3
SOME_WORDS = 0.2
_SURE_ORDER = "WM" * 10
_SOME_ORDER = "WMMW" + "M" * 16
_MEANING_ORDER = "M" * 20


def _coverage(question: set[str], text: str, idf: dict[str, float]) -> float:
    total = sum(idf.get(t, 0.0) for t in question)
    if not total:
        return 0.0
    return sum(idf.get(t, 0.0) for t in question & _tokens(text)) / total


def _tokens(text: str) -> set[str]:
    """A text's words as the overlap counts them: the pair index's tokens without the
    question words, an English plural's stem."""
    found = set()
    for token in fts.gram_tokens(text):
        if token in _STOP:
            continue
        if token.isascii() and len(token) >= 4 and token.endswith("s") \
                and not token.endswith("ss"):
            token = token[:-1]
        found.add(token)
    return found


#: A word of the question that at most this many messages hold is rare in the history:
#: the messages holding it keep a place in the list (``_keep_rare``).
RARE_HELD = 3
#: A name as the question writes it: a capitalised word past the first, a word with a
#: digit, a katakana word of four or more (a shorter one is most often an everyday
#: loanword: レシピ, サイト).
_NAME_LIKE = re.compile(r"(?<=\S\s)[A-Z][\w'’-]+|\b\w*\d\w*\b|[\u30a1-\u30faー]{4,}")


def _keep_rare(session: Session, query: str, words: Sequence[fts.SearchHit],
               chosen: list[int], by_words: set[int]) -> list[int]:
    """``chosen`` where the word matches holding a rare name of the question (each of its
    tokens held by at most ``RARE_HELD`` messages: "the Zebco reel", 「ヤクルト1000」) take
    the last places meaning had: an exact match of a name the encoder does not know is
    not pushed out of the list by messages merely near in meaning."""
    names = {found: _tokens(found) for found in _NAME_LIKE.findall(query)}
    names = {name: tokens for name, tokens in names.items() if tokens}
    if not names:
        return chosen
    counts = fts.document_counts(session, sorted(set().union(*names.values())))
    rare = [name.casefold() for name, tokens in names.items()
            if all(0 < counts.get(t, 0) <= RARE_HELD for t in tokens)]
    keep = [h.id for h in words if h.id not in chosen
            and any(name in h.text.casefold() for name in rare)]
    if not keep:
        return chosen
    result = list(chosen)
    for index in range(len(result) - 1, -1, -1):
        if not keep:
            break
        if result[index] not in by_words:
            result[index] = keep.pop(0)
    return result


def fused(
    session: Session, query: str, limit: int, before_id: int | None = None,
    meaning: Meaning | None = None,
) -> list[tuple[fts.SearchHit, str, str]]:
    """``recall``'s messages, each with how it was found (``"words"``, or ``"meaning"``
    when only meaning found it) and what to quote of it: the whole text for a word match
    (``snippet`` cuts it around the words), the nearest piece for a meaning match (the
    part of a long reply that answers). A failing meaning search leaves the words."""
    prefer = speaker_of(query)
    words = _words(session, query, limit, before_id, prefer)
    near: list[Near] = []
    if meaning is not None:
        try:
            near = meaning.near(session, query, limit, before_id)
        except Exception as exc:  # noqa: BLE001 - the word search still answers
            log.warning("recall by meaning failed, words only: %s", exc)
    if not near or meaning is None:
        return [(hit, "words", hit.text) for hit in words]
    order = _MEANING_ORDER
    if words:
        wanted = _tokens(query)
        idf = meaning.idf(session, wanted)
        held = max(_coverage(wanted, hit.text, idf) for hit in words)
        order = (_SURE_ORDER if held >= SURE_WORDS
                 else _SOME_ORDER if held >= SOME_WORDS else _MEANING_ORDER)
    lists = {"W": [h.id for h in words], "M": [n.message_id for n in near]}
    by_words = set(lists["W"])
    chosen: list[int] = []
    for letter in order + "WM" * limit:
        if len(chosen) >= limit:
            break
        for source in (letter, "M" if letter == "W" else "W"):
            pick = next((i for i in lists[source] if i not in chosen), None)
            if pick is not None:
                chosen.append(pick)
                break
    if words:
        chosen = _keep_rare(session, query, words, chosen, by_words)
    have = {h.id: h for h in words}
    have.update((h.id, h) for h in fts.load(session, [i for i in chosen if i not in have]))
    piece_of = {n.message_id: n.piece for n in near}
    found: list[tuple[fts.SearchHit, str, str]] = []
    for i in chosen:
        hit = have.get(i)
        if hit is None or hit.hidden:  # gone, or forgotten since its vectors were read
            continue
        if i in by_words:
            found.append((hit, "words", hit.text))
        else:
            cut = pieces(hit.text)
            found.append((hit, "meaning", cut[min(piece_of[i], len(cut) - 1)] if cut else ""))
    return found


def recall(
    session: Session, query: str, limit: int, before_id: int | None = None,
    meaning: Meaning | None = None,
) -> list[fts.SearchHit]:
    """What Claude's ``search_history`` finds, forgotten messages never: the word search
    (``_words``: a question in Japanese through the bigram index, the rest and what that
    leaves through the question's terms, the likely speaker's words first) and, with
    ``meaning``, the messages nearest the question by meaning, sharing the list as
    ``SURE_WORDS`` says."""
    return [hit for hit, _how, _quote in fused(session, query, limit, before_id, meaning)]


def search_history(
    session: Session, query: str, limit: int = 5, before_id: int | None = None,
    meaning: Meaning | None = None,
) -> SearchHistoryResult:
    limit = max(1, min(int(limit or 5), 20))
    terms = query_terms(query)
    found = newer_first(fused(session, query, limit, before_id=before_id, meaning=meaning))
    results: list[FoundMessage] = []
    for hit, how, quote, newer_on in found:
        text = snippet(quote, terms, MAX_TEXT)
        result: FoundMessage = {
            "day": hit.day,
            "tab": hit.tab,
            "time": parse_ts(hit.ts).strftime("%H:%M"),
            "role": hit.role,
            "text": text,
            "match": how,
        }
        if newer_on:
            result["newer_on"] = newer_on
        results.append(result)
    return {"query": query, "results": results}


def newer_first(found: list[tuple[fts.SearchHit, str, str]]
                ) -> list[tuple[fts.SearchHit, str, str, str]]:
    """Of two of the person's messages stating the same subject's property ("Theo is 4",
    "Theo turned 5"), the newer ranks first, and the older says on which day a newer
    one restates it (``newer_on``): Claude answers with the current value."""
    keys = [facts.keys_in(hit.text) if hit.role == MessageRole.USER else set()
            for hit, _how, _quote in found]
    order = list(range(len(found)))
    newer_on = [""] * len(found)
    for i in range(len(found)):
        for j in range(len(found)):
            if i != j and keys[i] and keys[j] and found[j][0].ts > found[i][0].ts \
                    and facts.same_property(keys[i], keys[j]):
                newer_on[i] = max(newer_on[i], found[j][0].day)
    # each newer statement moves just ahead of the first older one it restates
    for j in range(len(found)):
        olders = [i for i in range(len(found)) if newer_on[i] and keys[j]
                  and found[j][0].ts > found[i][0].ts and facts.same_property(keys[i], keys[j])]
        if not olders:
            continue
        first = min(order.index(i) for i in olders)
        if order.index(j) > first:
            order.remove(j)
            order.insert(first, j)
    return [(*found[i], newer_on[i]) for i in order]


def view_attachment(session: Session, name: str, day: str | None,
                    before_id: int | None) -> tuple[str | list[dict[str, Any]], bool]:
    """The newest attached file called ``name`` (of ``day``), as a reference and a line
    saying what and when; a sentence listing what there is when none is called so."""
    rows = attachment_files.files_seen(session, day, before_id)
    wanted = name.strip().casefold()
    found = next((r for r in rows if r[0].casefold() == wanted), None) or next(
        (r for r in rows if wanted and wanted in r[0].casefold()), None)
    if found is None:
        known = sorted({r[0] for r in rows})[:20]
        return (f"No attached file called {name!r}"
                + (f" on {day}" if day else "") + ". Attached files: "
                + (", ".join(known) if known else "none") + "."), True
    file_name, media_type, sha, on_day, ts = found
    return [{"type": attachment_files.REF, "name": file_name, "media_type": media_type,
             "sha256": sha},
            {"type": "text", "text": f"{file_name}, attached on {on_day} at {ts[11:16]}."}
            ], False


def run_tool(
    session: Session, name: str, tool_input: dict[str, Any], before_id: int | None,
    meaning: Meaning | None = None,
) -> tuple[str | list[dict[str, Any]], bool]:
    """Run one tool call. Returns (result text or blocks, is_error)."""
    if name == "search_history":
        query = tool_input.get("query")
        if not isinstance(query, str) or not query.strip():
            return "search_history needs a non-empty 'query' string.", True
        limit = tool_input.get("limit", 5)
        if not isinstance(limit, int):
            limit = 5
        result = search_history(session, query, limit, before_id=before_id,
                                meaning=meaning)
        return json.dumps(result, ensure_ascii=False), False
    if name == "read_day":
        day = tool_input.get("day")
        if not isinstance(day, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", day):
            return "read_day needs 'day' as YYYY-MM-DD.", True
        tab = tool_input.get("tab")
        return json.dumps(read_day(session, day, tab if isinstance(tab, str) else None,
                                   before_id), ensure_ascii=False), False
    if name == "view_attachment":
        file_name = tool_input.get("name")
        if not isinstance(file_name, str) or not file_name.strip():
            return "view_attachment needs the file's 'name'.", True
        day = tool_input.get("day")
        return view_attachment(session, file_name, day if isinstance(day, str) else None,
                               before_id)
    return f"Unknown tool: {name}", True


def read_day(
    session: Session, day: str, tab: str | None = None, before_id: int | None = None
) -> ReadDayResult:
    """One day's messages, exactly as stored (the current exchange left out)."""
    rows: list[DayMessage] = []
    used = 0
    messages = [
        m for m in all_messages(session, day)
        if m.role in (MessageRole.USER, MessageRole.ASSISTANT) and not m.hidden
        and (tab is None or m.tab == tab)
        and (before_id is None or (m.id or 0) < before_id)
    ]
    for message in messages:
        if used + len(message.text) > READ_DAY_MAX_CHARS and rows:
            break
        used += len(message.text)
        rows.append({
            "time": parse_ts(message.ts).strftime("%H:%M"),
            "tab": message.tab,
            "role": message.role,
            "text": message.text,
        })
    result: ReadDayResult = {"day": day, "messages": rows}
    if len(rows) < len(messages):
        result["truncated"] = True
        result["shown"] = len(rows)
        result["total"] = len(messages)
    if not messages:
        result["note"] = "No messages are stored for that day."
    return result
