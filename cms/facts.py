"""Facts that can change: what a sentence states, about whom, and which property.

Seed 003 keeps a memory as {fact, source, confidence, created_at, expires_at} and asks that
"when the person later corrects a fact, it is overwritten by the new one or the
contradiction is shown; never one picked at random". To know that "I moved to Sendai"
replaces "I live in Nagoya", both must say what they are about: a *subject* (the person,
or someone or something in their life: "son", "dog", "project", a name) and a *property*
(where they live, their job, their diet, an age, a name, a count of something, a like).
``statements`` reads that from one sentence of the person's, by its grammar, in English
and Japanese, without a model; the memory rules (``rules.admit``) let a newer statement
about the same subject and property supersede the older one, which is kept as its
history ("lives in Sendai, since 2026-06-02; before: Nagoya").

A memory's key is ``fact:SUBJECT:PROPERTY`` (``key_of``). A statement also says whether
it was said *as a change* ("moved", "now", 「引っ越した」「今は」「になった」): a change
is never a contradiction, only a newer value.

Diets are read as what they exclude (``excluded``): "I'm vegetarian now" or 「肉を食べるのを
やめた」 ends a stated love of a meat dish, "I've stopped eating fish" one of sashimi.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from functools import lru_cache

#: The people and things in a person's life a statement may be about (English; the key
#: uses the word itself, singular).
_RELATIONS_EN = (
    "son|daughter|kid|child|baby|wife|husband|partner|boyfriend|girlfriend|fiancée?|"
    "mom|mum|mother|dad|father|brother|sister|grandma|grandpa|grandmother|grandfather|"
    "friend|best friend|roommate|boss|manager|colleague|neighbou?r|"
    "dog|cat|puppy|kitten|pet|rabbit|bunny|hamster|parrot|bird|fish|turtle|horse|"
    "project|app|startup|company|business|band|team|podcast|blog|channel|book|novel|"
    "shop|store|club|garden|car|bike|house|apartment|flat"
)
_RELATIONS_JA = (
    "息子|娘|長男|長女|次男|次女|子ども|子供|妻|夫|嫁|旦那|彼氏|彼女|婚約者|母|父|兄|弟|姉|妹|"
    "祖母|祖父|友達|友人|上司|同僚|ルームメイト|犬|猫|ペット|うさぎ|ハムスター|インコ|"
    "プロジェクト|アプリ|会社|バンド|チーム|ブログ|チャンネル|サークル|店|車"
)
_JA_NORMAL = {"子供": "子ども", "嫁": "妻", "旦那": "夫", "友人": "友達"}

#: Said as a change: a newer value, never a contradiction of the older one.
_CHANGE = re.compile(
    r"\b(?:now|moved|moving|relocated|became|become|turned|renamed|switched|changed|"
    r"new|started|starting|joined|quit|left|stopped|gave up|no longer|anymore|any more|"
    r"promoted|recently|just|these days|since|got (?:a|my)|after all|actually)\b|"
    r"引っ越|転職|転勤|就職|入社|退職|辞め|やめ|なった|なりました|なって|今は|いまは|"
    r"最近|変えた|変えました|変更|改名|新しい|始めた|始めました|実は|もう|"
    r"今(?:で|では|[0-9０-９一二三四五六七八九十])",
    re.IGNORECASE)

_NAME_EN = (r"(?P<v>(?:[A-Z][\w'’.&-]*)(?:\s+(?:[A-Z][\w'’.&-]*|(?:de|del|la|upon|on|am|&)"
            r"(?=\s+[A-Z])))*)")
_NAME_EN_LOWER = r"(?P<v>[a-z][\w'’-]*(?:\s+[a-z][\w'’-]*){0,2})"
_CJK_RUN = r"[\u4e00-\u9fff\u30a0-\u30ffー々A-Za-z0-9・]"
_NAME_JA = rf"(?P<v>{_CJK_RUN}{{1,20}})"
_WORD_NUMBERS = {
    "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12",
    "thirteen": "13", "fourteen": "14", "fifteen": "15", "twenty": "20",
}
_COUNT_EN = r"(?P<n>\d+|" + "|".join(_WORD_NUMBERS) + r")"
_KANJI_NUMBERS = {"一": "1", "二": "2", "三": "3", "四": "4", "五": "5", "六": "6",
                  "七": "7", "八": "8", "九": "9", "十": "10"}
_COUNT_JA = r"(?P<n>\d+|[一二三四五六七八九十])"

#: Words a lowercase value of a place or an employer does not start with: they end it.
_NOT_VALUE = re.compile(r"^(?:the|a|an|my|our|this|that|it|there|here|and|but|so|for|"
                        r"with|because|since|last|next|recently|now|again)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Statement:
    """What one sentence states: ``subject``'s ``prop`` is ``value``. ``change``: said as a
    change of it (a newer value, not a contradiction)."""

    subject: str
    prop: str
    value: str
    change: bool
    #: the person's words that state it: the sentence cut to the clause holding it
    clause: str = ""

    @property
    def key(self) -> str:
        return key_of(self.subject, self.prop)


def key_of(subject: str, prop: str) -> str:
    return f"fact:{subject}:{prop}"


def same_property(ours: set[str], theirs: set[str]) -> bool:
    """Do two sets of ``fact:`` keys share a subject's property? Counts of the same thing
    match under a shorter name ("count:plant" and "count:houseplant"); a relation is the
    same subject in either language (fact:娘:age and fact:daughter:age)."""
    ours, theirs = {_canonical(k) for k in ours}, {_canonical(k) for k in theirs}
    if ours & theirs:
        return True
    for a in ours:
        pa = parts_of(a)
        if pa is None or not pa[1].startswith("count:"):
            continue
        for b in theirs:
            pb = parts_of(b)
            if pb is not None and pb[0] == pa[0] and pb[1].startswith("count:"):
                x, y = pa[1][6:], pb[1][6:]
                if x.endswith(y) or y.endswith(x):
                    return True
    return False


def keys_in(text: str) -> set[str]:
    """The subject-property keys the sentences of ``text`` state, a named relation under
    both names ("my son Theo is 4": fact:son:age and fact:theo:age)."""
    found: set[str] = set()
    for sentence in re.split(r"(?<=[.!?。！？])\s*", text):
        for st in statements(sentence):
            found.add(st.key)
            for name in re.findall(rf"\b{re.escape(st.subject)}\s+([A-Z][a-z]{{2,}})\b|"
                                   rf"{re.escape(st.subject)}の([\u30a0-\u30ff\u4e00-\u9fff]{{2,6}}?)"
                                   r"(?:は|が|ちゃん|くん|君|さん|、)", sentence, re.IGNORECASE):
                named = (name[0] or name[1]).lower()
                if named:
                    found.add(key_of(named, st.prop))
    return found


#: A model's names for the person and for the properties MONET keys facts by, as the
#: offline rules name them (a model's "update" is checked against the rules' keys).
_SELF_WORDS = frozenset({"self", "the person", "person", "me", "user", "the user", "i",
                         "本人", "この人", "自分", "私", "わたし"})
_PROPERTY_WORDS = {
    "home": ("home", "city", "residence", "lives in", "where they live", "location",
             "hometown", "住まい", "住所", "居住地", "住んでいる場所"),
    "job": ("job", "employer", "work", "workplace", "company", "occupation", "勤務先",
            "仕事", "職場", "職業"),
    "role": ("role", "title", "position", "job title", "rank", "役職", "肩書き"),
    "diet": ("diet", "eating", "food restriction", "食事", "食生活"),
    "age": ("age", "years old", "年齢", "歳"),
    "name": ("name", "called", "名前", "名称"),
}
_RELATION_PAIRS = {"息子": "son", "娘": "daughter", "長男": "son", "長女": "daughter",
                   "次男": "son", "次女": "daughter", "子ども": "child", "妻": "wife",
                   "夫": "husband", "母": "mom", "父": "dad", "兄": "brother", "弟": "brother",
                   "姉": "sister", "妹": "sister", "犬": "dog", "猫": "cat", "彼氏": "boyfriend",
                   "彼女": "girlfriend", "友達": "friend", "上司": "boss", "同僚": "colleague",
                   "会社": "company", "プロジェクト": "project", "車": "car", "アプリ": "app",
                   "kid": "child", "mother": "mom", "father": "dad", "mum": "mom"}


#: The properties the rules read from words (``statements``): a key with one of them is
#: about something MONET can tell apart from other things.
PROPERTIES = frozenset({"home", "job", "place", "role", "diet", "age", "name"})


def placed(key: str) -> bool:
    """Is ``key`` a subject's property MONET knows (home, job, age, a count...), rather
    than a model's free words for it ("desk things")?"""
    parts = parts_of(key)
    return parts is not None and (parts[1] in PROPERTIES
                                  or parts[1].startswith(("count:", "diet:")))


