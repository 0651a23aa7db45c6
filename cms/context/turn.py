"""One turn of conversation: commit the message, ask the model, run tools, keep the reply.

The person's message is committed before any request leaves. A reply that breaks off
is kept and marked incomplete. "Prompt is too long" folds and retries once, never more.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field

from cms.attachments import Prepared
from cms.context.events import RequestLog
from cms.context.manager import ContextManager
from cms.context.tools import run_tool
from cms.meaning import Meaning
from cms.model.errors import ModelError, PromptTooLongError
from cms.model.ledger import UsageNote
from cms.model.protocol import (
    ChatModel,
    Completed,
    ModelEvent,
    Started,
    TextDelta,
    ToolCall,
    ToolResultBlock,
    Usage,
)
from storage.errors import ServerAwayError
from storage.models import MessageStatus
from storage.talk import Talk

MAX_TOOL_ROUNDS = 4
#: How often a streaming reply is written down, so that a killed process keeps it.
DRAFT_SECONDS = 1.0


@dataclass
class TurnResult:
    user_message: Talk
    reply: Talk | None
    requests: int = 0
    usages: list[Usage] = field(default_factory=list)
    error: str | None = None
    cancelled: bool = False
    #: The endpoint sent more than ``max_tokens`` allows: the reply was cut there.
    cut: bool = False
    #: The history's server was away when the reply ended: it is kept on this device with
    #: its ledger line, and written when the server answers (``cms/context/away.py``).
    held: bool = False


class ReplyCap:
    """What ``max_tokens`` allows of one reply, whatever the endpoint sends (issue 41: one
    that ignored it streamed 23 MB into a single stored reply). The text is counted only
    once it is longer in characters than the allowance in tokens (a token is at least
    one character), then every quarter allowance; past it, the reply is cut at the
    allowance and stored as incomplete."""

    def __init__(self, max_tokens: int, count: Callable[[str], int]) -> None:
        self.max_tokens = max(1, max_tokens)
        self.count = count
        self.chars = 0
        self._next = self.max_tokens

    def over(self, pieces: list[str], added: str) -> bool:
        """Whether ``pieces`` (``added`` is the newest) now pass the allowance; if so they
        are cut down to it, in place."""
        self.chars += len(added)
        if self.chars <= self._next:
            return False
        text = "".join(pieces)
        tokens = self.count(text)
        if tokens <= self.max_tokens:
            self._next = self.chars + max(256, self.max_tokens // 4)
            return False
        keep = len(text) * self.max_tokens // tokens
        while keep > 0 and self.count(text[:keep]) > self.max_tokens:
            keep = keep * 9 // 10
        pieces[:] = [text[:keep]]
        return True


class TurnRunner:
    def __init__(self, cm: ContextManager, model: ChatModel, log: RequestLog,
                 meaning: Meaning | None = None) -> None:
        self.cm = cm
        #: Recall by meaning for ``search_history`` (none: the word search alone).
        self.meaning = meaning
        self.model = model
        self.log = log
        #: When set, the milliseconds each request took to prepare (the model excluded).
        self.prepare_timings: list[float] | None = None

    def send(
        self,
        text: str,
        tab: str,
        on_text: Callable[[str], None] | None = None,
        cancel: threading.Event | None = None,
        attachments: Sequence[Prepared] = (),
    ) -> TurnResult:
        """Send one message (with the files shown with it). ``cancel`` stops the reply
        cooperatively: what arrived is kept and marked incomplete."""
        user_message = self.cm.commit_user_message(text, tab, attachments)
        return self.resume(tab, on_text, cancel, user_message)

    def resume(
        self,
        tab: str,
        on_text: Callable[[str], None] | None = None,
        cancel: threading.Event | None = None,
        user_message: Talk | None = None,
    ) -> TurnResult:
        """Ask for the reply to the newest stored message (a send, or a retry after an
        error: the message is already stored, so nothing is typed twice)."""
        if user_message is None:
            user_message = self.cm.last_user_message()
        result = TurnResult(user_message=user_message, reply=None)
        retried_too_long = False
        rounds = 0
        while True:
            started = time.perf_counter()
            prepared = self.cm.prepare_request()
            if self.prepare_timings is not None:
                self.prepare_timings.append((time.perf_counter() - started) * 1000)
            request_ts = self.cm.now_ts()
            pieces: list[str] = []
            calls: list[ToolCall] = []
            completed: Completed | None = None
            billed_from: Usage | None = None  # what the stream's start reported
            events: Generator[ModelEvent, None, None] | None = None
            after_id = prepared.newest_id
            saved_at = time.monotonic()
            cap = ReplyCap(int(prepared.body.get("max_tokens") or self.cm.settings.max_tokens),
                           self.cm.estimator.count)
            try:
                events = self.model.stream(prepared.body)
                for event in events:
                    if isinstance(event, TextDelta):
                        pieces.append(event.text)
                        if cap.over(pieces, event.text):
                            result.cut = True
                            break
                        if on_text is not None:
                            on_text(event.text)
                        if time.monotonic() - saved_at >= DRAFT_SECONDS:
                            self.cm.save_draft(after_id, tab, "".join(pieces))
                            saved_at = time.monotonic()
                    elif isinstance(event, ToolCall):
                        calls.append(event)
                    elif isinstance(event, Completed):
                        completed = event
                    elif isinstance(event, Started):
                        billed_from = event.usage
                    if cancel is not None and cancel.is_set():
                        break
            except PromptTooLongError:
                if not retried_too_long and self.cm.emergency_fold():
                    retried_too_long = True
                    continue
                raise
            except ModelError as exc:
                # a stream cut after it started is billed: its usage goes in the ledger
                # (and the request log) with what arrived, or by itself
                billed = self._billed(billed_from, prepared.estimated_input_tokens,
                                      prepared.turn_ttl)
                if billed_from is not None:
                    self.log.request(request_ts, "chat", prepared.body, billed_from.as_dict())
                if pieces:
                    self._store(result, "".join(pieces), tab, MessageStatus.INCOMPLETE, billed)
                elif billed is not None:
                    self._keep_usage(billed, user_message.day)
                result.error = str(exc)
                raise
            finally:
                if events is not None:
                    events.close()  # ends the HTTP stream when the person pressed Stop
            result.requests += 1
            usage = completed.usage if completed else (billed_from or Usage())
            stopped = result.cut or (cancel is not None and cancel.is_set())
            if stopped and completed is None:
                self.log.request(request_ts, "chat", prepared.body, usage.as_dict())
                self._store(result, "".join(pieces), tab, MessageStatus.INCOMPLETE,
                            self._billed(billed_from, prepared.estimated_input_tokens,
                                         prepared.turn_ttl))
                result.cancelled = not result.cut
                return result
            result.usages.append(usage)
            self.log.request(request_ts, "chat", prepared.body, usage.as_dict())
            if completed is None:
                self._store(result, "".join(pieces), tab, MessageStatus.INCOMPLETE, None)
                return result
            # the ledger line goes in with what the reply stored: one transaction
            note = UsageNote("chat", usage, prepared.estimated_input_tokens,
                             self.model.usage_source, turn_ttl=prepared.turn_ttl)
            try:
                if calls and rounds < MAX_TOOL_ROUNDS:
                    rounds += 1
                    self._run_tools(completed, calls, tab, user_message, note)
                    continue
                self._store(result, "".join(pieces), tab, MessageStatus.COMPLETE, note)
            except Exception:
                self._keep_usage(note, user_message.day)
                raise
            return result

    def _store(self, result: TurnResult, text: str, tab: str, status: MessageStatus,
               usage: UsageNote | None) -> None:
        """The reply with its ledger line, in the history, or held on this device while
        the history's server is away (``result.held``)."""
        result.reply = self.cm.away.keep_reply(text, tab, status, usage,
                                                result.user_message.day)
        result.held = result.reply is None

    def _billed(self, started: Usage | None, estimated_input: int,
                turn_ttl: str = "") -> UsageNote | None:
        """The ledger line of a stream that started but did not complete."""
        if started is None:
            return None
        return UsageNote("chat", started, estimated_input, self.model.usage_source,
                         turn_ttl=turn_ttl)

    def _keep_usage(self, note: UsageNote, day: str) -> None:
        """The request was made and paid for: its ledger line is kept even when storing
        what it brought failed (it goes in with that, normally), held on this device
        while the history's server is away."""
        try:
            self.cm.record_usage(note.purpose, note.usage, note.estimated_input, note.source,
                                 note.model, turn_ttl=note.turn_ttl)
        except ServerAwayError:
            self.cm.away.keep_usage(note, day)
        except Exception:  # noqa: BLE001 - the original error is the one to report
            pass

    def _run_tools(
        self, completed: Completed, calls: list[ToolCall], tab: str, user_message: Talk,
        note: UsageNote,
    ) -> None:
        results: list[ToolResultBlock] = []
        texts: list[str] = []
        with self.cm.db.session() as session:
            for call in calls:
                output, is_error = run_tool(session, call.name, call.input, user_message.id,
                                            self.meaning)
                block: ToolResultBlock = {
                    "type": "tool_result",
                    "tool_use_id": call.id,
                    "content": output,
                }
                if is_error:
                    block["is_error"] = True
                results.append(block)
                texts.append(output if isinstance(output, str) else " ".join(
                    str(b.get("text", "")) for b in output if b.get("type") == "text"))
        self.cm.record_tool_round(list(completed.content), results, "\n".join(texts), tab, note)
