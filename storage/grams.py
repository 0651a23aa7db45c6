"""The pair index's tokens (``gram_tokens``): what SQLite's ``message_grams`` holds
(``storage/fts.py``) and what PostgreSQL's search counts (``storage/search_pg.py``)."""

from __future__ import annotations

import re
import unicodedata

#: What the bigram index is made of: a run of Japanese script (kanji, kana, the long
#: vowel mark and 々) or of ASCII letters and digits, after NFKC and lowering.
RUN = re.compile(r"[\u3005\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|[0-9a-z]+")


def gram_tokens(text_: str) -> list[str]:
    """The bigram index's tokens of a text: each Japanese run as its overlapping
    two-character pieces (a run of one character as itself), each ASCII run as one word.

    This is how Japanese is searched without a dictionary: the person asks in other
    words than they used, kana for kanji, a title in hiragana only (ごくせん); a pair of
    characters matches wherever the words overlap, and BM25 over the pairs weighs the
    rare ones. Changing what this returns changes the index: the contentless table
    deletes a row by the tokens it was written with, so a change needs a migration that
    rebuilds ``message_grams`` (as 0016 fills it)."""
    found: list[str] = []
    for run in RUN.findall(unicodedata.normalize("NFKC", text_).lower()):
        if run.isascii() or len(run) == 1:
            found.append(run)
        else:
            found.extend(run[i:i + 2] for i in range(len(run) - 1))
    return found


def like_pattern(term: str) -> str:
    """``%term%`` for ``LIKE ... ESCAPE '\\'``, its own ``%``, ``_`` and ``\\`` escaped
    (both searches: ``storage/fts.py``, ``storage/search_pg.py``)."""
    return "%" + term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