def _canonical(key: str) -> str:
    parts = parts_of(key)
    return key if parts is None else key_of(_RELATION_PAIRS.get(parts[0], parts[0]), parts[1])


def key_from_words(subject: str, prop: str) -> str:
    """A ``fact:`` key from a model's subject and property ("the person", "city" ->
    fact:self:home; "my son", "age" -> fact:son:age; "number of bikes" ->
    fact:self:count:bike), so that it meets the offline rules' keys."""
    who = " ".join(unicodedata.normalize("NFKC", subject).lower().split())
    who = re.sub(r"^(?:my|our|the person's|their|うちの|私の)\s*", "", who) or "self"
    who = "self" if who in _SELF_WORDS else _JA_NORMAL.get(who, who)
    what = " ".join(unicodedata.normalize("NFKC", prop).lower().split())
    count = re.match(r"^(?:number of|count of|how many)\s+(.+)$|^(.+?)\s+(?:count|owned)$"
                     r"|^(.+?)の(?:数|人数|台数|匹数)$", what)
    if count:
        thing = next(g for g in count.groups() if g)
        return key_of(who, "count:" + _singular(thing.split()[-1]))
    if what.startswith("count:"):
        return key_of(who, "count:" + _singular(what[6:].strip()))
    for name, words in _PROPERTY_WORDS.items():
        if what in words:
            return key_of(who, name)
    return key_of(who, what[:40])


def says_value(texts: list[str] | tuple[str, ...], value: str) -> bool:
    """Is ``value`` (a model's "new value") in the person's own words: a whole word or
    number in Latin script (a number also as a word: 7 / seven / 七), a run of CJK
    anywhere? A long value counts when most of its words are there."""
    said = unicodedata.normalize("NFKC", " ".join(texts)).lower()
    value = unicodedata.normalize("NFKC", value).lower().strip(" .,!?。、「」\"'")
    if not value:
        return True
    numbers = {_number(t) for t in re.findall(r"\d+|[a-z]+|[一二三四五六七八九十]", said)}
    pieces = re.findall(r"[\u3040-\u30ff\u4e00-\u9fffー々]+|[0-9a-z][0-9a-z'’-]*", value)

    def there(piece: str) -> bool:
        if re.match(r"[\u3040-\u30ff\u4e00-\u9fff]", piece):
            return piece in said
        if piece.isdigit() and piece in numbers:
            return True
        return re.search(rf"(?<![0-9a-z]){re.escape(piece)}(?![0-9a-z])", said) is not None

    if not pieces:
        return value in said
    found = sum(there(p) for p in pieces)
    return found == len(pieces) or (len(pieces) >= 3 and found * 3 >= len(pieces) * 2)


def parts_of(key: str) -> tuple[str, str] | None:
    """(subject, property) of a ``fact:`` key, or None."""
    if not key.startswith("fact:"):
        return None
    subject, _, prop = key[5:].partition(":")
    return (subject, prop) if prop else None


