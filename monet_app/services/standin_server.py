"""A local stand-in for Anthropic's Messages API, for tests, demos and ``--live`` replays.

It speaks the same HTTP and server-sent events as ``POST /v1/messages`` (streaming and
not), prices usage with the prompt-cache simulator, and answers either from a trace
(the trace's reply for the user's text; a ``recall`` turn first calls
``search_history``) or with a short deterministic line. Tests can queue failures: an
HTTP error with its type and headers, a stream that breaks off, one that ends without
its ``message_stop``, a slow answer.

    monet standin-server [--trace TRACE.jsonl] [--port 8765]
    ANTHROPIC_BASE_URL=http://127.0.0.1:8765 ANTHROPIC_API_KEY=any monet ...
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from collections import defaultdict, deque
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Self

from cms.model.cache_sim import PromptCacheSimulator
from cms.tokens import TiktokenEstimator, TokenEstimator
from storage.models import MessageRole

_LABEL = re.compile(r"^\[[^\]\n]{1,60}\]\n")


class StandInServer:
    def __init__(
        self,
        trace: Path | None = None,
        port: int = 0,
        estimator: TokenEstimator | None = None,
        chunk_chars: int = 24,
        answer_prefix: str = "（stand-in）受け取りました: ",
    ) -> None:
        self.answer_prefix = answer_prefix  # what a reply without a script starts with
        self.estimator = estimator or TiktokenEstimator()
        self.cache = PromptCacheSimulator(self.estimator)
        self.chunk_chars = chunk_chars
        self.failures: deque[dict[str, Any]] = deque()
        self.replies: deque[str] = deque()  # answer the next requests with these texts
        self.requests: list[dict[str, Any]] = []
        self.reported: list[dict[str, Any]] = []  # the usage of every answered request
        self._script: dict[str, deque[tuple[str, str | None]]] = defaultdict(deque)
        self._lock = threading.Lock()
        if trace is not None:
            for line in Path(trace).read_text("utf-8").splitlines():
                if not line.strip():
                    continue
                data = json.loads(line)
                if "user" in data:
                    self._script[data["user"]].append(
                        (data.get("assistant", ""), data.get("recall"))
                    )
        handler = type("Handler", (_Handler,), {"owner": self})
        self.host = "127.0.0.1"
        self.httpd = _QuietServer((self.host, port), handler)
        self.httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.httpd.server_port}"

    def start(self) -> Self:
        # A short poll: stop() waits for the loop's next poll (0.5 s by default).
        self._thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ----- answering ------------------------------------------------------------------
    def answer(self, body: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
        """The content blocks and stop reason for a request body."""
        messages = body.get("messages", [])
        last = messages[-1] if messages else {"content": []}
        content = last.get("content", [])
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        after_tool = any(b.get("type") == "tool_result" for b in content)
        user_text = self._last_user_text(messages)
        with self._lock:
            if self.replies:
                return [{"type": "text", "text": self.replies.popleft()}], "end_turn"
            script = self._script.get(user_text)
            if script:
                reply, recall = script[0]
                if recall and not after_tool:
                    digest = hashlib.sha256(f"{recall}|{len(messages)}".encode()).hexdigest()[:20]
                    block = {
                        "type": "tool_use",
                        "id": f"toolu_{digest}",
                        "name": "search_history",
                        "input": {"query": recall, "limit": 5},
                    }
                    return [block], "tool_use"
                script.popleft()
                return ([{"type": "text", "text": reply}] if reply else []), "end_turn"
        snippet = user_text.strip().replace("\n", " ")[:40]
        return [{"type": "text", "text": f"{self.answer_prefix}{snippet}"}], "end_turn"

    @staticmethod
    def _last_user_text(messages: list[dict[str, Any]]) -> str:
        for message in reversed(messages):
            if message.get("role") != MessageRole.USER:
                continue
            content = message.get("content", [])
            if isinstance(content, str):
                return _LABEL.sub("", content, count=1)
            texts = [b.get("text", "") for b in content if b.get("type") == "text"]
            if texts:
                return _LABEL.sub("", texts[-1], count=1)
        return ""


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away mid-answer (Stop, a killed process) is expected here."""
        import sys

        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def _problem(body: dict[str, Any]) -> str | None:
    """The request checks the real API makes that MONET could get wrong."""
    if not body.get("model") or not isinstance(body.get("max_tokens"), int):
        return "model and max_tokens are required"
    messages = body.get("messages")
    if not messages:
        return "messages: at least one message is required"
    if messages[0].get("role") != MessageRole.USER:
        return "messages: the first message must use the user role"
    blocks: list[dict[str, Any]] = list(body.get("tools", []))
    system = body.get("system", [])
    blocks += (
        [system] if isinstance(system, dict)
        else list(system) if isinstance(system, list)
        else []
    )
    for message in messages:
        content = message.get("content")
        if isinstance(content, list):
            blocks += content
    for block in blocks:
        if block.get("type") == "text" and not block.get("text"):
            return "messages: text content blocks must be non-empty"
    if sum(1 for b in blocks if "cache_control" in b) > 4:
        return "A maximum of 4 blocks with cache_control may be provided."
    return None


