"""The request body, exactly as design section 2 lays it out.

tools -> system [pinned | context (left out while empty) | Timeline Index] -> messages.
Cache breakpoints: end of the pinned block and end of the TI (1 hour), and the newest
turn (5 minutes, rolling). The body is a pure function of stored data: nothing here
reads a clock or a counter, so a restart rebuilds the same bytes.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from typing import Any

from cms.clock import parse_ts
from storage.models import Message

TURN_CACHE = {"type": "ephemeral"}


def cache_marker(ttl: str) -> dict[str, str]:
    """A breakpoint; "5m" is the API's default lifetime, so it carries no ttl field."""
    return {"type": "ephemeral", "ttl": "1h"} if ttl == "1h" else {"type": "ephemeral"}


def user_turn_text(tab_label: str, ts: str, text: str) -> str:
    """What Claude reads for a person's message: its tab label and local time first."""
    return f"[{tab_label} {parse_ts(ts).strftime('%H:%M')}]\n{text}"


def message_turns(message: Message) -> list[tuple[str, list[dict[str, Any]]]]:
    if message.role == "user":
        return [
            (
                "user",
                [{"type": "text", "text": user_turn_text(message.tab_label, message.ts, message.text)}],
            )
        ]
    if message.role == "assistant":
        if not message.text:
            return []  # the API rejects empty text blocks
        return [("assistant", [{"type": "text", "text": message.text}])]
    data = json.loads(message.content_json or "{}")
    call = [b for b in data.get("call", []) if not (b.get("type") == "text" and not b.get("text"))]
    result = data.get("result", [])
    turns: list[tuple[str, list[dict[str, Any]]]] = []
    if call:
        turns.append(("assistant", call))
    if result:
        turns.append(("user", result))
    return turns


def build_messages(raw: Sequence[Message]) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    for message in raw:
        for role, blocks in message_turns(message):
            blocks = copy.deepcopy(blocks)
            if messages and messages[-1]["role"] == role:
                messages[-1]["content"].extend(blocks)  # consecutive turns of one role merge
            else:
                messages.append({"role": role, "content": blocks})
    if messages and messages[0]["role"] != "user":
        # Only possible after a flag switch left a reply without its question.
        messages.insert(0, {"role": "user", "content": [{"type": "text", "text": "（続き）"}]})
    if messages:
        messages[-1]["content"][-1]["cache_control"] = dict(TURN_CACHE)
    return messages


def build_body(
    *,
    model: str,
    max_tokens: int,
    tools: Sequence[dict[str, Any]],
    pinned: str,
    context: str,
    timeline: str,
    raw: Sequence[Message],
    pinned_ttl: str = "1h",
    ti_ttl: str = "1h",
) -> dict[str, Any]:
    system: list[dict[str, Any]] = [
        {"type": "text", "text": pinned, "cache_control": cache_marker(pinned_ttl)}
    ]
    if context.strip():
        system.append({"type": "text", "text": context})
    system.append({"type": "text", "text": timeline, "cache_control": cache_marker(ti_ttl)})
    return {
        "model": model,
        "max_tokens": max_tokens,
        "tools": copy.deepcopy(list(tools)),
        "system": system,
        "messages": build_messages(raw),
    }


def flatten_blocks(body: dict[str, Any]) -> list[Any]:
    """replay.md's comparison: tools, system blocks, every message block; no cache_control."""

    def strip(block: Any) -> Any:
        if isinstance(block, dict):
            return {k: v for k, v in block.items() if k != "cache_control"}
        return block

    blocks: list[Any] = [strip(t) for t in body.get("tools", [])]
    system = body.get("system", [])
    if isinstance(system, str):
        blocks.append({"type": "text", "text": system})
    else:
        blocks.extend(strip(b) for b in system)
    for message in body.get("messages", []):
        content = message["content"]
        if isinstance(content, str):
            blocks.append(("msg", message["role"], {"type": "text", "text": content}))
        else:
            blocks.extend(("msg", message["role"], strip(b)) for b in content)
    return blocks


def extends(earlier: dict[str, Any], later: dict[str, Any]) -> bool:
    """True when ``later`` repeats ``earlier`` block for block and only appends."""
    for key in set(earlier) | set(later):
        if key in ("system", "messages", "tools"):
            continue
        if earlier.get(key) != later.get(key):
            return False
    if [strip_cc(t) for t in earlier.get("tools", [])] != [
        strip_cc(t) for t in later.get("tools", [])
    ]:
        return False
    a, b = flatten_blocks(earlier), flatten_blocks(later)
    return len(a) <= len(b) and b[: len(a)] == a


def strip_cc(block: Any) -> Any:
    if isinstance(block, dict):
        return {k: v for k, v in block.items() if k != "cache_control"}
    return block