def _number(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    return _WORD_NUMBERS.get(text.lower(), _KANJI_NUMBERS.get(text, text))


def _singular(word: str) -> str:
    word = word.lower()
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def _subject_en(before: str) -> str:
    """Who a clause is about, from what comes before its verb: "my son", "my dog Milo",
    "Milo"; the person by default."""
    rel = re.search(rf"\b(?:my|our)\s+(?:(?:little|older|younger|eldest|youngest|oldest|"
                    rf"big|new|old|baby)\s+)?({_RELATIONS_EN})(?:'s)?\b", before, re.IGNORECASE)
    if rel:
        return _singular(rel.group(1).replace("mum", "mom"))
    name = re.search(r"(?:^|\s)([A-Z][a-z]{2,})(?:'s)?\s*(?:\([^)]*\)\s*)?$", before.strip())
    if name and name.group(1).lower() not in {"and", "but", "also", "now", "so", "today",
                                                "then", "well", "actually", "yes", "oh"}:
        return name.group(1).lower()
    return "self"


#: Words that open a Japanese sentence with が/は and are not who it is about.
_NOT_SUBJECTS = frozenset((
    "私", "僕", "俺", "自分", "わたし", "今", "今日", "昨日", "明日", "今年", "今月", "今週",
    "最近", "誰", "何", "それ", "これ", "あれ", "仕事", "天気", "時間", "お金", "体", "頭", "気分",
    "調子"))


def _subject_ja(before: str, leading: bool = False) -> str:
    """Who a clause is about, from what comes before its verb: 「娘は」「夫の健太、」「うちの
    犬が」; with ``leading``, also a name that opens the sentence (「健太が独立して、…」:
    the statement's subject, however far its verb). The person by default."""
    rel = re.search(rf"(?:うちの|私の|僕の|俺の|わたしの|自分の)?({_RELATIONS_JA})"
                    r"(?:の(?P<name>[\u30a0-\u30ffー\u4e00-\u9fff]{1,8}?))?(?:ちゃん|くん|君|さん)?"
                    r"(?:は|が|も|って|の|、)?\s*(?:今|もう|先週|先月|昨日|今日|ついに|やっと)?\s*$",
                    before)
    if rel:
        word = rel.group(1)
        return _JA_NORMAL.get(word, word)
    if leading:
        opening = re.match(rf"(?:うちの|私の|僕の|俺の|わたしの)?({_RELATIONS_JA}|"
                           r"[\u4e00-\u9fff\u30a1-\u30faー]{1,6}?)(?:ちゃん|くん|君|さん)?(?:が|は)",
                           before)
        if opening and opening.group(1) not in _NOT_SUBJECTS:
            word = opening.group(1)
            return _JA_NORMAL.get(word, word)
    return "self"


def _value_en(text: str) -> str:
    text = text.strip(" .,!;:\"'")
    return text


def _clip_lower(value: str) -> str:
    """A lowercase value ("a small startup") up to a word that ends it."""
    words: list[str] = []
    for word in value.split():
        if words and _NOT_VALUE.match(word):
            break
        words.append(word)
    return " ".join(words)


# --- English -------------------------------------------------------------------------

_EN_HOME = re.compile(
    r"\b(?:i|we)(?:'ve| have|'m| am| are|'re)?\s+(?:just\s+|recently\s+|finally\s+|now\s+|"
    r"officially\s+|since\s+)?(?:live|living|lived|moved|moving|relocated|relocating|"
    r"settled|based|staying)\s+(?:back\s+)?(?:to|in|into|out to|over to)\s+" + _NAME_EN)
_EN_HOME_NOW = re.compile(r"\bnow that (?:i|we)(?:'m|'re| am| are| live| have moved)\s+"
                          r"(?:in|to)\s+" + _NAME_EN)
_EN_HOME_RESIDENT = re.compile(r"\b(?i:i'm|i am|we're|we are)\s+"
                               r"(?:now\s+|officially\s+|finally\s+)*"
                               r"(?:an?\s+)?" + _NAME_EN + r"\s+residents?\b")
_EN_HOME_LEAVING = re.compile(r"\b(?i:i'm|i am|we're|we are|i|we)\s+(?:just\s+)?(?:leaving|left)\s+"
                              r"[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)*\s+for\s+(?:[a-z][\w-]*\s+){0,4}?"
                              r"(?:in|to)\s+" + _NAME_EN)
_EN_HOME_MY = re.compile(r"\b(?:my|our) (?:new )?(?:home|place|apartment|flat|house) "
                         r"(?:is )?in\s+" + _NAME_EN)
_EN_JOB_AT = re.compile(
    r"\b(?:i|i've|i'm|i have|i am)\s+(?:just\s+|recently\s+|now\s+|finally\s+|officially\s+)?"
    r"(?:work(?:ing|ed)?|started(?: a new job| working| work)?|joined|got (?:a|the) "
    r"(?:new )?(?:job|position|role|offer)|accepted (?:a|an|the) (?:new )?(?:job|offer|"
    r"position|role)|switched (?:jobs|companies|employers)?|moved (?:jobs|companies))\s+"
    r"(?:at|for|with|to)?\s*" + _NAME_EN)
_EN_JOB_FIRST = re.compile(r"\b(?i:first) (?i:day|week) (?i:at|with)\s+" + _NAME_EN
                           + r"|\b(?i:new) (?i:job|role|position) (?i:at|with)\s+"
                           + _NAME_EN.replace("<v>", "<w>"))
#: "Fenwick have made me a senior designer", "Declan's been made head chef"
_EN_MADE = re.compile(
    r"(?P<who>\b(?:me|him|her|i|i've|i have|he|she|[A-Z][a-z]{2,})(?:'s| has| have| was| is)?)\s+"
    r"(?:been\s+|just\s+|finally\s+|now\s+)*(?:made|promoted to|appointed|named)\s+"
    r"(?:an?\s+|the\s+)?"
    r"(?P<v>(?:senior |junior |lead |head |staff |principal |chief |assistant |deputy |sous )?"
    r"[a-z]+(?: [a-z]+)?)(?= at\b| of\b|[.!,;]|$)"
    r"|\b(?:made|promoted|appointed)\s+(?P<who2>me|him|her)\s+(?:to\s+)?(?:an?\s+|the\s+)?"
    r"(?P<v2>(?:senior |junior |lead |head |staff |principal |chief |assistant |deputy |sous )?"
    r"[a-z]+(?: [a-z]+)?)(?= at\b| of\b|[.!,;]|$)")
_EN_JOB_MY = re.compile(r"\bmy (?:new )?(?:job|employer|company|workplace) "
                        r"(?:is|at)\s+(?:at\s+)?" + _NAME_EN)
_EN_ROLE = re.compile(
    r"\b(?:i|i'm|i am|i've been|i have been|i was|i got)\s+(?:now\s+|just\s+|finally\s+)?"
    r"(?:work(?:ing)? as|promoted to|hired as|(?:become|became) an?|an?|(?:started|starting) "
    r"(?:as|a new job as))\s+(?:an?\s+)?"
    r"(?P<v>(?:senior |junior |lead |head |staff |principal |chief |assistant )?"
    r"(?:[a-z]+ )?[a-z]*(?:er|or|ist|yst|ant|ent|ian|ect|ive|ager|nurse|teacher|chef|"
    r"cook|lawyer|doctor|student|intern|freelancer|consultant|dev|designer|lead|head|"
    r"director|captain|president|chair))\b")
_EN_QUIT = re.compile(r"\bi\s+(?:just\s+|finally\s+|recently\s+)?(?:quit|left|resigned from)"
                      r"\s+(?P<job>my (?:job|position|role)(?:\s+at\s+)?)?"
                      r"(?P<v>(?:[A-Z][\w'’.&-]*(?:\s+[A-Z][\w'’.&-]*)*)?)")
_EN_DIET = re.compile(
    r"\b(?:i|i'm|i am|i've|i have)\s+(?:now\s+|just\s+|recently\s+|officially\s+|gone\s+|"
    r"been\s+|become\s+|became\s+|turned\s+|going\s+|went\s+|decided to go\s+)*"
    r"(?:an?\s+|fully\s+|strictly\s+|mostly\s+)?"
    r"(?P<v>vegetarian|vegan|pescatarian|pescetarian|plant-based|keto|gluten-free|"
    r"dairy-free|lactose intolerant|teetotal|sober)\b", re.IGNORECASE)
#: A named diet followed: "I'm doing keto", "Doing Mediterranean now", "on a paleo diet".
_EN_DIET_DOING = re.compile(
    r"(?:^|\b(?:i'm|i am|i've been|we're|we've been|been|now|currently)\s+)(?:doing|on|"
    r"following|trying|eating)\s+(?:the\s+|a\s+|an\s+)?(?P<v>keto|paleo|mediterranean|"
    r"low-carb|low carb|carnivore|whole30|intermittent fasting|plant-based|dash|vegan|"
    r"vegetarian|pescatarian)\b(?:\s+diet)?", re.IGNORECASE)
_EN_STOPPED = re.compile(
    r"\bi(?:'ve| have)?\s+(?:just\s+|recently\s+|finally\s+|completely\s+)?"
    r"(?:stopped|quit|given up|gave up|cut out|cut|dropped)\s+(?:eating\s+|drinking\s+)?"
    r"(?P<v>[a-z][a-z -]{1,30}?)(?=[.,!;]|\s+(?:and|but|because|since|for|completely|"
    r"entirely|altogether|now|last|this|a while|recently)\b|$)", re.IGNORECASE)
_EN_NO_MORE = re.compile(
    r"\bi\s+(?:don't|do not|no longer|can't|cannot)\s+(?:eat|drink|have)\s+"
    r"(?P<v>[a-z][a-z -]{1,30}?)(?:\s+any ?more|\s+now)?(?=[.,!;]|$|\s+(?:and|but|because|"
    r"since|anymore|any more|now)\b)", re.IGNORECASE)
_EN_AGE = re.compile(
    r"(?P<who>(?:\b(?:my|our)\s+(?:\w+\s+)?\w+(?:\s+[A-Z][a-z]+)?)|\b[A-Z][a-z]{2,}|\bi|"
    r"\b(?:he|she))\s*(?:\([^)]*\)\s*)?(?:'s|’s| is| was| just| has| had| will be| finally)*"
    r"\s*(?:just\s+|finally\s+|now\s+|officially\s+)?(?:turned|turns|turning|is|'s|’s|am|"
    r"'m|’m|now)\s+(?:now\s+)?(?P<n>\d{1,3}|" + "|".join(_WORD_NUMBERS) + r")"
    r"(?![\d:.,]\d)(?!\w)",
    re.IGNORECASE)
_EN_AGE_ADJ = re.compile(r"\b(?:my|our)\s+" + _COUNT_EN
                         + r"[- ]years?[- ]old\s+(?P<rel>" + _RELATIONS_EN + r")\b",
                         re.IGNORECASE)
_EN_RENAMED = re.compile(
    r"\b(?:renamed|rebranded|changed (?:the|its|his|her|my|our) name(?: of)?)\s+"
    r"(?P<what>.{0,40}?)\s*(?:(?:to|as)\s+)?[\"'“]?" + _NAME_EN)
_EN_CALLED = re.compile(
    r"(?P<what>\b(?:my|our|the)\s+(?:new\s+)?\w+(?:'s)?(?:\s+(?!is\b|was\b|now\b)\w+)?)\s+"
    r"(?:is\s+|was\s+)?(?:now\s+)?"
    r"(?:called|named)\s+[\"'“]?" + _NAME_EN)
_EN_NAME_IS = re.compile(r"(?P<what>\b(?:my|our)\s+(?:new\s+)?\w+(?:'s)?)\s+name\s+is\s+"
                         r"(?:now\s+)?[\"'“]?" + _NAME_EN)
_EN_COUNT = re.compile(
    r"\b(?:i|we)(?:'ve| have| now have| own| now own|'ve got| have got| got| currently have|"
    r" currently own| collected| read| finished)\s+(?:now\s+)?(?:a total of\s+|exactly\s+|"
    r"about\s+|around\s+)?" + _COUNT_EN
    + r"\s+(?P<what>(?:[a-z]+\s+){0,2}?[a-z]+s)\b", re.IGNORECASE)
_EN_COUNT_UP = re.compile(r"\b(?:up to|that makes|makes it|brings? (?:me|us|it) to|now at)\s+"
                          + _COUNT_EN + r"\s+(?P<what>(?:[a-z]+\s+){0,2}?[a-z]+s)\b",
                          re.IGNORECASE)

# --- Japanese ------------------------------------------------------------------------

_JA_HOME = re.compile(
    _NAME_JA + r"(?:市|区|町|村|県|都|府)?(?:に|へ)(?:住んで|住み始め|引っ越し|引越し|越して|移住|"
    r"移り住|転居|転勤)")
_JA_HOME_CITIZEN = re.compile(_NAME_JA + r"(?:市|区|町|村)?(?:民|住まい)"
                              r"(?:です|だ|に|になり|になった|。|！|!)")
_JA_HOME_TRANSFER = re.compile(_NAME_JA + r"(?:への|に)(?:転勤|引っ越し|引越し|移住)")
_JA_HOME_LIVE = re.compile(r"(?:住まい|住んでいるの|住んでるの|家)は" + _NAME_JA
                           + r"(?:です|だ|で|。)")
_JA_JOB = re.compile(
    _NAME_JA + r"(?:で(?:働いて|働き始め|勤務)|に(?:勤めて|勤務|転職|就職|入社|転籍|採用)|"
    r"へ(?:転職|就職))")
#: A business of one's own: 「独立して、自分のパン屋を開くことになった」「カフェを開業した」.
_JA_OWN_BUSINESS = re.compile(
    r"(?P<v>(?:自分の)?[\u4e00-\u9fff\u30a0-\u30ffーぁ-ゖ]{0,10}?(?:屋|店|会社|事務所|サロン|"
    r"教室|カフェ|工房|ショップ|クリニック))を(?:開く|開いた|開いて|開業|オープン|立ち上げ|始め)")
_JA_JOB_ROLE = re.compile(r"(?:仕事|職業|本業)は" + _NAME_JA + r"(?:です|だ|で|を|。)")
_JA_ROLES = (r"主任|係長|課長|部長|次長|店長|副店長|室長|所長|支店長|社長|リーダー|マネージャー|"
             r"チーフ|班長|委員長|部長代理|正社員|契約社員|派遣社員|フリーランス|個人事業主|管理職|"
             r"エンジニア|デザイナー|看護師|教師|講師|医師|公務員|会社員|店員|料理長|シェフ")
_JA_ROLE = re.compile(rf"(?P<v>(?:[\u4e00-\u9fff\u30a0-\u30ffー]{{0,8}}?)(?:{_JA_ROLES}))"
                      r"(?:に(?:なった|なりました|なって|なり|昇進|昇格|就任)|として(?:働|勤)|を(?:やって|して|務め))")
_JA_QUIT = re.compile(_NAME_JA + r"を(?:辞め|退職|やめ)(?!る)")
_JA_DIET = re.compile(
    r"(?P<v>ベジタリアン|ヴィーガン|ビーガン|菜食|ペスカタリアン|グルテンフリー|禁酒|糖質制限)"
    r"(?:主義)?(?:に(?:なった|なりました|なって|した|しました|する)|を(?:始め|している|してい|"
    r"続け)|です|だ|中)")
_JA_STOPPED = re.compile(
    r"(?P<v>[\u4e00-\u9fff\u30a0-\u30ffー々ぁ-ゖ]{1,12}?)(?:を|は)?(?:食べる|飲む|吸う)?"
    r"(?:の)?(?:を|は)?(?:やめ(?:た|ました|て)|止め(?:た|ました|て)|断っ|控えて)")
_JA_NO_MORE = re.compile(r"もう(?P<v>[\u4e00-\u9fff\u30a0-\u30ffー々ぁ-ゖ]{1,10}?)(?:は|を|も)?"
                         r"(?:食べて|飲んで|食べ|飲ま|吸って)(?:い)?(?:ない|ません)")
_JA_AGE = re.compile(r"(?P<n>\d{1,3}|[一二三四五六七八九十]{1,3})(?:歳|才)(?:に|の誕生日)?")
_JA_AGE_OF = re.compile(r"(?P<n>\d{1,3}|[一二三四五六七八九十]{1,3})(?:歳|才)の(?P<rel>"
                        + _RELATIONS_JA + ")")
_JA_NAME = re.compile(
    r"(?:名前を|名前は|名称を|名称は|を)?(?:[「『](?P<q>[^」』]{1,20})[」』]|" + _NAME_JA
    + r")(?:に(?:改名|変え|変更|改称|"
    r"リネーム|した|しました|決めた|決めました)|って名前に|という名前に|と(?:いう名前|名付け|命名))")
_JA_NAME_IS = re.compile(r"(?P<what>[\u4e00-\u9fff\u30a0-\u30ffー]{1,10})の名前は[「『]?"
                         r"(?P<v>[\u30a0-\u30ffー\u3040-\u309f\u4e00-\u9fffA-Za-z]{1,12}?)[」』]?"
                         r"(?:です|だ|って|と|。|！|$)")
_JA_COUNTERS = "台|匹|冊|本|人|個|頭|羽|足|枚|着|社|軒|回|鉢|株"
_JA_COUNT = re.compile(
    r"(?P<what>[\u4e00-\u9fff\u30a0-\u30ffー々]{1,10})(?:を|が|は|、)(?:今|いま|全部で|合計)?"
    r"(?:で)?" + _COUNT_JA + r"(?P<c>" + _JA_COUNTERS + r")")


#: A change that names what it replaces: "from Tidepool to Harbor", "traded in the Civic
#: for…", "Biscuit is now called Pippin", "dropping Spanish", "quit piano", "instead of the
#: 10k", 「タマから「こむぎ」に」「英会話はやめて」「プリウス売って」. The older value is what a
#: memory that still holds it must give up (``rules.admit``).
_EN_DROPPED = (
    re.compile(r"\bfrom\s+(?:my\s+|the\s+|our\s+|an?\s+)?(?P<v>[\w'’.&-]+(?:\s+[\w'’.&-]+){0,2}?)"
               r"\s+(?:to|into)\s+(?!the\b|be\b|do\b|get\b|make\b)", re.IGNORECASE),
    re.compile(r"\b(?:traded in|trading in|sold|swapped|replaced|ditched|dropping|dropped|"
               r"giving up|gave up|given up|quit|quitting|stopped|leaving|left|"
               r"no longer (?:do|play|"
               r"learn|go to|use|drive|have)|done with)\s+(?:on\s+)?(?:my\s+|the\s+|our\s+|an?\s+)?"
               r"(?P<v>[\w'’.&-]+(?:\s+(?!for\b|and\b|to\b|because\b|in\b|this\b|after\b|"
               r"at\b|on\b|with\b|now\b|last\b|today\b|yesterday\b)[\w'’.&-]+){0,2})",
               re.IGNORECASE),
    # a like that ended: "I've gone off sushi", "can't stand horror films anymore"
    re.compile(r"\b(?:gone off|went off|sick of|tired of|over|no longer (?:like|love|enjoy|"
               r"eat|drink|watch|listen to|play)|(?:can't|cannot|can no longer) stand|"
               r"(?:don't|do not|no longer) (?:like|enjoy|love))\s+(?:my\s+|the\s+|an?\s+)?"
               r"(?P<v>[\w'’.&-]+(?:\s+(?!for\b|and\b|to\b|because\b|in\b|any\b|at\b|"
               r"now\b|anymore\b)[\w'’.&-]+){0,2})(?=[^.!?]*\b(?:anymore|any more|now|these days|"
               r"lately)\b)", re.IGNORECASE),
    # a job left: "Today's my last day at Brightwell"
    re.compile(r"\blast (?:day|week|shift) (?:at|with)\s+(?P<v>[A-Z][\w'’.&-]*"
               r"(?:\s+(?:[A-Z][\w'’.&-]*|&(?=\s+[A-Z])))*)", re.IGNORECASE),
    re.compile(r"\binstead of\s+(?:my\s+|the\s+|our\s+|an?\s+)?(?P<v>[\w'’.&-]+(?:\s+[\w'’.&-]+)?)",
               re.IGNORECASE),
    re.compile(r"(?P<v>\b[A-Z][\w'’.&-]*)\s+is\s+(?:now\s+)?(?:called|named|renamed)\b"),
)
_JA_DROPPED = (
    # a like that ended: 「ホラー映画がすっかり怖くて見られなくなった」「辛いものが苦手になった」
    re.compile(rf"(?P<v>{_CJK_RUN}{{2,20}})(?:が|は|も)(?:すっかり|もう|最近|なんだか|だんだん)?"
               r"(?:[^。！？!?、]{0,8}?なくな(?:った|りました|って|っちゃ)|(?:苦手|嫌い)に"
               r"(?:なった|なりました|なって)|飽きた|飽きて)"),
    re.compile(rf"(?P<v>{_CJK_RUN}{{2,20}}|[「『][^」』]{{1,20}}[」』])から(?:[「『]|{_CJK_RUN}{{1,20}}(?:に|へ))"),
    re.compile(rf"(?P<v>{_CJK_RUN}{{2,20}})(?:は|を|も|と)?(?:(?:先週|先月|昨日|去年|今月|もう)(?:で)?)?"
               r"(?:やめ|辞め|止め|売っ|売り|手放|卒業|解約|退会|別れ)"),
)
_NOT_DROPPED = re.compile(r"^(?:it|that|this|them|him|her|me|us|work|home|school|cold turkey|"
                          r"smoking|drinking|the idea|doing|being|trying|going|using)$|"
                          r"^(?:cold turkey)", re.IGNORECASE)


def dropped(sentence: str) -> list[str]:
    """The older values a sentence of the person's says it replaced or gave up ("Civic",
    「タマ」), in its own words; [] when it names none."""
    text = unicodedata.normalize("NFKC", sentence)
    found: list[str] = []
    patterns = _JA_DROPPED if re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text) else _EN_DROPPED
    for pattern in patterns:
        for match in pattern.finditer(text):
            value = match.group("v").strip(" 「」『』\"'.,")
            value = re.sub(r"^(?:the|my|our|a|an)\s+", "", value, flags=re.IGNORECASE)
            value = _JA_VALUE_LEAD.sub("", value) or value
            if len(value) >= 2 and not _NOT_DROPPED.search(value) and value not in found:
                found.append(value)
    return found


