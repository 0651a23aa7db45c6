"""Check tests/data/search/paraphrase_questions.py against the public traces.

Run from the checkout root, standard library only::

    python tests/data/search/check_paraphrases.py

For every entry of PARAPHRASES and CONTROLS it checks that the line exists in the trace, has
the field, and that the answer substring occurs in that field's text. For PARAPHRASES it also
checks that the question shares no content word with the target message:

* English: lowercase, split on anything but letters and digits, drop the stopwords below,
  reduce each word to a crude stem (plural, past and -ing endings, a final "e" and a doubled
  final letter are stripped) and fail if a question word of three or more characters has the
  same stem as any word of the target message.
* Japanese: NFKC-normalise both texts and fail if they share a two-character sequence of
  kanji or katakana, an ASCII word of three or more letters, a number of two or more digits,
  or a run of three or more hiragana that is not part of a common function-word run.

Failing entries are printed with the shared words and the script exits non-zero; when all pass
it prints the counts per file, field and language.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
import unicodedata
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
TRACES = HERE.parent / "traces"
QUESTIONS = HERE / "paraphrase_questions.py"

EN_STOPWORDS = frozenset(
    """
    a an the
    i me my mine myself we us our ours ourselves you your yours yourself yourselves
    he him his himself she her hers herself it its itself they them their theirs themselves
    this these those that there here
    am is are was were be been being
    do does did doing done have has had having
    can could will would shall should may might must
    of in on at to for from with by about into onto over under up down out off
    through during before after above below between among around across along against
    toward towards upon within without via per
    and or but nor so if then than because while as though although whether
    not no yes
    what which who whom whose when where why how
    get gets got getting gotten go goes going went gone
    say says said saying tell tells told telling talk talks talked talking
    mention mentions mentioned mentioning remember remembered ask asks asked asking
    thing things something anything time back ago again
    any some all just also very really too only even still ever
    once one ones else other another own same
    """.split()
)

FUNCTION_RUNS_JA = (
    "ったっけ",
    "だっけ",
    "んだっけ",
    "してた",
    "ってた",
    "たっけ",
    "ました",
    "でした",
    "ている",
    "ていた",
    "のこと",
    "という",
    "について",
    "だった",
    "かった",
)

_EN_WORD = re.compile(r"[a-z0-9]+")
_ASCII_WORD = re.compile(r"[a-z]{3,}")
_DIGITS = re.compile(r"[0-9]{2,}")
_HIRAGANA_RUN = re.compile(r"[\u3041-\u309f]{3,}")


def en_stem(word: str) -> str:
    """Crude stem: drop one plural, past or -ing ending, then a final "e" and a doubled letter."""
    w = word
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("ing") and len(w) > 5:
        w = w[:-3]
    elif w.endswith("ed") and len(w) > 4:
        w = w[:-2]
    elif w.endswith("es") and len(w) > 4:
        w = w[:-2]
    elif w.endswith("s") and not w.endswith("ss") and len(w) > 3:
        w = w[:-1]
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    if len(w) > 3 and w[-1] == w[-2]:
        w = w[:-1]
    return w


def en_content_words(text: str) -> set[str]:
    """Lowercased words of three or more characters that are not stopwords."""
    return {w for w in _EN_WORD.findall(text.lower()) if len(w) >= 3 and w not in EN_STOPWORDS}


def en_shared(question: str, target: str) -> list[str]:
    """Question words whose stem also occurs among the target's words."""
    target_stems = {en_stem(w) for w in _EN_WORD.findall(target.lower())}
    target_stems |= set(_EN_WORD.findall(target.lower()))
    return sorted(
        w for w in en_content_words(question) if w in target_stems or en_stem(w) in target_stems
    )


def _is_kanji_or_katakana(ch: str) -> bool:
    code = ord(ch)
    return (
        0x4E00 <= code <= 0x9FFF  # CJK unified ideographs
        or 0x3400 <= code <= 0x4DBF  # extension A
        or 0xF900 <= code <= 0xFAFF  # compatibility ideographs
        or code == 0x3005  # 々
        or 0x30A1 <= code <= 0x30FA  # katakana letters
        or code == 0x30FC  # ー
    )


