"""Memory the person controls (docs/design.md §6).

The librarian *proposes* candidates from the person's own messages; rules, not a model,
decide what is written (``admit``):

- the source messages exist and are the person's (never the assistant's words);
- temporary moods, guesses about personality and unconfirmed sensitive details are never
  stored by themselves; "remember this" / 「覚えておいて」 from the person is stored;
- a new fact about something already remembered either supersedes the old one (when the
  person marks it as a correction) or marks both as contested, shown to the person and to
  Claude as a contradiction; never one picked at random.

Active, unexpired items reach the prompt's context block at rebuild points. Editing or
deleting an item bumps ``PromptState.memory_version``; the next request is rebuilt
(``memory_changed``) and no later request contains what was removed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from itertools import pairwise

from cms import facts
from cms.grounding import grounded
from cms.records import instruction_like
from cms.summaries import terms as summary_terms
from storage.database import Session
from storage.errors import MemoryItemError
from storage.memory import shown_memory_items
from storage.models import MemoryItem, MemoryKind, MemoryStatus, Message, MessageRole
from storage.prompt_state import bump_memory
from storage.talk import Talk

KINDS = tuple(MemoryKind)
#: What Claude may use (unless expired); a superseded item is kept but never sent.
PROMISE_DAYS = 30

#: A request to remember, said to the assistant: at a sentence's start (after an
#: interjection), or after "please / can you / could you / I want you to"; in Japanese the
#: request forms. "I just need to remember that it's okay…" is the person talking to
#: themselves, not a request (it used to become a garbled "asked to remember" memory);
#: "Remember, it's all about balance" is a saying, "remember to stretch" a reminder: what
#: follows a request is "that/this", a colon, or the person ("remember my…", "…I…").
#: A request to remember said before the statement, at a sentence's start: "For future
#: reference, …", 「今後のために言っておくと、…」「念のため伝えておきますね。」 (the statement
#: is the rest of the sentence, or the next one).
_LEAD_REQUEST = (
    r"(?:^|(?<=[。！!？?]))\s*(?:(?:今後の(?:ため|参考)|念のため|一応|参考まで)に?[、,]?\s*"
    r"(?:言って|伝えて|話して)(?:おく|おき(?:ます|ますね|ますが|ますけど)|おくと|おくね|おくけど|"
    r"おくけれど|おこう|おきたい)(?:と|けど|が|ね)?[、,。！!]*|(?:for (?:future|later) reference|"
    r"just so you know for (?:the )?future|for the future|going forward)\s*[,:;.!-]\s*)")
_LEAD = re.compile(_LEAD_REQUEST, re.IGNORECASE)
#: A statement about how Claude answers (its language, length, tone, format): kept only
#: when a message it cites asks the assistant for it (issue 41: a hostile proposer wrote
#: "Asked Claude to answer only in Portuguese" from a message about a Duolingo streak).
_ABOUT_ANSWERS = re.compile(
    r"\b(?:claude|the assistant|answers?|repl(?:y|ies)|respon(?:d|ds|se|ses)|bullet points?|"
    r"in (?:a )?tables?)\b|(?:返事|返答|回答|答え|返信|応答)(?!が)|口調|タメ口|敬語|"
    r"話して(?:ほしい|欲しい)",
    re.IGNORECASE)
_ASKS_THE_ASSISTANT = re.compile(
    r"ほしい|欲しい|てね|でね|ください|下さい|頼む|お願い|\b(?:please|can you|could you|"
    r"would you|will you|from now on|i'd like you|i want you|i'd prefer|always|never)\b",
    re.IGNORECASE)


def _asked_for_answers(sources: Sequence[str]) -> bool:
    """Whether one of the person's messages asks the assistant how to answer."""
    return any((_ASKS_THE_ASSISTANT.search(text) and _ABOUT_ANSWERS.search(text))
               or instruction_like(text) for text in sources)


_REMEMBER = re.compile(
    _LEAD_REQUEST + "|"
    # Japanese: the request with its endings (「覚えておいてね」「覚えておいてください」
    # 「忘れないでね」「メモしておいて」), so that what is left is the statement alone
    r"(?:(?:こと|の)を)?(?:覚えておいて|覚えといて|覚えてて|覚えておく|忘れないで|記憶しておいて|"
    r"記憶して|メモしておいて|メモしといて|メモって|メモして|記録しておいて|記録して)"
    r"(?:ほしい|欲しい|ください|下さい|くださる|くれ(?:る|ます)?|もらえ(?:る|ます)|おいて|"
    r"いただけ(?:る|ます)|ね|よ|な|ー|〜|～)*(?:か|ね)?[。！!？?♪☆]*|"
    r"(?:^|(?<=[.!?]\s)|(?<=[.!?]\s\s))[\s\"'“(]*"
    r"(?:(?:oh|ok|okay|also|and|so|btw|by the way|one more thing|hey|hi|hello|yeah|claude|"
    r"monet)[,!]?\s+){0,4}"
    r"(?:(?:please|pls|can you|could you|will you|would you|i want you to|"
    r"i'd like you to|i need you to)\s+)?(?:please\s+)?"
    r"(?:remember|keep in mind|don't forget|do not forget|make a note|note)"
    r"(?:\s+(?:that|this)\b:?|\s*:|(?=\s+(?:my|i|i'm|i've|i'll|we|we're|our|me)\b))|"
    # a request at the end: "I'm allergic to peanuts, please remember that."
    r"[,;:\s—–-]+(?:so\s+|and\s+)?(?:please\s+|pls\s+|can you\s+|could you\s+)?"
    r"(?:remember|keep in mind|don't forget|do not forget|make a note of)"
    r"(?:\s+(?:that|this|it))?(?:\s+(?:please|for me|for (?:the )?future|going forward|"
    r"from now on|next time|ok|okay|thanks))*"
    # and when it matters: "…, please remember that if you ever suggest recipes"
    r"(?:[,\s]+(?:if|when|whenever|in case|for when|for whenever|because|since)\b[^.!?]*)?"
    r"\s*[.!?]*\s*$",
    re.IGNORECASE | re.MULTILINE,
)
#: Every phrase ``_REMEMBER`` matches holds one of these (the English ones lowercased): a
#: text with none is not searched sentence by sentence (the pattern tries each position).
_REMEMBER_HINTS = ("覚え", "忘れないで", "記憶して", "メモし", "メモって", "記録して",
                   "言って", "伝えて", "話して")