_LEADS = frozenset((
    "my", "our", "we", "the", "now", "since", "so", "and", "but", "also", "oh", "well",
    "actually", "yes", "just", "recently", "finally", "he", "she", "it", "this", "that",
    "after", "as", "btw", "update", "today", "yesterday", "last", "by", "in", "ok", "okay",
    "anyway", "good", "great", "quick", "then", "guess", "hey", "hi", "hello", "sadly",
    "luckily", "officially", "because", "fun"))


def _is_change(sentence: str) -> bool:
    return bool(_CHANGE.search(sentence))


#: The words a sentence's capital does not make a name of: "I", and a sentence's first
#: word ("My dog…", "We moved…"); lowercased before the English patterns read it (the
#: capitals of names are what they look for).
_NOT_NAMES = re.compile(r"\bI(?=\b|['’])|^[A-Z][a-z]+\b")


def _en(sentence: str) -> list[Statement]:
    found: list[Statement] = []
    sentence = _NOT_NAMES.sub(lambda m: m.group(0).lower()
                              if m.group(0) == "I" or m.group(0).lower() in _LEADS
                              else m.group(0), sentence)
    change = _is_change(sentence)

    def add(subject: str, prop: str, value: str, changed: bool = change) -> None:
        value = _value_en(value)
        if value and all(s.key != key_of(subject, prop) for s in found):
            found.append(Statement(subject, prop, value, changed))

    for pattern in (_EN_HOME, _EN_HOME_NOW, _EN_HOME_MY, _EN_HOME_RESIDENT, _EN_HOME_LEAVING):
        for match in pattern.finditer(sentence):
            moved = bool(re.search(r"mov|reloc|now|settled|officially|leav|left", match.group(0),
                                   re.IGNORECASE))
            add(_subject_en(sentence[:match.start()]) if match.group(0)[:2].lower() == "my"
                else "self", "home", match.group("v"), change or moved)
    for match in _EN_QUIT.finditer(sentence):
        where = match.group("v") or ""
        if not where and not match.group("job"):
            continue
        add("self", "job", f"not at {where}" if where else "left the job", True)
    for match in _EN_JOB_AT.finditer(sentence):
        value = match.group("v")
        if value.lower() in {"i", "home"}:
            continue
        add("self", "job", value, change or "work" not in match.group(0).lower())
    for match in _EN_JOB_MY.finditer(sentence):
        add("self", "job", match.group("v"))
    for match in _EN_JOB_FIRST.finditer(sentence):
        # "Ollie's first day at St Mary's": where Ollie goes now, not the person's job
        who = _subject_en(sentence[:match.start()])
        add(who, "job" if who == "self" else "place", match.group("v") or match.group("w"),
            True)
    for match in _EN_MADE.finditer(sentence):
        who = (match.group("who") or match.group("who2")).split("'")[0].split()[0].lower()
        if who in {"him", "her", "he", "she"}:
            continue  # whose role is not said in the clause
        # "Got promoted to…", "Finally made…": the person, not someone called "Got"
        mine = who in {"me", "i", "i've", "got", "just", "finally", "been", "today", "so"}
        add("self" if mine else who, "role",
            match.group("v") or match.group("v2"), True)
    for match in _EN_ROLE.finditer(sentence):
        value = match.group("v")
        employer = re.match(r"\s+at\s+" + _NAME_EN, sentence[match.end():])
        if employer:  # "I'm a backend engineer at Brightline": the employer too
            add("self", "job", employer.group("v"))
        if re.search(r"\b(?:vegetarian|vegan|pescatarian|pescetarian)$", value):
            continue  # a diet (below), not a role
        if re.match(r"(?:big|huge|great|fan|bit|lot|member|user|number|order|other|winner|"
                    r"better|never|ever|over|under|after|either|rather|later|together)\b",
                    value):
            continue
        add("self", "role", value)
    for match in _EN_DIET.finditer(sentence):
        value = match.group("v").lower()
        # an intolerance is a fact of its own: "I've gone vegan" does not end it
        add("self", _abstains(value) if value in _INTOLERANT else "diet", value)
    for match in _EN_DIET_DOING.finditer(sentence):
        add("self", "diet", match.group("v").lower())
    for pattern in (_EN_STOPPED, _EN_NO_MORE):
        for match in pattern.finditer(sentence):
            what = _clip_lower(match.group("v").strip())
            # (quitting a diet, "I've quit keto", ends it: ``dropped``, not a diet of its own)
            if what and excluded(what) and not what.lower().startswith("cold turkey") \
                    and what.lower() not in _DIET_EXCLUDES:
                add("self", _abstains(what), f"no {what}", True)
    for match in _EN_AGE_ADJ.finditer(sentence):
        add(_singular(match.group("rel")), "age", _number(match.group("n")))
    for match in _EN_AGE.finditer(sentence):
        who = match.group("who")
        if re.match(r"(?:he|she)$", who, re.IGNORECASE):
            continue
        subject = "self" if who.lower() == "i" else _subject_en(who)
        if subject == "self" and who.lower() != "i":
            continue  # "my list is 3 …": not a person's age
        tail = sentence[match.end("n"):match.end("n") + 12].lower()
        if who.lower() == "i" and "year" not in tail and "turn" not in match.group(0).lower():
            continue  # "I'm 5 minutes away"
        if re.match(r"\s*(?:%|percent|minutes|hours|days|weeks|months|km|miles|kg|lbs|"
                    r"pounds|times|dollars|euros|\$|:)", tail):
            continue
        add(subject, "age", _number(match.group("n")))
    for pattern in (_EN_RENAMED, _EN_CALLED, _EN_NAME_IS):
        for match in pattern.finditer(sentence):
            if re.search(r"\b(?:after|for|by|in|at)$", match.group("what").strip()):
                continue  # "renamed the street after Mandela": not its new name
            subject = _subject_en(match.group("what") + " ")
            if subject == "self":
                what = re.sub(r"^(?:my|our|the|its|his|her)\s+", "", match.group("what").strip(),
                              flags=re.IGNORECASE)
                subject = _singular(what.split()[-1]) if what else "thing"
            add(subject, "name", match.group("v"),
                change or "renamed" in match.group(0).lower() or "changed" in match.group(0))
    for pattern in (_EN_COUNT, _EN_COUNT_UP):
        for match in pattern.finditer(sentence):
            what = _singular(match.group("what").split()[-1])
            if what in {"year", "month", "week", "day", "hour", "minute", "time", "question",
                        "idea", "thing", "option", "way", "step"}:
                continue
            add("self", f"count:{what}", _number(match.group("n")))
    return found


