"""The one narrow protocol for "the model".

A model takes a request body (the exact keyword arguments of ``messages.stream``) and
yields events: pieces of text, tool calls, and one final ``Completed`` with the usage.
The Anthropic gateway and ``StandInModel`` both satisfy it, so a replay runs the same
code path that talks to Claude.

The body's shape is typed here (``RequestBody``), beside the protocol that takes it:
the chat body (``cms.context.prompt``) and the librarian's bodies are built to it.
"""

from __future__ import annotations

import json
from collections.abc import Generator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, NotRequired, Protocol, TypeAlias, TypedDict

from cms.attachments import block_tokens
from cms.tokens import TokenEstimator
from storage.models import MessageRole


class CacheControl(TypedDict):
    """A cache breakpoint; without ``ttl`` the API's default lifetime (5 minutes)."""

    type: Literal["ephemeral"]
    ttl: NotRequired[Literal["1h"]]


class TextBlock(TypedDict):
    type: Literal["text"]
    text: str
    cache_control: NotRequired[CacheControl]


class ToolResultBlock(TypedDict):
    type: Literal["tool_result"]
    tool_use_id: str
    content: str | list[dict[str, Any]]  # text, or blocks (a file: view_attachment)
    is_error: NotRequired[bool]
    cache_control: NotRequired[CacheControl]


#: A message's content block: text MONET writes, or a block kept exactly as the API gave
#: it or as it was stored (``tool_use``, ``tool_result`` ...).
ContentBlock: TypeAlias = TextBlock | dict[str, Any]
#: The API's two roles; a stored ``tool`` row becomes an assistant and a user turn.
ApiRole: TypeAlias = Literal[MessageRole.USER, MessageRole.ASSISTANT]


class MessageParam(TypedDict):
    role: ApiRole
    content: list[ContentBlock]


class ToolDefinition(TypedDict):
    name: str
    description: str
    input_schema: dict[str, Any]


class RequestBody(TypedDict):
    """The keyword arguments of ``messages.stream``, in the order MONET writes them."""

    model: str
    max_tokens: int
    tools: NotRequired[list[ToolDefinition]]
    system: list[TextBlock]
    messages: list[MessageParam]


@dataclass(frozen=True)
class Usage:
    input_tokens: int = 0
    cache_creation_input_tokens: int = 0
    cache_read_input_tokens: int = 0
    output_tokens: int = 0
    cache_creation_5m: int = 0
    cache_creation_1h: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "input_tokens": self.input_tokens,
            "cache_creation_input_tokens": self.cache_creation_input_tokens,
            "cache_read_input_tokens": self.cache_read_input_tokens,
            "output_tokens": self.output_tokens,
            "cache_creation": {
                "ephemeral_5m_input_tokens": self.cache_creation_5m,
                "ephemeral_1h_input_tokens": self.cache_creation_1h,
            },
        }


@dataclass(frozen=True)
class TextDelta:
    text: str


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    input: dict[str, Any]


@dataclass(frozen=True)
class Completed:
    stop_reason: str
    usage: Usage
    content: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class Started:
    """The usage the API reports as a stream starts (``message_start``): the input is
    billed from here, so a reply cut or stopped later still has its ledger line."""

    usage: Usage


ModelEvent = TextDelta | ToolCall | Completed | Started


class ChatModel(Protocol):
    """Claude, or a stand-in for it. ``usage_source`` names where usage figures come from
    in the ledger (``api`` or ``standin``)."""

    usage_source: str

    def stream(self, body: RequestBody) -> Generator[ModelEvent, None, None]:
        """Send one request body; closing the generator ends the HTTP stream."""
        ...

    def close(self) -> None:
        """Release connections (the SDK's HTTP pool); the model is not used afterwards."""
        ...


def body_text_tokens(estimator: TokenEstimator, body: Mapping[str, Any]) -> int:
    """A token estimate for a whole request body (tools, system, messages); any body
    the API takes (a string system prompt or content too)."""
    pictures = 0
    parts: list[str] = [json.dumps(body.get("tools", []), ensure_ascii=False)]
    system = body.get("system", [])
    if isinstance(system, str):
        parts.append(system)
    else:
        parts.extend(str(b.get("text", "")) for b in system)
    for message in body.get("messages", []):
        content = message["content"]
        if isinstance(content, str):
            parts.append(content)
            continue
        for block in content:
            if block.get("type") == "text":
                parts.append(block["text"])
            elif (attached := block_tokens(block, estimator.count)) is not None:
                pictures += attached  # by pixels or pages, not its base64
            else:
                parts.append(json.dumps(block, ensure_ascii=False))
    return pictures + sum(estimator.count(p) for p in parts)