_REMEMBER_WORDS = ("remember", "forget", "keep in mind", "note", "reference", "future",
                   "going forward")


def _may_ask_to_remember(text: str) -> bool:
    if any(hint in text for hint in _REMEMBER_HINTS):
        return True
    lowered = text.lower()
    return any(word in lowered for word in _REMEMBER_WORDS)


_CORRECTION = re.compile(
    r"(じゃなくて|ではなくて|訂正|間違え|実は|もう.*ない|今は|"
    r"\bactually\b|\bcorrection\b|\bnot anymore\b|\bno longer\b|\bnow\b|\bi meant\b)",
    re.IGNORECASE,
)
_MOOD = re.compile(
    r"(疲れた|眠い|だるい|イライラ|ムカつく|落ち込んで|憂鬱|今日は.*気分|機嫌が|"
    r"\bi'?m (?:so )?(?:tired|sleepy|angry|annoyed|sad|upset|bored|exhausted)\b|"
    r"\bi feel\b|\bfeeling\b|\bin a (?:bad|good) mood\b)",
    re.IGNORECASE,
)
_SENSITIVE = re.compile(
    r"(病気|病院|診断|(?<![釉火農爆弾])薬(?!味)|うつ|持病|妊娠|年収|給料|借金|口座|暗証|"
    r"パスワード|住所|電話番号|"
    r"マイナンバー|宗教|政党|\bdiagnos|\bmedication\b|\bsalary\b|\bdebt\b|\bpassword\b|"
    r"\baddress\b|\bphone number\b|\bbank account\b|\breligio|\bpregnan|\bantidepress|"
    r"\btherap|\bmedicine\b|\bprescri|\bdisorder\b|\billness\b|治療|通院|障害|メンタル)",
    re.IGNORECASE,
)
_PERSONALITY = re.compile(
    r"(性格|内向的|外向的|あなたは.*(タイプ|人間)|you (?:seem|are) (?:a|an|the) .*(?:person|type)|"
    r"\bintrovert|\bextrovert|\bpersonality)",
    re.IGNORECASE,
)
_PREFERENCE = [
    # (what is liked with its object: 「アニメを見るのが好き」 is not 「家で見るのが好き」)
    re.compile(r"(?P<what>(?:(?:もの|[^。、！？\sはがをにでも]){1,12}を)?(?:もの|[^。、！？\sはがをにでも]){1,20})"
               r"が(?:大好き|好き|苦手|嫌い)(?!意識)"),
    re.compile(r"\bmy favou?rite (?P<what>[a-z ]{2,30}?) is\b", re.IGNORECASE),
    # a pastime that took hold: "woodworking has taken over my weekends", "I'm hooked on
    # bouldering these days"
    re.compile(r"(?:^|\b)(?P<what>[a-z][a-z-]{2,20}(?: [a-z-]{2,20})?) has (?:totally |"
               r"completely |really |kind of )?taken over my (?:weekends|evenings|free time|"
               r"spare time|life|summer|mornings)", re.IGNORECASE),
    re.compile(r"\bi(?:'m| am|'ve| have)\s+(?:really |totally |completely |properly )?"
               r"(?:obsessed with|hooked on|gotten into|got into|getting into|really into)\s+"
               r"(?P<what>[a-z][a-z -]{2,30}?)(?=\s+(?:these days|lately|now|at the moment|"
               r"recently|again)\b|[.!,;]|$)", re.IGNORECASE),
    re.compile(r"\bi (?:really )?(?:love|like|prefer|hate|can't stand) "
               # a reaction to the assistant's words ("I like the idea", "I love how you …",
               # "I like the structure of this schedule") is not a lasting preference
               r"(?!how\b|that\b|it\b|what\b|the way\b)"
               r"(?![^.!?]*\b(?:idea|ideas|this|these|those|your|you|suggestions?|list)\b)"
               r"(?P<what>[a-z][a-z ]{1,30})", re.IGNORECASE),
]
#: A sentence about the other speaker, not about oneself: 「…が好きではないんですね」
#: (so you don't like …), 「…ですか」.
_ABOUT_OTHER = re.compile(r"(んですね|のですね|んだね|のね|ですか|ますか|んですか)[。！!？?\s]*$")
_QUESTION = re.compile(r"[?？]\s*$|^(?:what|how|why|when|where|which|who|do|does|did|is|are|can)\b",
                       re.IGNORECASE)
#: A memory is one short statement; a longer text is a message, not a memory.
MAX_FACT_CHARS = 200


_PROMISE = re.compile(r"(約束する|約束します|\bi promise\b)", re.IGNORECASE)
_EXPERIENCE = re.compile(r"(一緒に(?:行った|行きました|見た|見ました)|\bwe went\b|\bwe visited\b)",
                         re.IGNORECASE)


