"""The search's indexes on PostgreSQL (issue 31), answering exactly as SQLite's FTS5 does.

On SQLite, ``storage/fts.py`` asks two FTS5 indexes: ``message_fts`` (every message's
text as trigrams, case folded) and ``message_grams`` (said messages as ``gram_tokens``:
Japanese character pairs and ASCII words), both ranked by FTS5's ``bm25()``. A history
on PostgreSQL must rank the same way: the prompt sent to Claude, search results
included, is byte-identical whichever store holds it (tested on every public trace).

So this module computes what FTS5 computes, the same way:

- **matching**: a phrase of the trigram index is a substring of the case-folded text; a
  token of the pair index is one of the message's ``gram_tokens`` (a one-character
  Japanese token also matches as a prefix, ``t*``). The candidates come from PostgreSQL
  (``LIKE`` over ``folded``, the text as ``monet_fold`` folds it, kept by a trigger; a
  ``pg_trgm`` index serves it where the extension is there); the server counts each term
  in them, and the ranking is done here. ``pg_trgm`` takes letters as its database's
  locale classes them: in a database whose LC_CTYPE is C, Japanese has none, and the
  index finds every row (correct, but a scan); ``C.UTF-8`` or any ``*.UTF-8`` locale
  indexes it (``docs/postgresql.md``).
- **ranking**: FTS5's BM25 (k1 1.2, b 0.75; idf ``log((N - n + 0.5) / (n + 0.5))``, at
  least 1e-6; a document's length in tokens, the average over every row of the index) in
  the same floating-point operations, in the same order, so that scores (and so ties and
  their order: newest first) come out bit for bit as SQLite's. The rows' token counts
  (``trigrams``, ``grams``) are kept by a trigger, so N and the average length are two
  sums.

Where the two can differ: FTS5 folds the case of every letter, and so does
``monet_fold`` (``lower`` under ICU's root collation); a server built without ICU folds
in its database's locale, and in the C locale only ASCII letters (so "ÉCOLE" is not found
by "école" there).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable, Mapping, Sequence

from sqlalchemy import text
from sqlmodel import Session

from storage.grams import RUN, like_pattern

#: BM25's constants in FTS5 (fts5_aux.c).
K1 = 1.2
B = 0.75

_TRIGRAM_STATS = text("SELECT messages, trigrams FROM message_totals")
_GRAM_STATS = text("SELECT said, grams FROM message_totals")
_TRGM_INDEX = text("SELECT 1 FROM pg_indexes WHERE indexname = 'ix_message_text_trgm'")
# (the columns, functions, triggers and indexes read here are made by migration 0019's
# server baseline: storage/migrations/versions/0019_attachments.py)


def fold(value: str) -> str:
    """FTS5's case folding of the trigram index (the unicode61 fold, without removing
    diacritics), as Python's ``lower`` does it for every letter MONET meets."""
    return value.lower()


def _occurrences(haystack: str, needle: str) -> int:
    count, at = 0, haystack.find(needle)
    while at != -1:
        count += 1
        at = haystack.find(needle, at + 1)
    return count


def _bm25(freqs: Sequence[int], idfs: Sequence[float], length: int, avgdl: float) -> float:
    """FTS5's ``fts5Bm25Function`` for one row: the same operations in the same order."""
    score = 0.0
    for freq, idf in zip(freqs, idfs, strict=True):
        score += idf * ((freq * (K1 + 1.0)) / (freq + K1 * (1 - B + B * length / avgdl)))
    return -1.0 * score


def _idf(rows: int, hits: int) -> float:
    idf = math.log((rows - hits + 0.5) / (hits + 0.5))
    return idf if idf > 0.0 else 1e-6


def _ranked(scored: Iterable[tuple[int, float]], most: int) -> list[tuple[int, float]]:
    """Best first (bm25 is negative: lower is better), ties newest first, as ``ORDER BY
    bm25(...), rowid DESC``."""
    return sorted(scored, key=lambda pair: (pair[1], -pair[0]))[:most]


def _overlaps(term: str) -> bool:
    """Whether two occurrences of ``term`` can overlap ("aa" in "aaa"): it has a border."""
    return any(term[:k] == term[-k:] for k in range(1, len(term)))


def _are_literal(term: str) -> str:
    """``term`` as a literal in a PostgreSQL regular expression (ARE): every character
    that is not a letter or digit escaped."""
    return "".join(c if c.isalnum() else "\\" + c for c in term)


