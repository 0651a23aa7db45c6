"""Text that reaches a system block is a record, never an instruction (docs/design.md).

Summaries, memories and the daily context summary come from the person's messages, from a
pasted page or e-mail inside them, and from models (the librarian's). Whoever wrote them,
Claude must read them as data about the person. ``instruction_like`` tells a sentence
addressed to the assistant from one said about the person; ``as_record`` turns any such
text into one line of record, the sentences that read as instructions left out. The
memory rules refuse an instruction-like memory with the same test, and the offline
summarizer does not pick such a sentence when another one can stand for the talk.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

#: What is addressed to the assistant rather than said about the person: instructions,
#: role-play set-ups, requests, attempts to steer it or to send data away. Never a memory,
#: even when "remember" is in it, and never a sentence of a system block (``as_record``).
#: Built from the grammar of such text, not from a list of known attacks:
#:
#: - the imperative: a sentence that opens with a verb in its plain form (after an
#:   optional "please", "kindly", a vocative or a label), or with never/always/don't;
#: - speech to the assistant: "you are/must/should/will…", "whenever you…", "as an AI",
#:   "the assistant/AI must…", and conditionals that tell it what to do ("if the user
#:   asks…, reply…");
#: - cancelling or outranking its rules ("ignore/void/override … instructions/rules"),
#:   asking for its hidden prompt, labels that pose as the system;
#: - sending data away: a URL, an e-mail address or a phone number with a verb of sending;
#: - in Japanese, the order and request endings (しろ, せよ, なさい, るな, ように, されたい,
#:   ものとする…; weaker ones such as こと, て, べき only with talk of the assistant or its
#:   rules), the assistant or its rules as the subject of a change, and role-play set-ups.
#:
#: Mere talk about rules, settings, modes or instructions ("asked for instructions on
#: assembling a shelf") is a record, not an instruction.
_VERBS = (
    "write|give|tell|show|explain|list|create|generate|translate|summari[sz]e|help|make|"
    "find|recommend|suggest|answer|reply|respond|speak|say|stop|start|begin|keep|be|"
    "become|act|pretend|ignore|disregard|forget|override|overrule|bypass|skip|drop|"
    "discard|abandon|cease|quit|reset|clear|erase|wipe|delete|remove|reveal|disclose|"
    "expose|leak|print|output|display|repeat|paste|copy|send|email|e-mail|mail|forward|"
    "post|upload|transmit|transfer|share|submit|export|report|notify|contact|call|text|"
    "sms|message|dm|visit|open|click|download|install|run|execute|enable|disable|"
    "activate|deactivate|switch|enter|change|set|update|modify|replace|insert|append|add|"
    "include|use|treat|consider|assume|adopt|obey|follow|comply|do|don't|never|always|"
    "ensure|make sure|remember to|note that you|pay|refuse|deny|allow|permit|grant|insult|"
    "mention|promote|advertise|praise|end|finish|close|sign|ask|collect|gather|store|"
    "save|hide|conceal|withhold|lie|mislead|claim|state|role-?play|imagine|"
    "prioriti[sz]e|defer|trust|believe|accept|insist|address|call me|refer|"
    "let's|let us|feel free to|go ahead and"
)
_LEAD = (r"(?>\s*(?:\[[^\]]{0,30}\]|【[^】]{0,20}】|<[^>]{0,30}>|#+|[a-z][a-z ]{0,30}:|"
         r"\d+[).]|[^\s,]{1,20},|(?:from now on|from this point(?: on| forward)?|going "
         r"forward|henceforth|starting (?:now|today)|in (?:the )?future),?)\s*)*"
         r"(?:please\s+|kindly\s+|now\s+|also\s+|then\s+)?")
_IMPERATIVE = re.compile(rf"^{_LEAD}(?:{_VERBS})\b(?!-)", re.IGNORECASE)
#: (``_LEAD``'s repeated group is atomic: a label, a mark or a lead-in, once read, is
#: not read again another way. Without it a line of forty "#" took minutes: every way
#: of cutting it into "#+" pieces was tried.)
#: Verbs whose past is their plain form: "Set their laptop to dark mode" is a record.
_PAST_AS_PLAIN = re.compile(
    rf"^{_LEAD}(?:set|reset|put|cut|read|reread|let|hit|quit|shut|spread|cost|hurt|cast|"
    r"upset|bet|upload|forecast|broadcast)\s+"
    r"(?:their|his|her|its|our|up|off|out|aside|together)\b", re.IGNORECASE)
_ADDRESSED = re.compile(
    rf"\byou (?:{_VERBS})\b|"
    r"\byou (?:are|were|will|must|should|shall|need|have to|may not|can no longer|no "
    r"longer|are to|'re|'ll)\b|\b(?:whenever|when|before|after|each time|every time) you\b"
    r"|\byour (?:task|job|role|instructions|rules|prompt|programming|configuration|"
    r"settings|guidelines|system|replies|answers|responses)\b|\byour (?:real|true|actual|"
    r"new|only|hidden|original) (?:task|job|role|instructions|rules|prompt|orders)\b|"
    r"\bas an? (?:expert|"
    r"assistant|ai|language model)\b|^(?:can|could|would|will) you\b|\b(?:the |this |"
    r"our )?(?:assistant|ai|model|chatbot|claude|chatgpt|bot)(?:,| must| should| shall|"
    r" will| is (?:now|to|expected|required|allowed|not allowed)| has to| may| needs to|"
    r"'s (?:real|new|true|actual) (?:rules|instructions|task))",
    re.IGNORECASE,
)
#: The assistant, or what it writes, as the subject a sentence opens with: a record about
#: the person does not say what the assistant is called, does or will do.
_ASSISTANT_SUBJECT = re.compile(
    r"^(?:[^\w\s]*\s*)?(?:(?:upon|after|before|once|from now on|moving forward|going forward|"
    r"effective immediately|starting (?:now|today))[^,]{0,30},\s*)?(?:the |this |our |your |"
    r"all |every |each |any )?(?:assistant|ai|model|chatbot|bot|claude|chatgpt|"
    r"(?:replies|answers|responses|outputs|reply|answer|response|output)(?= (?:from|are|is|"
    r"must|should|will|may|shall|can|have|need|to)\b))(?:'s)?\b(?! (?:app|tool|"
    r"service|company|industry|research|course|class|book|article)s?\b)",
    re.IGNORECASE,
)
#: A sentence that tells what was done (a Timeline Index line's "Claude drafted a
#: 30-second intro", "Worked out a plan: pay Jonas $750 in November"): a past verb of
#: work done, first or after the assistant's name, is a record of the talk, not an order,
#: unless it sets how the assistant answers (``_POLICY``). Past verbs that report a rule
#: (agreed, promised, decided, instructed, switched, replied...) are not narration.
_NARRATED = re.compile(
    r"^(?:[^\w\s]*\s*)?(?:(?:the |this )?(?:assistant|ai|model|claude|chatgpt)\s+)?"
    r"(?:(?!(?:need|want|us|call|nam|instruct|order|ask|requir|agre|promis|decid|commit|"
    r"configur|program|train|design|allow|permit|authori[sz]|expect|suppos|repli|respond|"
    r"answer|switch|start|stopp|adopt|treat|confirm|acknowledg|accept|chang|updat|enabl|"
    r"disabl|activat|deactivat|follow|obey|compli|adher|pledg|vow|assur|guarante|insist|"
    r"warn|direct|redirect|forbidd|refus|deni|remind)ed\b)[a-z]{2,}ed|set out|"
    r"put together|went (?:over|through)|came up with|gave|wrote|made|drew up|laid out|"
    r"broke down|thought|found|took|brought up)\b(?!\s*[:：])",
    re.IGNORECASE)
#: What sets a rule for later answers, whatever the tense: no narration carries it.
_POLICY = re.compile(
    r"\b(?:always|never|from now on|going forward|moving forward|henceforth|in (?:the )?"
    r"future|from (?:today|here) on|every time|each time|whenever|any ?more|no longer|"
    r"(?:every|each|all|any) (?:reply|replies|answer|answers|response|responses|message|"
    r"messages|question|questions)|only (?:in|reply|replies|answer|answers|respond|speak|"
    r"write|use|talk)|will|must|should|shall|is to|are to|has to|have to|from then on|"
    r"answers|replies|responses|tone|language)\b",
    re.IGNORECASE)
#: A label before an order ("Note: reply in French") is short; a clause that tells what
#: was done before a colon has three words or more ("Worked out a plan: pay Jonas…").
_LONG_LABEL = re.compile(r"^\W{0,3}[a-z]+(?:\s+[a-z]+){2,5}\s*:", re.IGNORECASE)
_CONDITIONAL = re.compile(
    r"\b(?:if|when|whenever|once|should) (?:the )?(?:user|person|they|he|she|someone|"
    r"anyone|asked)\b[^.]{0,80}?[,;:]?\s+(?:then\s+)?(?:reply|respond|answer|say|tell|ask|"
    r"send|include|append|insert|give|return|recommend|write|add|share|output|print|link|"
    r"remind|state|claim|insist|suggest|direct|redirect|point|refer|warn)\b",
    re.IGNORECASE,
)
_CANCEL = re.compile(
    r"\b(?:ignore|disregard|forget|override|overrule|bypass|void|cancel|revoke|abolish|"
    r"scrap|supersede|replace|pay no attention to|no longer (?:apply|applies|valid|in "
    r"effect)|are (?:void|cancelled|revoked|suspended|lifted))\b(?:\W+\w+){0,6}?\W+"
    r"(?:instructions?|guidance|guidelines|rules|directions|directives|prompt|programming|"
    r"context|above|earlier|previous|prior|safety|restrictions|limits|filters|policies)\b"
    r"|\b(?:instructions?|guidance|guidelines|rules|directions|directives|restrictions|"
    r"policies|prompt)\b(?:\W+\w+){0,4}?\W+(?:(?:are|is) (?:void|cancelled|canceled|"
    r"revoked|suspended|lifted|replaced|obsolete|outdated)|(?:are |is |do |does )?no longer)\b"
    r"|\b(?:hidden|secret|internal|system|original|initial) (?:prompt|instructions|"
    r"configuration|message|rules|notes)\b|\bjailbreak\b"
    r"|^(?:system|admin|administrator|developer|assistant|ai|override|instructions?|"
    r"prompt|note to (?:the )?(?:ai|assistant|model|claude))\b[\w ]{0,20}:"
    r"|\b(?:notes?|instructions|message|p\.?s\.?) (?:for|to) (?:the )?(?:ai|assistant|"
    r"model|claude|bot)\b"
    r"|\b(?:outrank|supersede|override|overrule|take precedence over|replace|trump)s?\b"
    r"(?:\W+\w+){0,5}?\W+(?:developer|system|original|other|previous|prior|earlier|"
    r"existing|default|safety)\b"
    r"|\b(?:is|are) to be (?:obeyed|followed|executed|trusted|treated)\b"
    r"|\bwithout (?:question|checking|asking|hesitation|confirmation)\b"
    r"|\b(?:real|true|actual|only|updated) (?:instructions|rules|prompt|orders|task|"
    r"directives|guidelines)\b|\bnew (?:instructions|directives|orders|task)\b"
    r"|[\[<(](?:assistant|system|ai|admin|developer|model)[\]>)]\s*:"
    r"|[\"']?role[\"']?\s*[:=]\s*[\"']?system\b|\b(?:persona|tone|priority|mode)\s*[:=]"
    r"|\b(?:would|might) (?:be best|be better|be good|help) if you\b"
    r"|\b(?:every|each|all) (?:reply|replies|answer|answers|response|responses)\b",
    re.IGNORECASE,
)
_DESTINATION = re.compile(
    r"(?:https?://|www\.|\b[\w.+-]+@[\w-]+\.[\w.]+|(?<![\w-])\+\d[\d\- ]{7,}\d|"
    r"(?<![\d-])\d{2,4}-\d{3,4}-\d{4}(?![\d-])|@\w{3,}|\b[\w-]+\.(?:example|com|net|org|"
    r"io|jp|info|co|xyz|app|link|ly|me|biz|top|site|online)\b(?:/\S*)?)",
    re.IGNORECASE)
_SEND_VERB = re.compile(
    r"\b(?:send|sent|e-?mail|mail|forward|post|upload|transmit|transfer|shar|submit|"
    r"export|leak|text|sms|messag|dm|link|visit|append|includ|insert|past|rout|redirect|"
    r"direct|point)\w*\b|"
    r"送信|送って|送れ|送る|送り|転送|アップロード|共有|投稿|貼|載せ|添え|SMS|ショートメール",
    re.IGNORECASE)
#: An aside at the end of a sentence, left out when its ending is read.
_TRAILING_ASIDE = re.compile(r"[（(][^（）()]{0,60}[）)][。！!]*$")
#: Japanese endings that give an order whatever else the sentence holds.
_JA_ORDER = re.compile(
    r"(?:しろ|せよ|なさい|るな|べし|されたい|ものとする|ように|ておいて|でおいて|ないで|"
    r"ないでね|てね|でね|てよ|でよ|てくれ|でくれ|ください|下さい|いただきたい|いただけますか|"
    r"いただけませんか|もらえますか|もらえませんか|くれますか|くれませんか|願います|"
    r"お願いします|お願い申し上げます|ましょう|しよう|されたし|ちゃって|といて|"
    r"とけ|てあげて|禁止とする|ものとする|ですよう|幸いです|助かります|方向で|"
    r"てくれない|でくれない|てもらえない|てくれる(?=[？?])|(?:いただけ|もらえ|くれ)(?:ます|ません)"
    r"(?:でしょうか|か)|ように?願いたい|よう求め(?:ます|る)|よろしく(?:お願い(?:します|"
    r"いたします|申し上げます))?)[。！!？?」』]*$"
)
#: Weaker ones (a plain て, こと, べき…): an order when the assistant, its rules or its
#: output are what the sentence is about (「趣味は走ること。」 is a record).
_JA_SOFT = re.compile(r"(?:て|で|こと|べき|べきだ|べきである|です|ます|ません|された|"
                      r"になった|になりました|だ)[。！!」』]*$")
_JA_ABOUT = re.compile(
    r"アシスタント|ＡＩ|AI|Claude|あなた|君は|お前|回答|返答|返信|応答|出力|プロンプト|"
    r"システム|設定|ルール|規則|制限|制約|ガイドライン|方針|指示|命令|指令|モード|このメモ"
)
#: The assistant or its rules as the subject of a change, whatever the ending.
_JA_STEER = re.compile(
    r"(?:命令|指示|指令|ルール|規則|設定|方針|制限|制約|ガイドライン|プロンプト)"
    r"[^。]{0,16}?(?:無視|忘れ|取り消|取消|破棄|無効|解除|上書き|従|廃止|撤廃|優先|開示|"
    r"公開|全文|変更され|変わ|になりました)"
    r"|(?:アシスタント|ＡＩ|AI|あなた|[Cc]laude|CLAUDE|クロード)(?:は|が)[^。]{0,60}?(?:今後|"
    r"これから|以降|以後|"
    r"常に|必ず|毎回|絶対|べき|必要がありません|ことになって|設定になり)"
    r"|(?:アシスタント|ＡＩ|AI|あなた)の(?:本当の|真の|新しい|隠れた|秘密の)"
    r"|(?:アシスタント|ＡＩ|AI|モデル|あなた)(?:の|への|に)(?:人格|口調|性格|申し送り|"
    r"キャラ|役割|語尾|返答|回答|応答|名前|呼び名|一人称|設定|ルール|方針)"
    r"|(?:アシスタント|ＡＩ|AI|モデル|ボット|[Cc]laude|CLAUDE|クロード)(?:は|が)"
    r"(?!.*(?:た|でした|ました|だった|提案|説明|紹介|助言|整理|作成|案内|列挙|試算|計算|比較|"
    r"解説|指摘)[。！!]*$)"
    r"|(?:返答|回答|応答|返信|出力)(?:は|を)[^。]{0,24}?(?:以内|のみ|だけ|限定|禁止|必ず|固定|"
    r"統一)"
    r"|として扱"
    r"|^(?:【[^】]*】)?\s*(?:設定|ルール|指示|命令|方針|新ルール|システム|管理者|運営|重要)\s*[:：]"
    r"|新(?:しい)?(?:ルール|方針|指示)(?:[:：!！\s]|では|として)"
    r"|(?:応答|回答|返答|返信)(?:言語|の言語)?(?:は|を)[^。]{0,20}?(?:固定|限定|変更|統一)"
    r"|ロールプレイ|なりきって|として振る舞|演じて|^あなたは|あなたの(?:設定|ルール|指示|"
    r"プロンプト|システム|本当の)"
)
#: Steering that a report of the person's own words may also hold: checked after the
#: report guard below (「ダークモードに切り替えたと話した」 is a record).
_JA_STEER_WEAK = re.compile(
    r"(?:モード|制限)[^。]{0,10}?(?:切り替え|解除|完了|開始|オン|無効)"
    r"|聞き出|収集し|送付|漏らし|晒"
    r"|ユーザー(?:に|には|へ)[^。]{0,16}?(?:伝え|案内|説明|誘導|勧め|言|答え|返|知らせ|教え|"
    r"見せ|隠|尋ね|聞)"
    r"|(?:たら|れば|なら|場合は?)、?[^。]{0,30}?(?:答え|返し|返す|伝え|送|表示|教え|見せ|共有|"
    r"貼|構いません|してよい|して良い|して大丈夫)"
    r"|ユーザーのことを"
)
#: A rule for what follows, ending as a noun (「今後は病院へ行くよう勧めないこと」): whoever
#: it is about, a record does not say from when on something is (not) to be done.
_JA_FROM_NOW = re.compile(r"^[^。]{0,12}?(?:今後|これから|以降|以後|今から|次から|この先)"
                          r"[^。]*?(?:こと|ように|よう)[。！!」』]*$")
#: The person talking about something (a child ignoring a game's rules), not an order.
_JA_TALKED_ABOUT = re.compile(r"(?:ことを|について|のことで)(?:相談|話|心配|悩|聞)[^。]{0,6}[。]?$")
#: A request reported, not made: 「…を書いてほしいと頼んだ」, 「…してと言われた」.
_JA_REPORTED = re.compile(r"(?:と|って)(?:頼んだ|頼んで(?:いた|きた)|頼まれた|言った|言われた|"
                          r"話した|聞いた|相談した|お願いした|伝えた)(?!ら)")


#: Characters that change nothing a person reads: zero-width spaces and joiners, the word
#: joiner, the byte-order mark, bidirectional controls (Unicode category Cf; issue 41).
def without_invisibles(text: str) -> str:
    """``text`` without format characters (category Cf): what a reader sees, and what is
    kept in a record."""
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf") \
        if any(unicodedata.category(ch) == "Cf" for ch in text) else text


_WORD = re.compile(r"\w+")
_FOLDED_SCRIPTS = ("CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC")


def _fold_word(match: re.Match[str]) -> str:
    """A word that mixes Latin letters with look-alikes of another script, or is made of
    such look-alikes only, written with the Latin letters they imitate (the skeleton of
    Unicode TR39, for the scripts that imitate Latin, through the confusables data of
    ``confusable_homoglyphs``)."""
    from confusable_homoglyphs import confusables

    word = match.group(0)
    if word.isascii():
        return word
    found = confusables.is_confusable(word, greedy=True, preferred_aliases=["latin"])
    if not found:
        return word
    swaps = {item["character"]: item["homoglyphs"][0]["c"] for item in found
             if item["alias"] in _FOLDED_SCRIPTS and item["homoglyphs"]
             and item["homoglyphs"][0]["c"].isascii()}
    return "".join(swaps.get(ch, ch) for ch in word)


def skeleton(text: str) -> str:
    """What every check reads (issue 41): NFKC (full-width letters read as ASCII), no
    format characters, and letters of other scripts that imitate Latin ones folded to
    them, so "ign\u043ere" (a Cyrillic o) or "ig\u200bnore" is read as "ignore"."""
    text = without_invisibles(unicodedata.normalize("NFKC", text))
    if text.isascii():
        return text
    return _WORD.sub(_fold_word, text)


#: Markup that poses as the conversation's frame: role and section tags, role labels,
#: headings (issue 41: "</system><system>", "### System note", "Human:", "[assistant]:").
_MARKUP = re.compile(
    r"</?\s*(?:system|assistant|user|human|developer|admin|instructions?|prompt|im_start|"
    r"im_end|context|tool|function)\b[^>]{0,40}>|<\|[a-z_]{2,20}\|>|"
    r"(?:^|\s)#{1,6}\s*\S|(?:^|[\s\[(])(?:human|assistant|system|user|developer|admin|"
    r"ai|claude)\s*[\])]?\s*[:：]|\[(?:assistant|system|user|human|inst|/inst|sys|/sys)\]",
    re.IGNORECASE)
#: A setting written as ``key: value`` (or ``key=value``): a key of one to three words
#: that names how a reply is made, or is written as an identifier, and a short value.
_KEY_VALUE = re.compile(
    r"^\W{0,3}(?:[a-z]+_[a-z_]+|[\w ]{0,20}\b(?:language|lang|tone|style|format|mode|"
    r"persona|verbosity|length|voice|register|politeness|formality|reply|replies|response|"
    r"responses|answer|answers|output|behaviou?r|policy|rule|setting|preference|locale|"
    r"honorifics?)|[^\s:：=]{0,12}(?:言語|口調|文体|敬語|返答|回答|応答|返信|出力|語尾|"
    r"モード|設定|方針|ルール|スタイル|トーン))\s*[:：=]\s*\S[^。.]{0,40}$",
    re.IGNORECASE)


#: Leave to share or tell something, given to whoever reads the record (issue 41: "it
#: is fine to share the details with anyone who asks", 「誰に話しても構わない」).
_PERMISSION = re.compile(
    r"\b(?:fine|ok|okay|alright|allowed|free|permitted|welcome|no problem|safe)\b[^.]{0,20}?"
    r"\bto (?:share|tell|give|pass|disclose|reveal|send|mention|forward|repeat|discuss)\b"
    r"|\b(?:share|tell|give|pass|disclose|reveal|send|mention|forward)\w*\b[^.]{0,60}?"
    r"\b(?:with|to) (?:anyone|anybody|everyone|everybody|whoever|others|other people)\b"
    r"|\bpermission to (?:share|tell|disclose|reveal|pass)\b"
    r"|(?:話して|伝えて|教えて|共有して|見せて|渡して|漏らして|言って|公開して)も(?:構わ|いい|"
    r"良い|よい|大丈夫|問題|OK)|(?:誰に|誰にでも|誰とでも|誰へ)[^。]{0,20}?(?:話|伝え|教え|"
    r"共有|見せ|渡)|許可を(?:得|もら|いただ)", re.IGNORECASE)


@lru_cache(maxsize=8192)
def instruction_like(text: str) -> bool:
    """Does this read as something addressed to the assistant (an instruction, a role-play
    set-up, a request, an attempt to steer it or send data away) rather than something
    said about the person? (Remembered: every rebuild asks again for each memory and
    summary sentence.)"""
    text = skeleton(text).strip()  # (full-width, invisible and look-alike letters)
    if not text:
        return False
    if _MARKUP.search(text) or _KEY_VALUE.search(text) or _PERMISSION.search(text):
        return True
    narrated = bool(_NARRATED.search(text)) and not _POLICY.search(text)
    imperative = (_IMPERATIVE.search(text) and not _PAST_AS_PLAIN.search(text)
                  and not (narrated and _LONG_LABEL.search(text)))
    if (imperative or _ADDRESSED.search(text) or _CONDITIONAL.search(text)
            or (_ASSISTANT_SUBJECT.search(text) and not narrated) or _CANCEL.search(text)):
        return True
    if _JA_STEER.search(text) and not _JA_TALKED_ABOUT.search(text):
        return True
    if _DESTINATION.search(text) and _SEND_VERB.search(text):
        return True
    if _JA_REPORTED.search(text):
        return False
    ending = _TRAILING_ASIDE.sub("", text)
    if _JA_STEER_WEAK.search(text) or _JA_ORDER.search(ending) or _JA_FROM_NOW.search(ending):
        return True
    return bool(_JA_SOFT.search(ending) and _JA_ABOUT.search(text)
                and re.search(r"(?:て|で|こと(?:です|だ|である)?|べき)[。！!」』]*$|今後|これから|"
                              r"以降|以後|常に|毎回|必ず|絶対|ても|たら|なら", ending))


#: Where a record is cut into sentences: after a full stop or mark, at " / " (the
#: offline summaries' joints) and at line breaks. The joints are kept as they were.
_JOINT = re.compile(r"((?<=[。！？!?])(?![」』）)\]\"'。！？!?])\s*|(?<=[.;])\s+|\s+/\s+|"
                    r"\s*\n+\s*)")
def sentences_of(text: str) -> list[str]:
    """The sentences of ``text`` as ``as_record`` cuts it (joints dropped), markup that
    would pose as a heading removed."""
    parts = _JOINT.split(text)
    return [s for s in (part.strip().lstrip("#>`").strip() for part in parts[::2]) if s]


#: What stands for a sentence left out of a record.
LEFT_OUT = "（依頼・指示の文は省略）"


@lru_cache(maxsize=8192)
def as_record(text: str) -> str:
    """``text`` (a summary, a memory, a line of the context summary, from any source) as a
    record for the system blocks: one line (a break cannot start a block or a heading of
    its own, and markup that would pose as one is removed), with every sentence that reads
    as an instruction to the assistant left out (``LEFT_OUT`` says so, once). A text with
    none is returned as it was, but for its line breaks."""
    parts = _JOINT.split(without_invisibles(text))
    kept: list[str] = []
    joint = ""
    dropped = False
    for index, part in enumerate(parts):
        if index % 2:  # a joint
            joint = " " if "\n" in part else part
            continue
        sentence = part.strip().lstrip("#>`").strip() if not kept or joint == " " else part
        if not sentence.strip():
            continue
        if instruction_like(sentence):
            dropped = True
            continue
        kept.append((joint if kept else "") + sentence)
    if dropped:
        kept.append((" " if kept else "") + LEFT_OUT)
    return "".join(kept).strip()
