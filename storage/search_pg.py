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
  (``LIKE`` over ``lower(text)``, and over ``norm``, the NFKC-folded text a trigger keeps;
  a ``pg_trgm`` index serves both where the extension is there), and are checked here.
- **ranking**: FTS5's BM25 (k1 1.2, b 0.75; idf ``log((N - n + 0.5) / (n + 0.5))``, at
  least 1e-6; a document's length in tokens, the average over every row of the index) in
  the same floating-point operations, in the same order, so that scores (and so ties and
  their order: newest first) come out bit for bit as SQLite's. The rows' token counts
  (``trigrams``, ``grams``) are kept by a trigger, so N and the average length are two
  sums.

Where the two can differ: FTS5 folds the case of every letter, ``lower()`` of a server
in the C locale only ASCII's (so "ÉCOLE" is not found by "école" there); a UTF-8 locale
folds both.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from sqlalchemy import text
from sqlmodel import Session

from storage.grams import like_pattern

#: BM25's constants in FTS5 (fts5_aux.c).
K1 = 1.2
B = 0.75

_TRIGRAM_STATS = text("SELECT count(*), coalesce(sum(trigrams), 0) FROM message")
_GRAM_STATS = text("SELECT count(*), coalesce(sum(grams), 0) FROM message "
                   "WHERE role IN ('user', 'assistant')")
_RAW_CANDIDATES = text(
    "SELECT id, text FROM message WHERE lower(text) LIKE ANY(:patterns)")


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
        score += idf * (freq * (K1 + 1.0)) / (freq + K1 * (1 - B + B * length / avgdl))
    return -1.0 * score


def _idf(rows: int, hits: int) -> float:
    idf = math.log((rows - hits + 0.5) / (hits + 0.5))
    return idf if idf > 0.0 else 1e-6


def _ranked(scored: Iterable[tuple[int, float]], most: int) -> list[tuple[int, float]]:
    """Best first (bm25 is negative: lower is better), ties newest first, as ``ORDER BY
    bm25(...), rowid DESC``."""
    return sorted(scored, key=lambda pair: (pair[1], -pair[0]))[:most]


def trigram_matches(session: Session, terms: Sequence[str], most: int
                    ) -> list[tuple[int, float]]:
    """(id, bm25) of the ``most`` best messages (any role: the index holds every row)
    matching any of ``terms`` (three characters or more), as FTS5's trigram index ranks
    ``"t1" OR "t2" ...``."""
    folded = [fold(t) for t in terms]
    if not folded:
        return []
    conn = session.connection()
    rows, tokens = conn.execute(_TRIGRAM_STATS).one()
    candidates = [(int(mid), fold(body)) for mid, body in conn.execute(
        _RAW_CANDIDATES, {"patterns": [like_pattern(t) for t in folded]})]
    freqs = {mid: [_occurrences(body, t) for t in folded] for mid, body in candidates}
    matched = {mid: f for mid, f in freqs.items() if any(f)}
    hits = [sum(1 for f in matched.values() if f[i]) for i in range(len(folded))]
    idfs = [_idf(int(rows), h) for h in hits]
    avgdl = float(tokens) / float(rows) if rows else 1.0
    lengths = {mid: max(len(body) - 2, 0) for mid, body in candidates}
    return _ranked(((mid, _bm25(f, idfs, lengths[mid], avgdl))
                    for mid, f in matched.items()), most)


def gram_matches(session: Session, phrases: Sequence[tuple[str, bool]], most: int
                 ) -> list[tuple[int, float]]:
    """(id, bm25) of the ``most`` best said messages holding any of ``phrases`` among
    their ``gram_tokens`` ((token, prefix): a prefix phrase matches every token starting
    with it), as FTS5's pair index ranks them: from the postings (``message_gram``), not
    the texts."""
    if not phrases:
        return []
    conn = session.connection()
    rows, tokens = conn.execute(_GRAM_STATS).one()
    exact = sorted({token for token, prefix in phrases if not prefix})
    starts = sorted({token for token, prefix in phrases if prefix})
    where = ["g.term = ANY(:exact)"] + [f"g.term LIKE :p{i}" for i in range(len(starts))]
    values: dict[str, object] = {"exact": exact}
    values.update({f"p{i}": like_pattern(t)[1:] for i, t in enumerate(starts)})  # (t%)
    postings: dict[int, dict[str, int]] = {}
    lengths: dict[int, int] = {}
    for mid, term, tf, length in conn.execute(text(
            "SELECT g.message_id, g.term, g.tf, m.grams FROM message_gram g "
            f"JOIN message m ON m.id = g.message_id WHERE {' OR '.join(where)}"), values):
        postings.setdefault(int(mid), {})[term] = int(tf)
        lengths[int(mid)] = int(length)
    found = []
    for mid, terms in postings.items():
        freq = [sum(tf for term, tf in terms.items() if term.startswith(token)) if prefix
                else terms.get(token, 0) for token, prefix in phrases]
        if any(freq):
            found.append((mid, freq, lengths[mid]))
    hits = [sum(1 for _m, f, _n in found if f[i]) for i in range(len(phrases))]
    idfs = [_idf(int(rows), h) for h in hits]
    avgdl = float(tokens) / float(rows) if rows else 1.0
    return _ranked(((mid, _bm25(f, idfs, n, avgdl)) for mid, f, n in found), most)