#: Words of time or manner before a Japanese value that are not part of it (「先月仙台に」).
_JA_VALUE_LEAD = re.compile(r"^(?:先月|先週|去年|昨年|今年|今月|来月|来年|最近|この前|今度|"
                            r"昨日|今日|"
                            r"今|無事|ついに|やっと|正式に|春に|夏に|秋に|冬に|\d+月に?|ずっと)+")


def _ja(sentence: str) -> list[Statement]:
    found: list[Statement] = []
    change = _is_change(sentence)

    def add(subject: str, prop: str, value: str, changed: bool = change) -> None:
        value = _JA_VALUE_LEAD.sub("", value) or value
        if value and all(s.key != key_of(subject, prop) for s in found):
            found.append(Statement(subject, prop, value, changed))

    for match in _JA_HOME.finditer(sentence):
        add("self", "home", match.group("v"),
            change or bool(re.search("引っ越|引越|越して|移住|移り|転居|転勤", match.group(0))))
    for match in _JA_HOME_LIVE.finditer(sentence):
        add("self", "home", match.group("v"))
    for match in _JA_HOME_CITIZEN.finditer(sentence):
        add("self", "home", match.group("v"), True)
    for match in _JA_HOME_TRANSFER.finditer(sentence):
        add("self", "home", match.group("v"), True)
    for match in _JA_ROLE.finditer(sentence):
        add(_subject_ja(sentence[:match.start()]), "role", match.group("v"),
            change or "なっ" in match.group(0) or "なり" in match.group(0))
    for match in _JA_JOB.finditer(sentence):
        add(_subject_ja(sentence[:match.start()]), "job", match.group("v"),
            change or "働いて" not in match.group(0))
    for match in _JA_OWN_BUSINESS.finditer(sentence):
        add(_subject_ja(sentence[:match.start()], leading=True), "job", match.group("v"), True)
    for match in _JA_JOB_ROLE.finditer(sentence):
        add("self", "role", match.group("v"))
    for match in _JA_QUIT.finditer(sentence):
        if re.search("会社|仕事|職|店|バイト|アルバイト|部活|社", match.group("v")) \
                or "退職" in match.group(0):
            add("self", "job", f"{match.group('v')}を辞めた", True)
        elif excluded(match.group("v")):
            add("self", _abstains(match.group("v")), f"{match.group('v')}なし", True)
    for match in _JA_DIET.finditer(sentence):
        add("self", "diet", match.group("v"))
    for pattern in (_JA_STOPPED, _JA_NO_MORE):
        for match in pattern.finditer(sentence):
            what = match.group("v")
            if excluded(what) and what not in _DIET_EXCLUDES:
                add("self", _abstains(what), f"{what}なし", True)
    for match in _JA_AGE_OF.finditer(sentence):
        rel = match.group("rel")
        add(_JA_NORMAL.get(rel, rel), "age", _number(match.group("n")))
    for match in _JA_AGE.finditer(sentence):
        before = sentence[:match.start()]
        after = sentence[match.end():match.end() + 4]
        if re.match(r"(?:の|から|以上|以下|未満|くらい|ぐらい|頃|前後|差)", after) \
                and "誕生日" not in match.group(0):
            continue  # 「3歳の娘」 is read above, 「5歳から」 is not an age now
        subject = _subject_ja(before, leading=True)
        if subject == "self" and not re.search(r"(?:私|僕|俺|わたし|自分)(?:は|も|が)?\s*"
                                               r"(?:今|もう|先週|先月|昨日|今日)?\s*$", before):
            continue
        add(subject, "age", _number(match.group("n")))
    for match in _JA_NAME.finditer(sentence):
        if not re.search(r"名|リネーム", sentence):
            continue  # 「塾を…に変えた」 changes a thing, not its name
        before = sentence[:match.start()]
        owner = re.search(rf"({_RELATIONS_JA}|[\u30a0-\u30ffー]{{2,10}})の(?:名前|名称|名)", before)
        subject = _JA_NORMAL.get(owner.group(1), owner.group(1)) if owner else \
            _subject_ja(re.sub(r"(?:の)?(?:名前|名称)(?:を|は)?$", "", before))
        if subject == "self":
            named = re.search(rf"({_RELATIONS_JA}|[\u4e00-\u9fff\u30a0-\u30ffー]{{2,10}})"
                              r"(?:の(?:名前|名称))?(?:を|は)?$", before)
            subject = named.group(1) if named else "thing"
        add(subject, "name", match.group("q") or match.group("v"), True)
    for match in _JA_NAME_IS.finditer(sentence):
        what = match.group("what")
        add(_JA_NORMAL.get(what, what), "name", match.group("v"))
    for match in _JA_COUNT.finditer(sentence):
        what = match.group("what")
        what = re.sub(r"^(?:今|いま|全部|合計)", "", what) or what
        add("self", f"count:{what}", _number(match.group("n")) + match.group("c"))
    return found


