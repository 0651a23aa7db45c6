"""The request body, exactly as design section 2 lays it out.

tools -> system [pinned | TI head | TI tail (while there is one) | context] -> messages.
Cache breakpoints: the end of the pinned block, of the TI's head and of its tail (1
hour), and the newest turn (rolling; 5 minutes or 1 hour, from the person's pauses:
``cms/context/rhythm.py``): four at most. The TI comes before the
context block, and its head stays byte-identical from one sunset to the next (no date in
it; new lines go to the tail), so a sunset reads the head from the cache and writes only
the tail, the context block (today's date and the notes about the person) and today's
turns. The body is a pure function of stored data: nothing here reads a clock or a
counter, so a restart rebuilds the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from cms.attachments import content_block
from cms.clock import hhmm
from cms.model.protocol import (
    ApiRole,
    CacheControl,
    ContentBlock,
    MessageParam,
    RequestBody,
    TextBlock,
    ToolDefinition,
)
from storage import attachments as attachment_files
from storage.attachments import Attached
from storage.models import MessageRole, MessageStatus
from storage.talk import Talk

TURN_CACHE: CacheControl = {"type": "ephemeral"}
#: Appended to a reply that broke off or was stopped, wherever it is carried (decision:
#: carried with a note rather than left out, so "go on" can continue where it stopped).
INTERRUPTED_NOTE = "\n\n[この返答はここで途切れました / this reply was interrupted here]"


def cache_marker(ttl: str) -> CacheControl:
    """A breakpoint; "5m" is the API's default lifetime, so it carries no ttl field."""
    return {"type": "ephemeral", "ttl": "1h"} if ttl == "1h" else {"type": "ephemeral"}


def user_turn_text(tab_label: str, ts: str, text: str) -> str:
    """What Claude reads for a person's message: its tab label and local time first."""
    return f"[{tab_label} {hhmm(ts)}]\n{text}"


def message_turns(message: Talk, attached: tuple[Attached, ...] = ()
                  ) -> list[tuple[ApiRole, list[ContentBlock]]]:
    if message.role == MessageRole.USER:
        text = user_turn_text(message.tab_label, message.ts, message.text)
        # pictures and documents first, then the words, as Anthropic advises
        blocks: list[ContentBlock] = [_attachment_block(a) for a in attached]
        return [(MessageRole.USER, [*blocks, {"type": "text", "text": text}])]
    if message.role == MessageRole.ASSISTANT:
        if not message.text:
            return []  # the API rejects empty text blocks
        text = message.text
        if message.status == MessageStatus.INCOMPLETE:
            text += INTERRUPTED_NOTE  # Claude must not read a cut reply as one it finished
        return [(MessageRole.ASSISTANT, [{"type": "text", "text": text}])]
    data = json.loads(message.content_json or "{}")
    call = [b for b in data.get("call", []) if not (b.get("type") == "text" and not b.get("text"))]
    files = iter(attached)  # a file a tool brought back: its block, built from the file
    result = [_with_files(b, files) for b in data.get("result", [])]
    turns: list[tuple[ApiRole, list[ContentBlock]]] = []
    if call:
        turns.append((MessageRole.ASSISTANT, call))
    if result:
        turns.append((MessageRole.USER, result))
    return turns


def _with_files(block: Any, files: Any) -> Any:
    """A stored tool result with each file reference (``storage.attachments.REF``)
    replaced by the file's block."""
    content = block.get("content") if isinstance(block, dict) else None
    if not isinstance(content, list) or not any(
            isinstance(c, dict) and c.get("type") == attachment_files.REF for c in content):
        return block
    shown = []
    for item in content:
        if isinstance(item, dict) and item.get("type") == attachment_files.REF:
            found = next(files, None)
            shown.append(_attachment_block(found) if found is not None else {
                "type": "text", "text": f"[{item.get('name', '')}: not kept]"})
        else:
            shown.append(item)
    return {**block, "content": shown}


