"""A simulation of Anthropic's prompt cache, so a replay reports usage as the API would.

The rules (``anthropic-caching.md``): the prefix is tools -> system -> messages; each
block carrying ``cache_control`` is a breakpoint (at most 4) that writes one entry, a
hash of everything up to it; a later request reads the longest prefix that is
byte-identical to a live entry, where each breakpoint looks back at most 20 positions
for one (a run of tool_use or of tool_result blocks counts as one position); prefixes
shorter than the model's minimum are not cached at all; entries live 5 minutes or 1
hour from the start of the request that wrote or last read them (a hit refreshes).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from cms.attachments import block_tokens
from cms.model.protocol import Usage
from cms.tokens import TokenEstimator, count_by_lines

LOOKBACK_POSITIONS = 20
MAX_BREAKPOINTS = 4

# Minimum cacheable prefix in tokens, by model-name prefix (longest match wins).
MIN_CACHEABLE: dict[str, int] = {
    "claude-sonnet-4-5": 1024,
    "claude-sonnet-4-6": 1024,
    "claude-sonnet-5": 1024,
    "claude-opus-4-1": 1024,
    "claude-opus-4-8": 1024,
    "claude-haiku-3-5": 2048,
    "claude-opus-4-7": 2048,
    "claude-haiku-4-5": 4096,
    "claude-opus-4-5": 4096,
    "claude-opus-4-6": 4096,
    "claude-opus-5": 512,
}
DEFAULT_MIN_CACHEABLE = 1024
_CHAIN_MAX = 50_000
_CANON_MAX = 10_000  # non-text blocks held (a tool result's copy is new at each request)


@lru_cache(maxsize=16)
def _model_digest(model: str) -> str:
    """The hash every prefix starts from: the model's (a cache is the model's own)."""
    return hashlib.sha256(json.dumps(model).encode()).hexdigest()


def min_cacheable(model: str) -> int:
    best = ""
    for prefix in MIN_CACHEABLE:
        if model.startswith(prefix) and len(prefix) > len(best):
            best = prefix
    return MIN_CACHEABLE[best] if best else DEFAULT_MIN_CACHEABLE


@dataclass(frozen=True)
class _Block:
    digest: str  # hash of the prefix up to and including this block
    tokens: int  # tokens of this block
    kind: str  # block type, for the lookback's position counting
    ttl: timedelta | None  # set on breakpoints


class PromptCacheSimulator:
    """Holds cache entries across requests; ``usage`` prices one request against them."""

    def __init__(self, estimator: TokenEstimator) -> None:
        self.estimator = estimator
        # prefix hash -> (expiry, lifetime); a hit refreshes the expiry by the lifetime
        self._entries: dict[str, tuple[datetime, timedelta]] = {}
        # (previous prefix hash, block key) -> (this prefix's hash, the block's tokens)
        self._chain: dict[tuple[Any, ...], tuple[str, int]] = {}
        # block key -> (the block's own hash, its tokens): a block is hashed and counted
        # once, whichever prefix it follows (a changed Timeline Index puts every turn
        # after it behind a new prefix)
        self._own: dict[tuple[Any, ...], tuple[str, int]] = {}
        # id of a block that is not plain text -> (the block, its role, its canonical JSON);
        # the block is held, so its id is not reused (blocks are never changed once built)
        self._canon: dict[int, tuple[Mapping[str, Any], str, str]] = {}

    def _blocks(self, body: Mapping[str, Any]) -> list[_Block]:
        """Each block with the hash of the prefix up to it. A prefix's hash is the hash of
        the previous prefix's hash and the block's own hash, remembered (``_chain``): a
        replay sends the same prefix again at every request, and hashes only what is new;
        a block's own hash and tokens are remembered apart (``_own``), so a block behind a
        new prefix is neither hashed whole nor counted again."""
        prev = _model_digest(str(body.get("model", "")))
        raw: list[tuple[str, Mapping[str, Any]]] = [("", t) for t in body.get("tools", [])]
        system = body.get("system", [])
        if isinstance(system, str):
            raw.append(("", {"type": "text", "text": system}))
        else:
            raw.extend(("", b) for b in system)
        for message in body.get("messages", []):
            content = message["content"]
            if isinstance(content, str):
                content = [{"type": "text", "text": content}]
            raw.extend((message["role"], block) for block in content)
        if len(self._chain) >= _CHAIN_MAX:
            self._chain.clear()
            self._own.clear()
        if len(self._canon) >= _CANON_MAX:
            self._canon.clear()
        blocks: list[_Block] = []
        for role, block in raw:
            control = block.get("cache_control")
            kind = str(block.get("type", ""))
            plain = kind == "text" and len(block) - (control is not None) == 2
            # a plain text block (most of a body) is keyed by its role and text; any other
            # by its JSON (which starts with "{", so the two never meet)
            own_key = (role, block.get("text")) if plain else (self._canonical(role, block),)
            key = (prev, *own_key)
            found = self._chain.get(key)
            if found is None:
                own = self._own.get(own_key)
                if own is None:
                    own = self._own[own_key] = self._hash_and_count(role, block, kind, plain,
                                                                    own_key)
                digest = hashlib.sha256(f"{prev}\x1e{own[0]}".encode()).hexdigest()
                found = self._chain[key] = (digest, own[1])
            prev = found[0]
            ttl = None
            if control is not None:
                ttl = timedelta(hours=1) if control.get("ttl") == "1h" else timedelta(minutes=5)
            blocks.append(_Block(prev, found[1], kind, ttl))
        return blocks

    def _hash_and_count(self, role: str, block: Mapping[str, Any], kind: str, plain: bool,
                        own_key: tuple[Any, ...]) -> tuple[str, int]:
        """A block's own hash and its tokens."""
        if plain:
            text = str(block.get("text", ""))
            # a system block (the TI's head and tail, the context) by its lines, exactly
            # (tokens.count_by_lines), as the context manager counts them: a new TI encodes
            # only its new lines; a turn's text as a whole, as its token estimate was counted
            tokens = (count_by_lines(self.estimator, text) if not role
                      else self.estimator.count(text))
            data = f"T\x1f{role}\x1f{text}"
        else:
            data = str(own_key[0])
            shown = block.get("text") if kind == "text" else None
            attached = block_tokens(block, self.estimator.count)  # a picture, a document
            tokens = attached if attached is not None else self.estimator.count(
                shown if isinstance(shown, str) else data)
        return hashlib.sha256(data.encode()).hexdigest(), tokens

    def _canonical(self, role: str, block: Mapping[str, Any]) -> str:
        held = self._canon.get(id(block))
        if held is not None and held[0] is block and held[1] == role:
            return held[2]
        shown = {k: v for k, v in block.items() if k != "cache_control"}
        if role:
            shown["_role"] = role
        canonical = json.dumps(shown, ensure_ascii=False, sort_keys=True)
        self._canon[id(block)] = (block, role, canonical)
        return canonical

    def usage(self, body: Mapping[str, Any], now: datetime, output_tokens: int = 0) -> Usage:
        blocks = self._blocks(body)
        breakpoints = [i for i, b in enumerate(blocks) if b.ttl is not None]
        if len(breakpoints) > MAX_BREAKPOINTS:
            raise ValueError(
                f"A request may carry at most {MAX_BREAKPOINTS} cache breakpoints, "
                f"this one has {len(breakpoints)}."
            )
        cumulative: list[int] = []
        total = 0
        for block in blocks:
            total += block.tokens
            cumulative.append(total)
        minimum = min_cacheable(str(body.get("model", "")))

        def live(index: int) -> bool:
            entry = self._entries.get(blocks[index].digest)
            return entry is not None and entry[0] > now

        # The longest live prefix any breakpoint can reach with its lookback.
        hit = -1
        for bp in breakpoints:
            position_count = 0
            index = bp
            while index >= 0 and position_count < LOOKBACK_POSITIONS:
                if live(index):
                    hit = max(hit, index)
                    break
                previous_kind = blocks[index].kind
                index -= 1
                in_tool_run = (
                    index >= 0
                    and previous_kind in ("tool_use", "tool_result")
                    and blocks[index].kind == previous_kind
                )
                if not in_tool_run:
                    position_count += 1
        read = cumulative[hit] if hit >= 0 else 0
        # A hit refreshes the entry it read and the live entries inside that prefix.
        for index in [hit, *[bp for bp in breakpoints if bp < hit]]:
            if index >= 0 and live(index):
                expiry, lifetime = self._entries[blocks[index].digest]
                self._entries[blocks[index].digest] = (max(expiry, now + lifetime), lifetime)

        # Breakpoints past the hit write new entries, if long enough to be cached.
        write_5m = write_1h = 0
        written_to = hit
        for bp in breakpoints:
            if bp <= hit or cumulative[bp] < minimum:
                continue
            segment = cumulative[bp] - (cumulative[written_to] if written_to >= 0 else 0)
            ttl = blocks[bp].ttl or timedelta(minutes=5)
            if ttl >= timedelta(hours=1):
                write_1h += segment
            else:
                write_5m += segment
            self._entries[blocks[bp].digest] = (now + ttl, ttl)
            written_to = bp
        uncached = total - read - write_5m - write_1h
        return Usage(
            input_tokens=uncached,
            cache_creation_input_tokens=write_5m + write_1h,
            cache_read_input_tokens=read,
            output_tokens=output_tokens,
            cache_creation_5m=write_5m,
            cache_creation_1h=write_1h,
        )