def statements(sentence: str) -> list[Statement]:
    """What ``sentence`` (one of the person's) states about a subject's property; [] for
    a question or a sentence that states none of them. (Remembered: the librarian reads
    the Timeline Index's sentences again at each pass.)"""
    return list(_statements(sentence))


@lru_cache(maxsize=8192)
def _statements(sentence: str) -> tuple[Statement, ...]:
    text = unicodedata.normalize("NFKC", sentence).strip()
    if not text or re.search(r"[?？]\s*$", text):
        return ()
    japanese = bool(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text))
    found = _ja(text) if japanese else _en(text)
    return tuple(replace(s, clause=_with_subject(text, clause_of(text, s.value, japanese),
                                                 s.subject)) for s in found)


def _with_subject(text: str, clause: str, subject: str) -> str:
    """``clause`` from where ``text`` names its subject, when the cut left it out
    (「健太が独立して、自分のパン屋を開く」, not 「自分のパン屋を開く」 alone)."""
    if subject in ("self", "thing") or subject.lower() in clause.lower():
        return clause
    at, end = text.lower().find(subject.lower()), text.find(clause)
    if at < 0 or end < 0 or at > end:
        return clause
    return text[at:end + len(clause)].strip()


_EN_CLAUSE = re.compile(r",?\s+(?:and|but|so|because|while|though|which)\s+(?=(?:my|the|i|i'm|i've|"
                        r"we|we're|it|it's|she|he|they|our|this|that|half|some|a|an)\b)|"
                        r";\s+|\s+[—–]\s+|:\s+(?=[A-Z])|,\s+so\s+", re.IGNORECASE)