@dataclass(frozen=True)
class Candidate:
    fact: str
    kind: MemoryKind
    key: str
    source_message_ids: tuple[int, ...]
    confidence: float
    sensitive_confirmed: bool = False
    correction: bool = False  # the proposer read it as updating what is remembered
    #: A model proposer's operation: "update item N" (verified by ``admit``: N exists and
    #: is about the same subject's property), and the new value in the person's words.
    updates: int | None = None
    value: str = ""


@dataclass(frozen=True)
class Decision:
    written: bool
    reason: str
    item: MemoryItem | None = None


#: What a Japanese statement ends with when a request followed it in the same sentence
#: (「ベジタリアンだから覚えておいて」「…があることを覚えておいて」): not part of it.
_JA_TAIL = re.compile(r"(?:なので|なんで|だから|ですから|なのを|なのは|なの|から|ので|ってこと|"
                      r"ということ|"
                      r"って|のを|のは|ね|よ)[、,\s]*$")


#: A sentence's lead-in that is not part of the statement ("Also, I'm vegetarian now").
_EN_LEAD_IN = re.compile(r"^(?:(?:also|and|but|so|oh|btw|by the way|anyway|well|oh and|ok|okay|"
                         r"update|quick update|fun fact|fyi)\b[,:!]?\s+)+", re.IGNORECASE)


def _clean(text: str) -> str:
    text = _REMEMBER.sub("", text)
    text = re.sub(r"^[\s、,。:：]+|[\s、,:：]+$", "", " ".join(text.split()))
    lead = _EN_LEAD_IN.match(text)
    if lead and lead.end() < len(text):
        rest = text[lead.end():]
        text = rest[:1].upper() + rest[1:]
    text = text.strip("「」\"' ")
    if re.search(r"[\u3040-\u30ff\u4e00-\u9fff]$", text):
        text = _JA_TAIL.sub("", text).rstrip("、, ")
    return text


#: A request about the work at hand, not about the person's life: "Remember that I will
#: be the author of the article so it needs to be…", 「このメールは上司宛てだって覚えておいて
#: 書いて」. It holds for this task only and is not kept as a lasting memory.
_TASK = re.compile(
    # (the work referred to as the one at hand: "the article", "this email", not "my
    # locker code")
    r"\b(?:the|this|that|your)\s+(?:\w+\s+)?(?:article|essay|e-?mail|letter|post|draft|"
    r"story|script|speech|response|answer|reply|rewrite|summary|document|report|presentation|"
    r"function|paragraph|caption|bio|outline|poem|translation|piece|chapter|"
    r"slides?|tweet|prompt|task|assignment|exercise|conversation|chat)s?\b|"
    r"\b(?:so|when|as|while) (?:you|it|we)(?:'re| are)? (?:write|writes|writing|draft|"
    r"answer|reply|need|needs|should|must|have to)\b|\bin (?:the|your|this) (?:response|"
    r"answer|reply|writing|rest of)\b|\b(?:for|in) (?:this|the next|your next|these) "
    r"(?:\w+ )?(?:answers?|replies|responses|drafts?|versions?)\b|\bword (?:limit|count)\b|"
    r"この(?:文章|メール|記事|投稿|原稿|手紙|コード|資料|スピーチ|返信|翻訳|文|下書き|会話|質問|例)|"
    r"(?:この|今回の|今度の)[\u4e00-\u9fff\u30a0-\u30ffー]{0,6}(?:書|文|稿|案|録|状|資料|メール|"
    r"レポート|スライド|プレゼン|記事|投稿|コード|スクリプト|企画|原稿|課題)(?:は|を|の|って|、|で)|"
    r"(?:書く|書いて|書き|訳す|訳して|答える|回答する|返信する)(?:とき|時|際|ので|から|ように)|"
    r"(?:文章|メール|記事|原稿|返信)(?:を|は|の)",
    re.IGNORECASE)


#: What points at the piece of work rather than the person: "this is going in the
#: newsletter", "I'm the one writing it", "it's for a card", "the audience is…", and a
#: consequence for the writing (", so keep it friendly", ", so first person please").
_TASK_POINTER = re.compile(
    r"\b(?:this|it)(?:'s| is| will be| goes| was)\s+(?:going|for|a|an|the|in|to be)\b|"
    r"\bthe one (?:writing|sending|giving|reading) it\b|\b(?:writing|sending|reading) it\b|"
    r"\bthe (?:audience|readers?|recipients?|tone)\b|"
    r",\s*so\s+(?:keep|make|write|use|avoid|don't(?! forget)|do not(?! forget)|no|"
    r"first person|third person|be|stay|sound|mention|skip)\b", re.IGNORECASE)
#: Japanese: the request with the work it is for after it in the same sentence
#: (「…だってことを覚えておいて、丁寧めに書いてね」), or a manner for the writing before it
#: (「ちゃんと敬語でってことを覚えておいて」「短めにってこと」「先生に出すやつだから」).
_JA_TASK_AFTER = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff].*(?:て|で|ね|ください|下さい|お願い|"
                            r"ほしい|欲しい)[ねよ]?[。！!]*$")


def task_at_hand(sentence: str) -> bool:
    """Is a request to remember about the task at hand rather than the person's life?"""
    if _TASK.search(sentence) or _TASK_POINTER.search(sentence):
        return True
    if not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", sentence):
        return False
    for match in _REMEMBER.finditer(sentence):
        before = re.sub(r"(?:って|という|ってこと|ということ)(?:を)?$", "",
                        sentence[:match.start()].rstrip("、, "))
        after = sentence[match.end():].lstrip("、, ")
        if _JA_TASK_AFTER.search(after) or re.search(
                r"(?<![のな])(?:で|に)$|(?:もの|やつ|用)(?:だ|です)?(?:から)?$|"
                r"(?:もの|やつ|用)(?:だ|です)?から、[^、]*$", before):
            return True
    return False


