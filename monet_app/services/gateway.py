"""Claude through the official ``anthropic`` SDK, behind MONET's model protocol.

``AnthropicModel.stream(body)`` calls ``client.messages.stream(**body)`` and yields text
as it arrives, then the tool calls and one ``Completed`` with the usage Anthropic
reported (uncached input, cache writes 5m / 1h, cache reads, output). Every failure
becomes a ``ModelError`` whose message a person can act on; the key never appears in it.
The SDK retries 408/409/429/5xx itself (``max_retries``), honouring ``retry-after``.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import anthropic

from cms.model.errors import (
    AuthError,
    MissingKeyError,
    ModelError,
    PromptTooLongError,
    RateLimitedError,
)
from cms.model.protocol import (
    Completed,
    ModelEvent,
    RequestBody,
    Started,
    TextDelta,
    ToolCall,
    Usage,
)
from monet_app.services.keys import broken_key, load_api_key, redact


def make_client(
    api_key: str | None = None,
    *,
    base_url: str | None = None,
    max_retries: int = 2,
    timeout: float = 600.0,
) -> anthropic.Anthropic:
    """A client from the environment (``ANTHROPIC_BASE_URL`` honoured by the SDK)."""
    key = api_key
    if key is None:
        key, _source = load_api_key()
    if not key:
        raise MissingKeyError(
            "No Anthropic API key. Paste one in the window (or Settings), or set "
            "ANTHROPIC_API_KEY. Your messages are kept; Claude answers once a key is set."
        )
    if broken_key(key):  # (never echoed)
        raise AuthError("The API key has a space or a line break inside it. Set it again on "
                        "one line (Settings, or the ANTHROPIC_API_KEY variable).")
    kwargs: dict[str, Any] = {"api_key": key, "max_retries": max_retries, "timeout": timeout}
    if base_url:
        kwargs["base_url"] = base_url
    return anthropic.Anthropic(**kwargs)


def _usage(raw: Any) -> Usage:
    if raw is None:
        return Usage()
    creation = getattr(raw, "cache_creation", None)
    five = int(getattr(creation, "ephemeral_5m_input_tokens", 0) or 0) if creation else 0
    hour = int(getattr(creation, "ephemeral_1h_input_tokens", 0) or 0) if creation else 0
    return Usage(
        input_tokens=int(getattr(raw, "input_tokens", 0) or 0),
        cache_creation_input_tokens=int(getattr(raw, "cache_creation_input_tokens", 0) or 0),
        cache_read_input_tokens=int(getattr(raw, "cache_read_input_tokens", 0) or 0),
        output_tokens=int(getattr(raw, "output_tokens", 0) or 0),
        cache_creation_5m=five,
        cache_creation_1h=hour,
    )


def _block_dict(block: Any) -> dict[str, Any]:
    """A content block as it must be sent back in the next request."""
    kind = getattr(block, "type", "")
    if kind == "text":
        return {"type": "text", "text": block.text}
    if kind == "tool_use":
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": dict(block.input)}
    data: dict[str, Any] = block.model_dump(mode="json", exclude_none=True)
    return data


def _api_message(exc: anthropic.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        error = body.get("error")
        if isinstance(error, dict) and error.get("message"):
            return str(error["message"])
    return str(exc.message)


class AnthropicModel:
    """The real model. Thread-confined: one stream at a time per instance."""

    usage_source = "api"

    def __init__(self, client: anthropic.Anthropic) -> None:
        self.client = client

    def close(self) -> None:
        """Close the HTTP connections (the SDK keeps a pool)."""
        self.client.close()

    def stream(self, body: RequestBody) -> Generator[ModelEvent, None, None]:
        key = self.client.api_key
        # MONET's body types are its own, not the SDK's: hand the SDK plain keywords.
        kwargs: dict[str, Any] = dict(body)
        streaming = False  # the reply had begun: a lost connection now is a cut reply
        try:
            with self.client.messages.stream(**kwargs) as stream:
                for event in stream:
                    streaming = True
                    if event.type == "text" and event.text:
                        yield TextDelta(event.text)
                    elif event.type == "message_start":
                        yield Started(_usage(event.message.usage))
                final = stream.get_final_message()
        except anthropic.APIStatusError as exc:
            raise self._status_error(exc, key) from None
        except anthropic.APITimeoutError:
            raise ModelError(
                "Claude did not answer in time (timeout). Your message is saved; try again.",
                retryable=True, code="timeout",
            ) from None
        except anthropic.APIConnectionError as exc:
            if streaming:  # (newer SDKs wrap a broken stream's read error this way)
                raise ModelError(
                    "The reply broke off ({kind}); what arrived is kept and marked incomplete.",
                    kind=(exc.__cause__ or exc).__class__.__name__, retryable=True,
                    code="cut") from None
            raise ModelError(
                "No connection to Anthropic (network down or unreachable: {detail}). Your message "
                "is saved; MONET keeps working offline and you can retry.",
                detail=redact(str(exc.__cause__ or exc), key), retryable=True,
                code="connection") from None
        except anthropic.AnthropicError as exc:
            raise ModelError("The Anthropic SDK failed: {detail}", detail=redact(str(exc), key),
                             code="sdk") from None
        except Exception as exc:  # noqa: BLE001 - a stream that broke off mid-reply
            raise ModelError(
                "The reply broke off ({kind}); what arrived is kept and "
                "marked incomplete.", kind=exc.__class__.__name__,
                retryable=True, code="cut",
            ) from None
        if final.stop_reason is None:
            # the stream ended without message_delta/message_stop: Claude did not finish
            raise ModelError(
                "The reply stopped before Claude finished it (the stream ended early); what "
                "arrived is kept and marked incomplete.",
                retryable=True, code="ended_early",
            )
        if final.stop_reason == "model_context_window_exceeded" and not final.content:
            raise PromptTooLongError("prompt is too long for the model's context window")
        content = [_block_dict(b) for b in final.content]
        for block in content:
            if block["type"] == "tool_use":
                yield ToolCall(id=block["id"], name=block["name"], input=block["input"])
        yield Completed(str(final.stop_reason), _usage(final.usage), content)

    @staticmethod
    def _status_error(exc: anthropic.APIStatusError, key: str | None) -> ModelError:
        text = redact(_api_message(exc), key)
        status = exc.status_code
        if status == 400 and "prompt is too long" in text.lower():
            return PromptTooLongError("{too_long}", too_long=text)  # (the API's own words)
        if status == 401:
            return AuthError(
                "The Anthropic API key was refused (401). Check the key in Settings or "
                "ANTHROPIC_API_KEY; your message is saved."
            )
        if status == 403:
            return AuthError(
                "This API key may not do that (403): {text}", text=text, code="forbidden")
        if status == 429:
            retry_after = exc.response.headers.get("retry-after")
            wait = (
                float(retry_after)
                if retry_after and retry_after.replace(".", "").isdigit()
                else None
            )
            if wait:
                return RateLimitedError(
                    "Anthropic's rate limit was reached (429) after retries. Try again in "
                    "{wait:.0f} s; your message is saved.", wait, wait=wait)
            return RateLimitedError(
                "Anthropic's rate limit was reached (429) after retries. Try again in a "
                "minute; your message is saved.", wait)
        if status == 529:
            return ModelError(
                "Claude is overloaded right now (529). Your message is saved; try again shortly.",
                retryable=True, code="overloaded",
            )
        if status == 413:
            return ModelError("The request is too large for the API (413): {text}", text=text,
                              code="too_large")
        if status >= 500:
            return ModelError(
                "Anthropic had a server error ({status}). Your message is saved; try again.",
                status=status, retryable=True, code="server")
        return ModelError(
            "Anthropic refused the request ({status}): {text}", status=status, text=text)