def trigrams_starting(session: Session, term: str, most: int) -> list[str] | None:
    """The index's trigrams that start with ``term`` (two characters), in the index's
    order (UTF-8 bytes), or None when there are more than ``most``."""
    low = fold(term)
    found: set[str] = set()
    for (body,) in session.connection().execute(
            text("SELECT text FROM message WHERE lower(text) LIKE :like"),
            {"like": like_pattern(low)}):
        body = fold(body)
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


#: The columns and the trigger that keep what the search needs on PostgreSQL
#: (``storage/schema_pg.py`` runs it): ``norm`` (the text as ``gram_tokens`` reads it:
#: NFKC, lowered), ``trigrams`` (the trigram index's length of a row) and ``grams`` (the
#: pair index's, for said messages).
SCHEMA = r"""
ALTER TABLE message ADD COLUMN norm TEXT NOT NULL DEFAULT '';
ALTER TABLE message ADD COLUMN trigrams INTEGER NOT NULL DEFAULT 0;
ALTER TABLE message ADD COLUMN grams INTEGER NOT NULL DEFAULT 0;

CREATE FUNCTION monet_gram_count(t TEXT) RETURNS INTEGER LANGUAGE sql IMMUTABLE AS $$
    SELECT coalesce(sum(CASE WHEN m[1] ~ '^[0-9a-z]+$' OR char_length(m[1]) = 1 THEN 1
                             ELSE char_length(m[1]) - 1 END), 0)::integer
    FROM regexp_matches(t,
        '[\u3005\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|[0-9a-z]+', 'g') AS m
$$;

CREATE FUNCTION monet_search_columns() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.norm := lower(normalize(NEW.text, NFKC));
    NEW.trigrams := greatest(char_length(NEW.text) - 2, 0);
    NEW.grams := CASE WHEN NEW.role IN ('user', 'assistant')
                      THEN monet_gram_count(NEW.norm) ELSE 0 END;
    RETURN NEW;
END $$;
CREATE TRIGGER message_search BEFORE INSERT OR UPDATE OF text, role ON message
    FOR EACH ROW EXECUTE FUNCTION monet_search_columns();

-- The pair index's postings: each said message's gram_tokens and how often each occurs
-- (storage/grams.py, here in SQL over the NFKC-folded text), kept by a trigger.
CREATE TABLE message_gram (
    term TEXT NOT NULL,
    message_id INTEGER NOT NULL,
    tf INTEGER NOT NULL,
    PRIMARY KEY (term, message_id)
);
CREATE INDEX ix_message_gram_message ON message_gram (message_id);
CREATE INDEX ix_message_gram_prefix ON message_gram (term text_pattern_ops);

CREATE FUNCTION monet_gram_postings(t TEXT) RETURNS TABLE (term TEXT, tf INTEGER)
LANGUAGE sql IMMUTABLE AS $$
    WITH runs AS (
        SELECT m[1] AS r FROM regexp_matches(t,
            '[\u3005\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|[0-9a-z]+', 'g')
            AS m),
    tokens AS (
        SELECT r AS token FROM runs WHERE r ~ '^[0-9a-z]+$' OR char_length(r) = 1
        UNION ALL
        SELECT substr(r, i, 2) FROM runs, generate_series(1, char_length(r) - 1) AS i
        WHERE r !~ '^[0-9a-z]+$' AND char_length(r) > 1)
    SELECT token, count(*)::integer FROM tokens GROUP BY token
$$;

CREATE FUNCTION monet_gram_index() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        DELETE FROM message_gram WHERE message_id = OLD.id;
    END IF;
    IF NEW.role IN ('user', 'assistant') THEN
        INSERT INTO message_gram (term, message_id, tf)
            SELECT p.term, NEW.id, p.tf FROM monet_gram_postings(NEW.norm) AS p;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER message_gram_index AFTER INSERT OR UPDATE OF text, role ON message
    FOR EACH ROW EXECUTE FUNCTION monet_gram_index();
"""

#: Made when the server has pg_trgm (its contrib package): the LIKE scans above then read
#: an index instead of every row. Without it they scan, and answer the same.
TRGM_INDEXES = (
    "CREATE INDEX ix_message_text_trgm ON message USING gin (lower(text) gin_trgm_ops)",
    "CREATE INDEX ix_message_norm_trgm ON message USING gin (norm gin_trgm_ops)",
)