def _hiragana(text: str) -> str:
    """Katakana as hiragana (サバ and さば are one fish)."""
    return "".join(chr(ord(c) - 0x60) if "ァ" <= c <= "ヶ" else c for c in text)


#: What comes before the thing liked in a Japanese preference and is not part of it: a
#: topic or a condition (魚なら, 食べ物では) and adverbs (やっぱり, 実は, 本当に…).
_JA_LEAD = re.compile(r"^(?:.*?(?:なら|では|だと|って|の中で|で言うと))?"
                      r"(?:やっぱり|やっぱ|やはり|実は|本当は|本当に|ほんとに|特に|一番|すごく|"
                      r"とても|結構|わりと|意外と|昔から|今は|まだ|もう|かなり)*")


def _key(fact: str) -> str:
    """What a fact is about: a subject's property (``facts``: "fact:son:age"), a like
    ("likes:sushi"), or failing both its first content words."""
    stated = facts.statements(fact)
    if stated:
        return stated[0].key
    for pattern in _PREFERENCE:
        match = pattern.search(fact)
        if match:
            what = match.group("what").strip().lower()
            return "likes:" + _hiragana(_JA_LEAD.sub("", what) or what)
    words = re.findall(r"[A-Za-z]{3,}|[\u30a0-\u30ff\u4e00-\u9fff]{2,}", fact)
    return "about:" + " ".join(_hiragana(w.lower()) for w in words[:3])


_NEGATIVE = re.compile(
    r"(嫌い|苦手|好きじゃない|好きではない|\bhate\b|can't stand|don't like|\bdislike)",
    re.IGNORECASE,
)


def _polarity(fact: str) -> bool:
    return not _NEGATIVE.search(fact)


#: Where a sentence may end: a sentence cuts after 。！？!?, after a line break, after . or ;
#: before a space, and after a closing quote that follows . ! or ? before a space. (One
#: scan for these marks, not ``re.split`` on lookbehinds, which tries every position.)
_SENTENCE_MARKS = re.compile(r"[。！？!?.;\n]|\s[-–—]\s")
_QUOTES = "\"”'"
#: The offline proposer keeps only short sentences: a long one is talk, not a fact.
OFFLINE_MAX_CHARS = 140


def _sentences(text: str) -> list[str]:
    cuts = [0]
    end = len(text)
    for mark in _SENTENCE_MARKS.finditer(text):
        at = mark.end()
        char = text[at - 1]
        spaced = at < end and text[at].isspace()
        if mark.group(0)[0].isspace():  # "Doing Mediterranean now - can you…"
            cuts.append(mark.start())
            cuts.append(at)
        elif char not in ".;" or spaced:
            cuts.append(at)
        if char in ".!?" and at + 1 < end and text[at] in _QUOTES and text[at + 1].isspace():
            cuts.append(at + 1)
    cuts.append(end)
    pieces = (text[a:b].strip() for a, b in pairwise(cuts))
    return [piece for piece in pieces if piece]


#: Said of someone else, or as hearsay: 「甘いのが好きみたい」 (about the child), 「…らしい」.
_HEARSAY = re.compile(r"(?:好き|嫌い|苦手|大好き)(?:な)?(?:みたい|らしい|そう|って)")
#: A reaction to what the reply offered, by its form: "I like the sound of …", "I like
#: the first caption", "I love that/this/the idea", "That's a good point, … I like best",
#: "which ones I like".
_REACTION = re.compile(
    r"\bi (?:really )?(?:like|love|prefer)\s+(?:the (?:sound|look|idea|way|feel) of|"
    r"the (?:first|second|third|last|latter|former|next|other)\b|(?:that|this|those|these)\b|"
    r"(?:it|them|best|better|more|most)\b|"
    # an offered thing's qualities: "the clean lines", "the warm tone of bronze"
    r"the (?:\w+ ){0,2}(?:lines|tone|vibe|colou?r|design|look|style|feel|shape|texture|"
    r"finish|size|sound)\b)|"
    r"^(?:that'?s (?:a )?(?:good|great|fair|nice|helpful|interesting)|that sounds|sounds|"
    r"thanks|thank you|great|good idea|ok|okay|sure)\b|"
    r"\b(?:which|what|whichever) (?:ones? )?i (?:like|love|prefer)\b",
    re.IGNORECASE)
#: The share of a preference's object that, named in the reply just before, makes it a
#: reaction to that reply rather than a lasting preference.
REACTION_SHARE = 0.5


#: A word that points back to something said before, before the verb or in what is liked:
#: not a memory on its own ("I love her", "I love watching them", "During that time, I
#: like…", "I heard it's tasty and I love…"); "I hate mackerel, it's too fishy" and "I
#: love jazz and I listen to it every day" are.
_POINTS_BACK = re.compile(r"\b(?:it|its|it's|them|they|they're|their|her|him|his|that|this|"
                          r"those|these|both|one|ones|there)\b", re.IGNORECASE)


def _reacts_to(sentence: str, what: str, reply: str) -> bool:
    """Does ``sentence`` react to ``reply``: it likes *the* thing the reply just offered
    ("I love the Spicy Roasted Chickpeas recipe")? A preference that answers a question
    about it ("Do you like mackerel?" "I hate mackerel") or says it in general ("I love a
    good mystery") is kept: only a definite object named in the reply counts."""
    if _REACTION.search(sentence):
        return True
    if not reply or not re.match(r"(?:the|your)\s", what.strip(), re.IGNORECASE):
        return False
    liked = {t[:5] for t in summary_terms(what)}
    offered = {t[:5] for t in summary_terms(reply)}
    return bool(liked) and len(liked & offered) >= REACTION_SHARE * len(liked)