#: A Japanese clause that ends without its predicate ("猫の名前、") leans on the next one.
_JA_OPEN = re.compile(r"(?:て|で|が|けど|し|ので|から|たら|ば|ね|よ|た|だ|です|ます|ない|る|い|う|"
                      r"〜|~)$")
_JA_CLAUSE_TAIL = re.compile(r"(?:んですが|んですけど|んだけど|んだが|ですが|ですけど|けど|けれど|"
                             r"ので|から|し)$")


def clause_of(sentence: str, value: str, japanese: bool) -> str:
    """The clause of ``sentence`` that holds ``value``: "I'm a junior designer at Fenwick
    Studio" of "… and my art director wants…", 「名古屋に住んでる」 of 「名古屋に住んでるんです
    が、今朝…」; the sentence when the value is not said as such ("no fish")."""
    at = -1
    for said in (value, re.sub(r"なし$", "", value), re.sub(r"^no\s+", "", value)):
        at = sentence.find(said) if said else -1
        if at >= 0:
            break
    if at < 0:
        return sentence.strip()
    if japanese:
        parts = re.split(r"(?<=[、。！!？?…〜~])(?=\S)|(?<=[〜~])\s+", sentence)
        start = 0
        for index, part in enumerate(parts):
            if start <= at < start + len(part):
                first = index
                while first > 0 and not _JA_OPEN.search(parts[first - 1].rstrip("、。！!？?… ")):
                    first -= 1
                text = "".join(parts[first:index + 1]).rstrip("、。！!？?…〜~ ")
                return _JA_CLAUSE_TAIL.sub("", text) or text
            start += len(part)
        return sentence.strip()
    cuts = [0, *(m.end() for m in _EN_CLAUSE.finditer(sentence))]
    ends = [m.start() for m in _EN_CLAUSE.finditer(sentence)] + [len(sentence)]
    for begin, end in zip(cuts, ends, strict=True):
        if begin <= at < end:
            text = sentence[begin:end].strip()
            return text[:1].upper() + text[1:] if begin else text
    return sentence.strip()