class _Handler(BaseHTTPRequestHandler):
    owner: StandInServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        return  # quiet: tests and replays read the ledger, not an access log

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length", 0))
        raw = self.rfile.read(length)
        if not self.path.startswith("/v1/messages"):
            self._error(404, "not_found_error", f"no route {self.path}")
            return
        try:
            body = json.loads(raw)
        except json.JSONDecodeError:
            self._error(400, "invalid_request_error", "the body is not JSON")
            return
        owner = self.owner
        owner.requests.append(body)
        failure = owner.failures.popleft() if owner.failures else None
        if failure and "status" in failure:
            self._error(
                failure["status"], failure.get("type", "api_error"),
                failure.get("message", "stand-in failure"), failure.get("headers", {}),
            )
            return
        if failure and failure.get("sleep"):
            time.sleep(float(failure["sleep"]))
        problem = _problem(body)
        if problem:
            self._error(400, "invalid_request_error", problem)
            return
        content, stop = owner.answer(body)
        output = sum(
            owner.estimator.count(b.get("text", "") or json.dumps(b.get("input", {})))
            for b in content
        )
        usage = owner.cache.usage(body, datetime.now().astimezone(), max(1, output))
        usage_json = usage.as_dict()
        owner.reported.append(usage_json)
        message = {
            "id": "msg_standin_" + hashlib.sha256(raw).hexdigest()[:16],
            "type": "message",
            "role": MessageRole.ASSISTANT,
            "model": body["model"],
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": usage_json,
        }
        if body.get("stream"):
            self._stream(message, failure or {})
        else:
            self._json(200, message)

    # ----- responses ------------------------------------------------------------------
    def _json(
        self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None
    ) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.send_header("request-id", "req_standin")
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def _error(
        self, status: int, kind: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        self._json(status, {"type": "error", "error": {"type": kind, "message": message}}, headers)

    def _chunk(self, text: str) -> None:
        data = text.encode()
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def _event(self, name: str, payload: dict[str, Any]) -> None:
        self._chunk(f"event: {name}\ndata: {json.dumps(payload, ensure_ascii=False)}\n\n")

    def _stream(self, message: dict[str, Any], failure: dict[str, Any]) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("transfer-encoding", "chunked")
        self.send_header("request-id", "req_standin")
        self.end_headers()
        usage = dict(message["usage"])
        start = {
            **message,
            "content": [],
            "stop_reason": None,
            "usage": {**usage, "output_tokens": 1},
        }
        self._event("message_start", {"type": "message_start", "message": start})
        break_after = failure.get("break_after_chars")
        end_after = failure.get("end_after_chars")  # ends cleanly, without message_stop
        delay = float(failure.get("chunk_delay", 0.0))
        sent = 0
        step = self.owner.chunk_chars
        for index, block in enumerate(message["content"]):
            if block["type"] == "text":
                self._event("content_block_start", {"type": "content_block_start", "index": index,
                                                    "content_block": {"type": "text", "text": ""}})
                text = block["text"]
                for i in range(0, len(text), step):
                    piece = text[i : i + step]
                    self._event("content_block_delta", {
                        "type": "content_block_delta",
                        "index": index,
                        "delta": {"type": "text_delta", "text": piece},
                    })
                    sent += len(piece)
                    if delay:
                        time.sleep(delay)
                    if end_after is not None and sent >= end_after:
                        self.wfile.write(b"0\r\n\r\n")  # the body ends; no stop reason came
                        self.wfile.flush()
                        return
                    if break_after is not None and sent >= break_after:
                        self.wfile.write(b"5\r\nevent")  # half a chunk, then the line drops
                        self.wfile.flush()
                        self.close_connection = True
                        return
            else:
                self._event("content_block_start", {"type": "content_block_start", "index": index,
                                                    "content_block": {**block, "input": {}}})
                self._event("content_block_delta", {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {
                        "type": "input_json_delta",
                        "partial_json": json.dumps(block["input"]),
                    },
                })
            self._event("content_block_stop", {"type": "content_block_stop", "index": index})
        self._event("message_delta", {
            "type": "message_delta",
            "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
            "usage": usage,
        })
        self._event("message_stop", {"type": "message_stop"})
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()


def serve(trace: Path | None, port: int) -> None:
    server = StandInServer(trace, port)
    print(f"MONET stand-in Anthropic API at {server.url} (Ctrl+C stops)", flush=True)
    try:
        server.httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.httpd.server_close()