#: The key of a statement that only says what the person gave up or replaced ("quit
#: piano"): it is written only when it ends something remembered (``admit``).
DROPPED_KEY = "fact:self:dropped"

#: The most candidates one message gives the offline proposer.
MAX_PER_MESSAGE = 4


def propose(message: Talk, reply: str = "") -> list[Candidate]:
    """The offline proposer (no model): strict on purpose. Sentences, not the message:
    the one the person asked to be remembered (or the one before "覚えておいて"), what a
    sentence states about a subject's property (``facts``: where they live, their job,
    diet, an age, a name, a count), a stated preference, an explicit promise, something
    done together. ``reply``: Claude's message just before, so a preference for what it
    offered ("I like the sound of …") is read as a reaction, not kept. A request about the
    task at hand ("remember that I'm the author, so write…") is not a lasting memory.
    Anything here still has to pass ``admit``."""
    if message.id is None or not message.text.strip():
        return []
    ids = (message.id,)
    sentences = _sentences(message.text)
    asks = _may_ask_to_remember(message.text)
    found: list[tuple[int, Candidate]] = []  # (the sentence it came from, candidate)
    consumed: set[int] = set()  # sentences a request before them has kept already
    other = False  # a preference, promise or experience was found (one a message)
    for index, sentence in enumerate(sentences):
        if index in consumed:
            continue
        if asks and (request := _REMEMBER.search(sentence)):
            # "Could you remember that I'm vegetarian?": the request's question mark is
            # not the statement's
            fact = _statement_part(_clean(sentence).rstrip("?？ "))
            if not re.search(r"\w", fact):
                fact = ""  # "Remember that." alone
            about, pointed = sentence, -1
            if not fact and _LEAD.match(sentence) and index + 1 < len(sentences):
                pointed = index + 1  # 「今後のために言っておきますね。蓮は卵アレルギーで…」
            elif index > 0 and (not fact or _only_a_reason(sentence, request, fact,
                                                           sentences[index - 1])):
                pointed = index - 1  # "…です。覚えておいて", 「…悩むので、忘れないで」
            if pointed >= 0:
                fact = _statement_part(_clean(sentences[pointed]))
                about = " ".join(sentences[min(index, pointed):max(index, pointed) + 1])
                if pointed > index:
                    consumed.add(pointed)
            if not fact or task_at_hand(about):
                continue
            # the statement it points to is kept once, as the request
            found = [(at, c) for at, c in found if c.fact != fact and at != pointed]
            found.append((index, Candidate(fact, MemoryKind.ASKED_TO_REMEMBER, _key(fact),
                                           ids, 1.0, True, correction=_is_change(fact))))
            continue
        if len(sentence) > OFFLINE_MAX_CHARS or _QUESTION.search(sentence) \
                or _ABOUT_OTHER.search(sentence):
            continue
        fact = _clean(sentence)
        stated = facts.statements(sentence)
        if stated:
            # the clause that states it, not the request that came with it ("I'm a junior
            # designer at Fenwick Studio", not "… and my art director wants …")
            found.append((index, Candidate(_clean(stated[0].clause) or fact, MemoryKind.FACT,
                                           stated[0].key, ids, 0.8,
                                           correction=stated[0].change)))
            continue
        if facts.dropped(sentence):
            # "Quit piano", 「英会話はやめて」: kept only when it ends something remembered
            found.append((index, Candidate(fact, MemoryKind.FACT, DROPPED_KEY, ids, 0.7,
                                           correction=True)))
            continue
        if other:
            continue
        liked = next((m for p in _PREFERENCE if (m := p.search(sentence))), None)
        if liked is not None:
            what = liked.group("what")
            # what comes before the verb, and what is liked (up to an "and" or "but")
            leaning = sentence[:liked.start()] + " " + re.split(r"\s(?:and|but)\s", what)[0]
            if (_HEARSAY.search(sentence) or _POINTS_BACK.search(leaning)
                    or _reacts_to(sentence, what, reply)):
                continue
            found.append((index, Candidate(fact, MemoryKind.PREFERENCE, _key(sentence), ids,
                                           0.8)))
            other = True
        elif _PROMISE.search(sentence):
            found.append((index, Candidate(fact, MemoryKind.PROMISE, _key(sentence), ids,
                                           0.7)))
            other = True
        elif _EXPERIENCE.search(sentence):
            found.append((index, Candidate(fact, MemoryKind.SHARED_EXPERIENCE,
                                           _key(sentence), ids, 0.6)))
            other = True
    return [c for _, c in _joined(found)][:MAX_PER_MESSAGE]


def _joined(found: list[tuple[int, Candidate]]) -> list[tuple[int, Candidate]]:
    """A sentence that gives something up followed by the one saying what replaced it
    ("I've quit keto. Doing Mediterranean now") as one memory: alone, the first would be
    remembered beside the newer value as if the older one were still the news."""
    joined: list[tuple[int, Candidate]] = []
    for at, candidate in found:
        if joined:
            before_at, before = joined[-1]
            fact = f"{before.fact.rstrip()} {candidate.fact}"
            if before.key == DROPPED_KEY and candidate.kind == MemoryKind.FACT \
                    and at == before_at + 1 and len(fact) <= MAX_FACT_CHARS:
                joined[-1] = (at, replace(candidate, fact=fact, correction=True))
                continue
        joined.append((at, candidate))
    return joined