# --- What a diet excludes ------------------------------------------------------------

_MEAT = ("meat", "steak", "beef", "pork", "chicken", "bacon", "ham", "sausage", "lamb",
         "burger", "hamburger", "ribs", "brisket", "turkey", "duck", "veal", "salami",
         "pepperoni", "jerky", "meatball", "barbecue", "bbq", "wings", "carbonara",
         "bolognese", "kebab", "肉", "ステーキ", "牛", "豚", "鶏", "焼肉", "焼き肉", "唐揚げ",
         "からあげ", "とんかつ", "トンカツ", "ハンバーグ", "ハンバーガー", "焼き鳥", "焼鳥",
         "ベーコン",
         "ハム", "ソーセージ", "すき焼き", "しゃぶしゃぶ", "生姜焼き", "チャーシュー", "ラム",
         "ジンギスカン", "牛丼", "親子丼", "カツ", "餃子")
_FISH = ("fish", "seafood", "sashimi", "sushi", "salmon", "tuna", "mackerel", "cod", "shrimp",
         "prawn", "crab", "lobster", "oyster", "eel", "sardine", "anchov", "trout",
         "魚", "刺身", "さしみ", "寿司", "すし", "鮨", "鮭", "サーモン", "マグロ", "まぐろ", "鯖",
         "サバ", "さば", "海鮮", "エビ", "えび", "カニ", "かに", "うなぎ", "鰻", "いくら", "ウニ",
         "貝", "タコ", "イカ", "ぶり", "ブリ")
_DAIRY_EGG = ("cheese", "milk", "butter", "yogurt", "cream", "egg", "eggs", "ice cream",
              "チーズ", "牛乳", "バター", "ヨーグルト", "卵", "たまご", "生クリーム")
_ALCOHOL = ("alcohol", "beer", "wine", "sake", "whisky", "whiskey", "cocktail", "drinking",
            "お酒", "酒", "ビール", "ワイン", "日本酒", "焼酎", "ハイボール")
_CAFFEINE = ("coffee", "caffeine", "espresso", "latte", "cappuccino", "コーヒー", "カフェイン",
             "カフェラテ", "エスプレッソ")
_SUGAR = ("sugar", "sweets", "dessert", "cake", "chocolate", "candy", "甘い物", "甘いもの",
          "スイーツ", "ケーキ", "チョコ", "お菓子")
_GLUTEN = ("gluten", "bread", "pasta", "wheat", "パン", "パスタ", "小麦")
_GROUPS = {
    "meat": _MEAT, "fish": _FISH, "dairy": _DAIRY_EGG, "alcohol": _ALCOHOL,
    "caffeine": _CAFFEINE, "sugar": _SUGAR, "gluten": _GLUTEN,
}
_DIET_EXCLUDES = {
    "vegetarian": ("meat", "fish"), "菜食": ("meat", "fish"), "ベジタリアン": ("meat", "fish"),
    "vegan": ("meat", "fish", "dairy"), "plant-based": ("meat", "fish", "dairy"),
    "ヴィーガン": ("meat", "fish", "dairy"), "ビーガン": ("meat", "fish", "dairy"),
    "pescatarian": ("meat",), "pescetarian": ("meat",), "ペスカタリアン": ("meat",),
    "teetotal": ("alcohol",), "sober": ("alcohol",), "禁酒": ("alcohol",),
    "gluten-free": ("gluten",), "グルテンフリー": ("gluten",),
    "dairy-free": ("dairy",), "lactose intolerant": ("dairy",),
    "糖質制限": ("sugar",), "keto": ("sugar",),
}


_INTOLERANT = frozenset(("lactose intolerant", "gluten-free", "dairy-free"))


def _groups_of(text: str) -> set[str]:
    lowered = text.lower()
    found = set()
    for group, words in _GROUPS.items():
        for word in words:
            if word.isascii():
                if re.search(rf"\b{re.escape(word)}", lowered):
                    found.add(group)
                    break
            elif word in text:
                found.add(group)
                break
    return found


def excluded(value: str) -> frozenset[str]:
    """The food groups a diet value leaves out: "vegetarian" -> meat and fish; "no
    sashimi" / 「刺身なし」 / "fish" -> fish; nothing for what is not food or drink."""
    lowered = value.lower()
    for diet, groups in _DIET_EXCLUDES.items():
        if diet in lowered:
            return frozenset(groups)
    return frozenset(_groups_of(value))


def _abstains(what: str) -> str:
    """The property of giving up a kind of food or drink: "diet:no-fish" (a diet such as
    "vegetarian" is the property "diet"; giving up fish after it is another fact)."""
    return "diet:no-" + "-".join(sorted(excluded(what)))


def clashes(diet_value: str, liked: str) -> bool:
    """Does a stated like (a preference's text) name food the diet leaves out?"""
    groups = excluded(diet_value)
    return bool(groups) and bool(groups & _groups_of(liked))