def trigram_matches(session: Session, terms: Sequence[str], most: int,
                    where: str = "TRUE", values: Mapping[str, object] | None = None
                    ) -> list[tuple[int, str, float]]:
    """(id, role, bm25) of the ``most`` best messages matching any of ``terms`` (three
    characters or more) and meeting ``where`` (a condition on ``m``, the message), as
    FTS5's trigram index ranks ``"t1" OR "t2" ...`` (every row of any role; then
    filtered: the filtered ranking is the whole one with rows left out).

    The server finds the candidates and counts the terms in them (overlapping
    occurrences, as FTS5's phrase matches count), so only ids and numbers come back. With
    the ``pg_trgm`` index, one index scan a term, each counting its own term in the rows
    it found; without it, one scan of every message counting every term. (A Japanese
    question on a year of history: 14 terms, 10,569 messages; sending their texts to be
    counted here took 1.4 s, counting every term in every candidate 0.4 s on the server,
    each term in its own rows 0.1 s.)"""
    folded = [fold(t) for t in terms]  # a phrase given twice weighs twice, as in FTS5
    if not folded:
        return []
    conn = session.connection()
    rows, tokens = conn.execute(_TRIGRAM_STATS).one()
    values = dict(values or {})
    counts = []
    for i, term in enumerate(folded):
        values[f"t{i}"] = term
        values[f"p{i}"] = like_pattern(term)
        if _overlaps(term):
            values[f"r{i}"] = "(?=" + _are_literal(term) + ")"
            counts.append(f"regexp_count(m.folded, :r{i})")
        else:
            counts.append(f"(char_length(m.folded) - char_length(replace(m.folded, :t{i}, '')))"
                          f" / {len(term)}")
    row = f"m.id, m.role, ({where}) AS kept, m.trigrams"
    found: dict[int, tuple[str, bool, int, list[int]]] = {}
    if conn.execute(_TRGM_INDEX).first() is not None:
        for mid, role, kept, length, i, count in conn.execute(text(" UNION ALL ".join(
                f"SELECT {row}, {i}, {count} FROM message m WHERE m.folded LIKE :p{i}"
                for i, count in enumerate(counts))), values):
            found.setdefault(int(mid), (str(role), bool(kept), int(length),
                                        [0] * len(folded)))[3][int(i)] = int(count)
    else:
        for mid, role, kept, length, *freq in conn.execute(text(
                f"SELECT {row}, {', '.join(counts)} FROM message m WHERE "
                + " OR ".join(f"m.folded LIKE :p{i}" for i in range(len(folded)))), values):
            found[int(mid)] = (str(role), bool(kept), int(length), [int(n) for n in freq])
    hits = [sum(1 for *_r, f in found.values() if f[i]) for i in range(len(folded))]
    idfs = [_idf(int(rows), h) for h in hits]
    avgdl = float(tokens) / float(rows) if rows else 1.0
    ranked = _ranked(((mid, _bm25(f, idfs, length, avgdl))
                      for mid, (_r, kept, length, f) in found.items() if kept), most)
    return [(mid, found[mid][0], score) for mid, score in ranked]


def _score_sql(count: int, length: str) -> str:
    """FTS5's BM25 of one row as a SQL expression over ``f0`` ... (the row's frequencies)
    and ``length``, with the idfs, ``avgdl`` and the constants bound as float8: the
    operations of ``_bm25`` in its order (SQL's ``+``, ``*`` and ``/`` associate to the
    left, as Python's do), so the server's doubles are Python's bit for bit."""
    score = "CAST(0 AS double precision)"
    for i in range(count):
        freq = f"CAST(f{i} AS double precision)"
        score = (f"({score} + :idf{i} * (({freq} * :k1p1) / ({freq} + :k1 * (:omb + :b * "
                 f"CAST({length} AS double precision) / :avgdl))))")
    return f"(:minus_one * {score})"


def _score_values(idfs: Sequence[float], avgdl: float) -> dict[str, float]:
    values = {"k1": K1, "b": B, "k1p1": K1 + 1.0, "omb": 1 - B, "avgdl": avgdl,
              "minus_one": -1.0}
    values.update({f"idf{i}": idf for i, idf in enumerate(idfs)})
    return values