#: Where a statement gives way to what it asks of the assistant: 「蓮は卵アレルギーがあるので、
#: レシピは卵なしでお願いします」, "I'm allergic to shellfish, so please leave it out".
_JA_BECAUSE = re.compile(r"^(?P<s>.{2,}?)(?:なので|ので|から|ため)[、,]")
_EN_SO = re.compile(r"^(?P<s>.{6,}?),?\s+so\s+(?=\w)", re.IGNORECASE)
#: What comes before a request to remember when it is only the reason for asking: 「毎年
#: 何を贈るか悩むので、忘れないで」, "I always struggle with gifts, so don't forget".
_REASON_BEFORE = re.compile(r"(?:なので|ので|から|ため|し)[、,]?\s*$|\bbecause\b", re.IGNORECASE)


def _statement_part(fact: str) -> str:
    """A statement without the request for the assistant that follows it in the same
    sentence (which would read as an instruction): the part before "so" or 「ので、」."""
    for pattern in (_JA_BECAUSE, _EN_SO):
        part = pattern.match(fact)
        if part is None:
            continue
        tail = fact[part.end():]
        asks = instruction_like(fact) or instruction_like(tail) \
            or re.match(r"(?:please|pls)\b", tail, re.IGNORECASE)
        if asks and not instruction_like(part.group("s")):
            return _clean(part.group("s"))
    return fact


def _only_a_reason(sentence: str, request: re.Match[str], fact: str, previous: str) -> bool:
    """Is what a request's sentence says besides the request only why it is asked, and the
    sentence before the statement it points to? (「母の誕生日は12月5日です。毎年何を贈るか
    悩むので、忘れないでください」: the birthday is to be remembered, not the worry.)"""
    before = sentence[:request.start()]
    reason = _REASON_BEFORE.search(before) or re.match(r"[,;]?\s*so\b", request.group(0))
    if not reason or facts.statements(fact) or _figures(fact):
        return False
    return bool(facts.statements(previous) or _figures(previous))


def _figures(text: str) -> bool:
    """Does ``text`` hold a number or a name (a capitalised word past the first)?"""
    return bool(re.search(r"[0-9０-９]|[一二三四五六七八九十]+[月日歳年]|(?<=\s)[A-Z][a-z]", text))


def _is_change(fact: str) -> bool:
    stated = facts.statements(fact)
    return bool(stated) and stated[0].change


def admit(session: Session, candidate: Candidate, now: datetime,
          incognito_days: Sequence[str] = (), incognito_tabs: Sequence[str] = ()) -> Decision:
    """The rules that decide whether a candidate is written."""
    if candidate.kind not in KINDS or not candidate.fact.strip():
        return Decision(False, "not a memory")
    if len(candidate.fact) > MAX_FACT_CHARS:
        return Decision(False, "too long for a statement about the person")
    if instruction_like(candidate.fact):
        return Decision(False, "an instruction or a request, not a statement about the person")
    if _QUESTION.search(candidate.fact):
        return Decision(False, "a question, not a statement about the person")
    # ask the database, not the session's cache: a source deleted meanwhile must count
    sources = [
        session.get(Message, i, populate_existing=True) for i in candidate.source_message_ids
    ]
    if not sources or any(m is None for m in sources):
        return Decision(False, "its source message does not exist")
    if any(m.hidden for m in sources if m is not None):
        return Decision(False, "the person asked to forget its source")
    if any(m.role != MessageRole.USER for m in sources if m is not None):
        return Decision(False, "its source is not the person's own words")
    if any(m.day in incognito_days or m.tab in incognito_tabs for m in sources if m is not None):
        return Decision(False, "it was said in an incognito day or tab")
    said = [m.text for m in sources if m is not None]
    if candidate.value and not facts.says_value(said, candidate.value):
        return Decision(False, "its new value is not in the person's own words")
    shown = shown_memory_items(session)
    candidate, updated, unsure = _verified_update(candidate, shown)
    # a verified update may name what the note it updates says ("Leo turned seven": "The
    # person's son Leo is 7"): that note was grounded in the person's words too
    grounds = [*said, updated.fact] if updated is not None else said
    if not grounded(candidate.fact, grounds):
        return Decision(False, "it says nothing its source messages say")
    if _ABOUT_ANSWERS.search(candidate.fact) and not _asked_for_answers(said):
        return Decision(False, "how Claude answers is kept only when the person asks for it")
    # "asked to remember" lifts the mood and sensitivity rules: only when the person's own
    # words ask for it, whoever proposed the candidate
    asked = candidate.kind == MemoryKind.ASKED_TO_REMEMBER and any(
        _REMEMBER.search(m.text) for m in sources if m is not None
    )
    kind = candidate.kind if asked or candidate.kind != MemoryKind.ASKED_TO_REMEMBER \
        else MemoryKind.FACT
    if candidate.kind == MemoryKind.PERSONA:
        # who the person is comes from them (promotion, "remember this"), not a guess
        return Decision(False, "a persona fact is kept only when the person states it as such")
    if not asked:
        if _MOOD.search(candidate.fact):
            return Decision(False, "a passing mood is not kept")
        if _PERSONALITY.search(candidate.fact):
            return Decision(False, "a guess about personality is not kept")
        if _SENSITIVE.search(candidate.fact) and not (candidate.sensitive_confirmed and asked):
            return Decision(False, "a sensitive detail is kept only when the person asks")
    key = _same_subject(candidate.key, shown)
    # what else is remembered about the same subject's property: under the same key, or
    # stating it among other things ("I've got 12 houseplants in our flat in Leith" is
    # about the home as well as the houseplants)
    keys = {key} if facts.parts_of(key) is None or key == DROPPED_KEY else \
        {key, *(st.key for st in facts.statements(candidate.fact))}
    active = [item for item in shown if item.key == key or (
        facts.parts_of(key) is not None and key != DROPPED_KEY
        and _same_property(keys, _keys_of(item)))]
    if any(item.fact == candidate.fact for item in active):
        return Decision(False, "already remembered")
    # a diet ends the likes of what it leaves out ("I'm vegetarian now" / "I love steak")
    diet = facts.parts_of(key)
    ended = [item for item in shown if item not in active and item.kind == MemoryKind.PREFERENCE
             and _polarity(item.fact) and diet is not None and diet[1].startswith("diet")
             and facts.clashes(_diet_value(candidate.fact), item.fact)]
    # a change that names what it replaced ends what still holds it ("traded in the Civic",
    # 「英会話はやめて」): the person said the older value is over
    gone = facts.dropped(candidate.fact) if candidate.correction or _is_change(candidate.fact) \
        or key == DROPPED_KEY else []
    ended += [item for item in shown if item not in active and item not in ended
              and any(_names(item.fact, value) for value in gone)
              and not any(_names(candidate.fact, value) and _names(item.fact, value)
                          and item.fact in candidate.fact for value in gone)]
    if key == DROPPED_KEY and not ended:
        return Decision(False, "it ends nothing remembered")
    expires = None
    if kind == MemoryKind.PROMISE:
        expires = (now.astimezone(UTC) + timedelta(days=PROMISE_DAYS)).isoformat()
    item = MemoryItem(
        fact=candidate.fact, kind=kind, key=key,
        source_message_ids=json.dumps(list(candidate.source_message_ids)),
        confidence=candidate.confidence, created_ts=now.isoformat(), expires_ts=expires,
    )
    reason = "written"
    if unsure is not None and unsure not in active:
        # "update item N", N about something MONET cannot tell apart: the person settles it
        active.append(unsure)
    if active:
        correcting = candidate.correction or any(
            _CORRECTION.search(m.text) for m in sources if m is not None
        )
        # a model's topic ("family") may hold several facts: only a correction replaces one
        broad = key.startswith("topic:") and not candidate.correction
        stated = facts.parts_of(key) is not None
        for old in active:
            if old is unsure:
                old.status = MemoryStatus.CONTESTED
                item.status = MemoryStatus.CONTESTED
                reason = "written as contested: MONET cannot tell whether it updates it"
            elif broad:
                continue
            elif stated and not (_went_back(key, old.fact, candidate.fact) and not correcting):
                # a newer value of the same subject's property: it replaces the older,
                # which stays as its history (an age that went down is a contradiction)
                old.status = MemoryStatus.SUPERSEDED
                reason = "written; it supersedes what was remembered before"
            elif not stated and (correcting or asked
                                 or _polarity(old.fact) == _polarity(candidate.fact)):
                # a correction, an explicit request, or the same thing said again
                old.status = MemoryStatus.SUPERSEDED
                reason = "written; it supersedes what was remembered before"
            else:
                old.status = MemoryStatus.CONTESTED
                item.status = MemoryStatus.CONTESTED
                reason = "written as contested: it contradicts what was remembered"
            session.add(old)
    for old in ended:
        old.status = MemoryStatus.SUPERSEDED
        session.add(old)
        reason = "written; it supersedes what was remembered before"
    session.add(item)
    session.flush()
    replaced = [old for old in [*active, *ended] if old.status == MemoryStatus.SUPERSEDED]
    if replaced and item.status == MemoryStatus.ACTIVE:
        item.supersedes_id = replaced[0].id if not active else active[-1].id
        session.add(item)
    # New memories reach the prompt at the next rebuild point; only the person's own
    # edits and deletions force one (memory_changed).
    return Decision(True, reason, item)