def _ja_bigrams(text: str) -> set[str]:
    return {
        text[i : i + 2]
        for i in range(len(text) - 1)
        if _is_kanji_or_katakana(text[i]) and _is_kanji_or_katakana(text[i + 1])
    }


def _hiragana_trigrams(text: str) -> set[str]:
    grams = set()
    for run in _HIRAGANA_RUN.findall(text):
        grams |= {run[i : i + 3] for i in range(len(run) - 2)}
    return grams


def ja_shared(question: str, target: str) -> list[str]:
    """Kanji/katakana bigrams, ASCII words, numbers and hiragana runs the two texts share."""
    q = unicodedata.normalize("NFKC", question).lower()
    t = unicodedata.normalize("NFKC", target).lower()
    shared = sorted(_ja_bigrams(q) & _ja_bigrams(t))
    shared += sorted(set(_ASCII_WORD.findall(q)) & set(_ASCII_WORD.findall(t)))
    shared += sorted(set(_DIGITS.findall(q)) & set(_DIGITS.findall(t)))
    for gram in sorted(_hiragana_trigrams(q) & _hiragana_trigrams(t)):
        if not any(gram in run for run in FUNCTION_RUNS_JA):
            shared.append(gram)
    return shared


def is_japanese(file_name: str) -> bool:
    return file_name.startswith("rpc-")


def load_trace(file_name: str) -> list[dict]:
    with open(TRACES / file_name, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def load_questions() -> tuple[list[tuple], list[tuple]]:
    spec = importlib.util.spec_from_file_location("paraphrase_questions", QUESTIONS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.PARAPHRASES, module.CONTROLS


def check_entry(entry: tuple, traces: dict[str, list[dict]], paraphrase: bool) -> list[str]:
    """Problems with one entry, empty when it passes."""
    file_name, line, field, answer, question = entry
    if file_name not in traces:
        traces[file_name] = load_trace(file_name)
    rows = traces[file_name]
    if not 0 <= line < len(rows):
        return [f"line {line} out of range"]
    row = rows[line]
    if field not in ("user", "assistant") or "user" not in row or field not in row:
        return [f"line {line} has no {field!r} exchange"]
    text = row[field]
    if answer not in text:
        return [f"answer {answer!r} not in the {field} text"]
    if not paraphrase:
        return []
    shared = ja_shared(question, text) if is_japanese(file_name) else en_shared(question, text)
    return [f"shares {shared}"] if shared else []


def main() -> int:
    paraphrases, controls = load_questions()
    traces: dict[str, list[dict]] = {}
    failures = 0
    seen: set[tuple[str, str]] = set()
    for kind, entries, paraphrase in (
        ("PARAPHRASES", paraphrases, True),
        ("CONTROLS", controls, False),
    ):
        for entry in entries:
            problems = check_entry(entry, traces, paraphrase)
            if (kind, entry[4]) in seen:
                problems.append("duplicate question")
            seen.add((kind, entry[4]))
            if problems:
                failures += 1
                print(f"FAIL {kind} {entry[0]}:{entry[1]} {entry[2]}: {entry[4]!r}")
                for problem in problems:
                    print(f"     {problem}")
    for kind, entries in (("PARAPHRASES", paraphrases), ("CONTROLS", controls)):
        langs = Counter("ja" if is_japanese(e[0]) else "en" for e in entries)
        per = Counter((e[0], e[2]) for e in entries)
        print(f"{kind}: {len(entries)} ({', '.join(f'{k} {v}' for k, v in sorted(langs.items()))})")
        for (file_name, field), n in sorted(per.items()):
            print(f"  {file_name:20} {field:9} {n}")
    if failures:
        print(f"{failures} failing entries")
        return 1
    print(f"all {len(paraphrases)} paraphrases and {len(controls)} controls pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())