@lru_cache(maxsize=64)
def _attachment_block(attached: Attached) -> ContentBlock:
    """An attachment's block, built once from its stored bytes: every later request of
    the day carries the same object, so the same bytes (the prefix keeps hitting)."""
    try:
        sent = attachment_files.read(Path(attached.home), attached.sha256)
    except FileNotFoundError:  # (a backup restored after the file was forgotten)
        return {"type": "text", "text": f"[{attached.name}: この添付は保存されていません / "
                                        "this attachment is no longer kept]"}
    return content_block(attached.media_type, sent, attached.name)


@lru_cache(maxsize=1024)  # today's raw turns (the ceiling folds the rest away)
def _turns_of(message: Talk, attached: tuple[Attached, ...] = ()
              ) -> tuple[tuple[ApiRole, tuple[ContentBlock, ...]], ...]:
    """``message_turns``, remembered for each stored message as it is (a ``Talk`` is a
    frozen value: an edited message is a different key). The blocks are shared by every
    body that carries the message: a body is never changed once built."""
    return tuple((role, tuple(blocks)) for role, blocks in message_turns(message, attached))


def build_messages(raw: Sequence[Talk],
                   attached: Mapping[int, tuple[Attached, ...]] | None = None,
                   turn_ttl: str = "5m") -> list[MessageParam]:
    """The conversation's turns; ``attached``: the files of the person's messages, by
    message id (``storage.attachments.of_messages``); ``turn_ttl``: the lifetime of the
    breakpoint on the newest turn (``cms/context/rhythm.py``)."""
    attached = attached or {}
    messages: list[MessageParam] = []
    for message in raw:
        if message.hidden:
            continue  # forgotten: kept for the person, never sent
        for role, blocks in _turns_of(message, attached.get(message.id, ())):
            if messages and messages[-1]["role"] == role:
                messages[-1]["content"].extend(blocks)  # consecutive turns of one role merge
            else:
                messages.append({"role": role, "content": list(blocks)})
    if messages and messages[0]["role"] != MessageRole.USER:
        # Only possible after a flag switch left a reply without its question.
        opening: TextBlock = {"type": "text", "text": "（続き）"}
        messages.insert(0, {"role": MessageRole.USER, "content": [opening]})
    if messages:
        content = messages[-1]["content"]
        # a copy of the shared block, with the breakpoint
        content[-1] = {**content[-1], "cache_control": cache_marker(turn_ttl)}
    return messages


def build_body(
    *,
    model: str,
    max_tokens: int,
    tools: Sequence[ToolDefinition],
    pinned: str,
    context: str,
    timeline: tuple[str, str],
    raw: Sequence[Talk],
    pinned_ttl: str = "1h",
    ti_ttl: str = "1h",
    attached: Mapping[int, tuple[Attached, ...]] | None = None,
    turn_ttl: str = "5m",
) -> RequestBody:
    head, tail = timeline
    system: list[TextBlock] = [
        {"type": "text", "text": pinned, "cache_control": cache_marker(pinned_ttl)},
        {"type": "text", "text": head, "cache_control": cache_marker(ti_ttl)},
    ]
    if tail:
        system.append({"type": "text", "text": tail, "cache_control": cache_marker(ti_ttl)})
    if context.strip():
        system.append({"type": "text", "text": context})
    return {
        "model": model,
        "max_tokens": max_tokens,
        "tools": list(tools),  # shared, as the turns' blocks are: a body is never changed
        "system": system,
        "messages": build_messages(raw, attached, turn_ttl),
    }


def system_parts(body: Mapping[str, Any]) -> tuple[str, str, str]:
    """(pinned, Timeline Index, context) of a body's system blocks; the TI's head and tail
    joined back into one text."""
    texts = [block["text"] for block in body["system"]]
    if len(texts) < 3:  # no context block
        return texts[0], "\n".join(texts[1:]), ""
    return texts[0], "\n".join(texts[1:-1]), texts[-1]


def flatten_blocks(body: Mapping[str, Any]) -> list[Any]:
    """replay.md's comparison: tools, system blocks, every message block; no cache_control.
    Any body (one read back from a request log too)."""

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


def extends(earlier: Mapping[str, Any], later: Mapping[str, Any]) -> bool:
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