def _verified_update(candidate: Candidate, shown: Sequence[MemoryItem]
                     ) -> tuple[Candidate, MemoryItem | None, MemoryItem | None]:
    """A model's "update item N", checked: N is remembered now and about the same
    subject's property as the new statement (by its key or by what its words state); then
    the candidate takes N's key and replaces it (N is returned second). An item that states
    nothing MONET can place (no subject and property) is returned third, ``unsure``: both
    are kept as contested and the person settles it in the memory panel. Any other
    "update" (N unknown, or about something else) is an addition, beside what is
    remembered."""
    if candidate.updates is None:
        return candidate, None, None
    target = next((i for i in shown if i.id == candidate.updates), None)
    plain = replace(candidate, updates=None)
    if target is None:
        return plain, None, None
    ours = {candidate.key, *(st.key for st in facts.statements(candidate.fact))}
    theirs = _keys_of(target)
    if _same_property(ours, theirs) or target.key == candidate.key:
        return replace(plain, key=target.key, correction=True), target, None
    placed = any(map(facts.placed, theirs))  # what N is about is known, and it is not this
    return (plain, None, None) if placed else (plain, None, target)


def _keys_of(item: MemoryItem) -> set[str]:
    """The subject-property keys a remembered item is about: its key and what its words
    state (``facts.statements``)."""
    return {item.key, *(st.key for st in facts.statements(item.fact))}


def _same_property(ours: set[str], theirs: set[str]) -> bool:
    return facts.same_property(ours, theirs)


def _names(fact: str, value: str) -> bool:
    """Does ``fact`` name ``value`` (a whole word in Latin script, anywhere in CJK)?"""
    if re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", value):
        return value in fact
    return re.search(rf"(?<![\w]){re.escape(value)}(?![\w])", fact, re.IGNORECASE) is not None


def _same_subject(key: str, shown: Sequence[MemoryItem]) -> str:
    """``key``, or the key of what is remembered about the same subject under another
    name: "Leo turned 7" is about the son of "My son Leo is 6" (fact:leo:age is
    fact:son:age when a remembered fact about the son names Leo)."""
    parts = facts.parts_of(key)
    if parts is None or parts[0] == "self":
        return key
    subject, prop = parts
    for item in reversed(shown):
        theirs = facts.parts_of(item.key)
        if theirs is not None and theirs[1] == prop and theirs[0] != subject \
                and _names(item.fact, subject):
            return item.key
    return key