def gram_matches(session: Session, phrases: Sequence[tuple[str, bool]], most: int, *,
                 before_id: int | None = None, hidden_too: bool = False
                 ) -> list[tuple[int, str, float]]:
    """(id, role, bm25) of the ``most`` best said messages holding any of ``phrases``
    among their ``gram_tokens`` ((token, prefix): a prefix phrase matches every token
    starting with it), as FTS5's pair index ranks them, then filtered (ids below
    ``before_id``; forgotten messages only with ``hidden_too``): the filtered ranking is
    the whole one with rows left out.

    All from the postings' index (``message_gram``: term, message, count, the message's
    length), on the server: how many messages hold each phrase (the idfs, computed here),
    then every candidate's frequencies, score and order, so only the ``most`` best come
    back. A Japanese question's common pairs (さい, 食べ) hold tens of thousands of
    postings at a year: reading the message of each cost 60 ms more."""
    if not phrases:
        return []
    conn = session.connection()
    rows, tokens = conn.execute(_GRAM_STATS).one()
    params: dict[str, object] = {}
    branches = []  # (message_id, i, tf, len): each message holding phrase i, once
    for i, (token, prefix) in enumerate(phrases):
        if prefix:
            params[f"g{i}"] = like_pattern(token)[1:]  # (t%)
            branches.append(f"SELECT message_id, {i} AS i, sum(tf) AS tf, max(len) AS len "
                            f"FROM message_gram WHERE term LIKE :g{i} GROUP BY message_id")
        else:
            params[f"g{i}"] = token
            branches.append(f"SELECT message_id, {i} AS i, tf, len FROM message_gram "
                            f"WHERE term = :g{i}")
    postings = " UNION ALL ".join(branches)
    held: dict[int, int] = {int(i): int(n) for i, n in conn.execute(text(
        f"SELECT i, count(*) FROM ({postings}) AS p GROUP BY i"), params)}
    if not held:
        return []
    idfs = [_idf(int(rows), held.get(i, 0)) for i in range(len(phrases))]
    avgdl = float(tokens) / float(rows) if rows else 1.0
    params.update(_score_values(idfs, avgdl))
    params["most"] = most
    where = ["TRUE"]
    if before_id is not None:
        where.append("message_id < :before")
        params["before"] = int(before_id)
    if not hidden_too:
        where.append("message_id NOT IN (SELECT id FROM message WHERE hidden)")
    sums = ", ".join(f"coalesce(sum(tf) FILTER (WHERE i = {i}), 0) AS f{i}"
                     for i in range(len(phrases)))
    best = [(int(mid), float(score)) for mid, score in conn.execute(text(
        f"SELECT message_id, {_score_sql(len(phrases), 'len')} AS score FROM "
        f"(SELECT message_id, max(len) AS len, {sums} FROM ({postings}) AS p "
        f"WHERE {' AND '.join(where)} GROUP BY message_id) AS p "
        f"ORDER BY score, message_id DESC LIMIT :most"), params)]
    roles = {int(mid): str(role) for mid, role in conn.execute(
        text("SELECT id, role FROM message WHERE id = ANY(:ids)"),
        {"ids": [mid for mid, _s in best]})}
    return [(mid, roles[mid], score) for mid, score in best]


_VOICED_MARKS = ("\u3099", "\u309a")


def pair_indexed(term: str) -> bool:
    """Whether every said message whose text holds ``term`` (two characters) holds it among
    its ``gram_tokens`` too, so that the postings find all of them: both characters of the
    pair index's Japanese class, left alone by NFKC and by lowering, and the second one
    not a kana that a following voiced mark composes with (か + ゛ is が under NFKC)."""
    return (len(term) == 2 and RUN.fullmatch(term) is not None and not term.isascii()
            and unicodedata.normalize("NFKC", term).lower() == term
            and term[0] not in _VOICED_MARKS
            and all(unicodedata.normalize("NFC", term[1] + mark) == term[1] + mark
                    for mark in _VOICED_MARKS))


def short_term_ids(session: Session, term: str, where: str, values: Mapping[str, object],
                   most: int) -> list[int]:
    """The newest ``most`` messages meeting ``where`` (a condition on ``m``) whose text holds
    ``term`` (one or two characters) as SQLite's ``LIKE`` finds it (ASCII letters in any
    case: ``lower`` under the C collation folds only those). A Japanese pair the postings
    hold whole (``pair_indexed``) is looked up there and checked against the text; any
    other term scans every message (no trigram holds fewer than three characters)."""
    params = dict(values, like=like_pattern(term), most=most)
    matching = "lower(m.text COLLATE \"C\") LIKE lower(:like COLLATE \"C\")"
    if pair_indexed(term):
        params["pair"] = term
        matching = ("m.id IN (SELECT message_id FROM message_gram WHERE term = :pair) "
                    f"AND {matching}")
    return [int(mid) for (mid,) in session.connection().execute(text(
        f"SELECT m.id FROM message m WHERE {matching} AND {where} "
        "ORDER BY m.id DESC LIMIT :most"), params)]


def trigrams_starting(session: Session, term: str, most: int) -> list[str] | None:
    """The index's trigrams that start with ``term`` (two characters), in the index's
    order (UTF-8 bytes), or None when there are more than ``most``."""
    low = fold(term)
    found: set[str] = set()
    for (body,) in session.connection().execute(
            text("SELECT folded FROM message WHERE folded LIKE :like"),
            {"like": like_pattern(low)}):
        at = body.find(low)
        while at != -1:
            if at + 3 <= len(body):
                found.add(body[at:at + 3])
            at = body.find(low, at + 1)
    if len(found) > most:
        return None
    return sorted(found, key=lambda t: t.encode("utf-8"))


def document_counts(session: Session, terms: Sequence[str]) -> dict[str, int]:
    """How many said messages hold each of ``terms`` among their ``gram_tokens``."""
    if not terms:
        return {}
    return {str(term): int(n) for term, n in session.connection().execute(text(
        "SELECT term, count(*) FROM message_gram WHERE term = ANY(:terms) GROUP BY term"),
        {"terms": sorted(set(terms))})}