def _went_back(key: str, older: str, newer: str) -> bool:
    """An age that went down: not a newer value but a contradiction."""
    parts = facts.parts_of(key)
    if parts is None or parts[1] != "age":
        return False
    before = [s.value for s in facts.statements(older) if s.prop == "age"]
    after = [s.value for s in facts.statements(newer) if s.prop == "age"]
    try:
        return bool(before and after) and int(after[0]) < int(before[0])
    except ValueError:
        return False


def _diet_value(fact: str) -> str:
    return next((s.value for s in facts.statements(fact) if s.prop.startswith("diet")), fact)


def active_items(session: Session, now: datetime) -> list[MemoryItem]:
    """What Claude may use now: active or contested, and not expired. (ORM objects: with
    a hundred items they load faster than rows turned into SQLModel objects, measured.)"""
    now_utc = now.astimezone(UTC).isoformat()
    items = shown_memory_items(session)
    return [i for i in items if i.expires_ts is None or i.expires_ts > now_utc]


def edit(session: Session, item_id: int, fact: str) -> MemoryItem:
    """The person corrects an item: it says ``fact`` and is settled (what it contradicted
    is its history now: ``settle``)."""
    item = session.get(MemoryItem, item_id)
    if item is None:
        raise MemoryItemError("No memory item {item_id}.", item_id=item_id)
    fact = " ".join(fact.split())
    if not fact:
        raise MemoryItemError("The new text is empty; to remove the item, delete it.")
    partners = _contradicted(session, item)
    item.fact = fact
    _settled(session, item, partners)
    return item


def settle(session: Session, item_id: int) -> MemoryItem:
    """The person says which of two contradicting items is true ("Keep this one"): it
    becomes active and what it contradicted becomes its history. Claude is told only
    what is settled (``TOLD_STATUSES``)."""
    item = session.get(MemoryItem, item_id)
    if item is None:
        raise MemoryItemError("No memory item {item_id}.", item_id=item_id)
    _settled(session, item, _contradicted(session, item))
    return item


def _contradicted(session: Session, item: MemoryItem) -> list[MemoryItem]:
    """The contested items ``item`` contradicts: contested like it, about the same thing
    (its key, or the same subject's property)."""
    if item.status != MemoryStatus.CONTESTED:
        return []
    keys = _keys_of(item)
    return [other for other in shown_memory_items(session)
            if other.id != item.id and other.status == MemoryStatus.CONTESTED
            and (other.key == item.key or (facts.parts_of(item.key) is not None
                                           and _same_property(keys, _keys_of(other))))]


def _settled(session: Session, item: MemoryItem, partners: Sequence[MemoryItem]) -> None:
    for other in partners:
        other.status = MemoryStatus.SUPERSEDED
        session.add(other)
    if partners:
        item.supersedes_id = partners[-1].id
    item.status = MemoryStatus.ACTIVE
    session.add(item)
    bump_memory(session)


def add_by_person(session: Session, fact: str, now: datetime) -> MemoryItem:
    """A fact the person writes in the memory panel, in their own words: kept as it is
    (no source message: they said it to MONET directly). Like a newer statement, it
    supersedes what is remembered about the same subject's property, which stays as its
    history; Claude reads it, as a record, from the next request."""
    fact = " ".join(fact.split())
    if not fact:
        raise MemoryItemError("The text is empty: write what MONET should remember.")
    if len(fact) > MAX_FACT_CHARS:
        raise MemoryItemError(
            "A memory is one short statement (at most {limit} characters); this one has {length}.",
            limit=MAX_FACT_CHARS, length=len(fact))
    key = _key(fact)
    shown = shown_memory_items(session)
    if any(item.fact == fact for item in shown):
        raise MemoryItemError("This is already remembered.")
    keys = {key, *(st.key for st in facts.statements(fact))}
    older = [item for item in shown
             if facts.parts_of(key) is not None and _same_property(keys, _keys_of(item))]
    gone = facts.dropped(fact)
    older += [item for item in shown if item not in older
              and any(_names(item.fact, value) for value in gone)]
    for old in older:
        old.status = MemoryStatus.SUPERSEDED
        session.add(old)
    item = MemoryItem(fact=fact, kind=MemoryKind.FACT, key=key, source_message_ids="[]",
                      confidence=1.0, created_ts=now.isoformat(),
                      supersedes_id=older[-1].id if older else None)
    session.add(item)
    session.flush()
    bump_memory(session)
    return item


def history_of(session: Session, item: MemoryItem, limit: int = 5) -> list[MemoryItem]:
    """What ``item`` replaced, newest first: the chain of older values of a fact."""
    chain: list[MemoryItem] = []
    seen = {item.id}
    current = item
    while current.supersedes_id is not None and len(chain) < limit:
        older = session.get(MemoryItem, current.supersedes_id)
        if older is None or older.id in seen:
            break
        chain.append(older)
        seen.add(older.id)
        current = older
    return chain


def delete(session: Session, item_id: int) -> None:
    """The item goes; when it was one of two contradicting items, the other is settled
    (the person forgot the wrong one)."""
    item = session.get(MemoryItem, item_id)
    if item is None:
        raise MemoryItemError("No memory item {item_id}.", item_id=item_id)
    partners = _contradicted(session, item)
    session.delete(item)
    if len(partners) == 1:
        partners[0].status = MemoryStatus.ACTIVE
        session.add(partners[0])
    bump_memory(session)
