"""A scriptable OpenAI-compatible chat-completions server for tests, on a free loopback port.

``FakeOpenAI`` runs a stdlib ``ThreadingHTTPServer`` in a background thread and answers
``POST /v1/chat/completions``. A test scripts the answers per request with :meth:`script`
(consumed in order; :attr:`default` answers once the script runs out): ``good`` (the JSON payload
the test set, with usage tokens), ``malformed`` (content that is not JSON), ``wrong_shape`` (JSON
that does not match the schema), ``slow`` (sleeps ``slow_s`` before answering), ``error`` (HTTP
500), ``error_400``, ``refusal`` (``message.refusal`` set, content null) and ``rate_limit`` (429).
Every request is recorded (parsed body and headers) in :attr:`requests`, so tests can assert on
the prompt and count attempts. :meth:`stop` wakes sleeping handlers and closes the socket; use it
as a context manager or through a fixture.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

KINDS = frozenset(
    {"good", "malformed", "wrong_shape", "slow", "error", "error_400", "refusal", "rate_limit"}
)


@dataclass(frozen=True)
class RecordedRequest:
    """One request the server received."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    kind: str  # the behaviour it was answered with

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages", []))

    def message(self, role: str) -> str:
        """The content of the first message with ``role`` ("" if none)."""
        return next((str(m.get("content")) for m in self.messages if m.get("role") == role), "")


@dataclass
class FakeOpenAI:
    """The fake server; ``base_url`` is valid after :meth:`start`."""

    payload: dict[str, Any] = field(default_factory=lambda: {"facts": []})
    default: str = "good"
    slow_s: float = 3.0
    tokens_in: int = 120
    tokens_out: int = 40
    requests: list[RecordedRequest] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._script: deque[str] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- control ------------------------------------------------------------------------------

    def script(self, *kinds: str) -> None:
        """Queue the behaviours of the next requests, in order."""
        unknown = set(kinds) - KINDS
        if unknown:
            raise ValueError(f"unknown behaviours {sorted(unknown)}; known: {sorted(KINDS)}")
        with self._lock:
            self._script.extend(kinds)

    @property
    def base_url(self) -> str:
        if self._server is None:
            raise RuntimeError("FakeOpenAI is not started")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    @property
    def attempts(self) -> int:
        with self._lock:
            return len(self.requests)

    def start(self) -> FakeOpenAI:
        server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        server.daemon_threads = True
        self._server = server
        # a short poll interval makes shutdown() return promptly at fixture teardown
        self._thread = threading.Thread(
            target=server.serve_forever, args=(0.05,), name="fake-openai", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # wakes handlers sleeping in "slow"
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = self._thread = None

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- behaviour ----------------------------------------------------------------------------

    def _next_kind(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> str:
        with self._lock:
            kind = self._script.popleft() if self._script else self.default
            self.requests.append(RecordedRequest(path, headers, body, kind))
            return kind

    def _completion(self, model: str, content: str | None, refusal: str | None = None) -> bytes:
        message = {"role": "assistant", "content": content, "refusal": refusal}
        reply = {
            "id": f"chatcmpl-fake-{len(self.requests)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": [
                {"index": 0, "message": message, "finish_reason": "stop", "logprobs": None}
            ],
            "usage": {
                "prompt_tokens": self.tokens_in,
                "completion_tokens": self.tokens_out,
                "total_tokens": self.tokens_in + self.tokens_out,
            },
        }
        return json.dumps(reply).encode()

    def respond(self, kind: str, body: dict[str, Any]) -> tuple[int, bytes]:
        """(HTTP status, JSON body) for one request answered as ``kind``."""
        model = str(body.get("model", "fake-model"))
        if kind == "slow":
            if self._stopping.wait(self.slow_s):
                return 503, _error("server stopping", "server_error")
            kind = "good"
        if kind == "good":
            return 200, self._completion(model, json.dumps(self.payload))
        if kind == "malformed":
            return 200, self._completion(model, '{"facts": [ this is not JSON')
        if kind == "wrong_shape":
            return 200, self._completion(model, json.dumps({"memories": "none"}))
        if kind == "refusal":
            return 200, self._completion(model, None, "I can't help with that request.")
        if kind == "rate_limit":
            return 429, _error("Rate limit reached", "rate_limit_exceeded")
        if kind == "error_400":
            return 400, _error("Invalid schema for response_format", "invalid_request_error")
        return 500, _error("The server had an error", "server_error")


def _error(message: str, code: str) -> bytes:
    return json.dumps({"error": {"message": message, "type": code, "code": code}}).encode()


def _handler_for(fake: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as the openai client expects

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            raw = self.rfile.read(length) if length else b""
            if self.path.rstrip("/") != "/v1/chat/completions":
                self._send(404, _error(f"no route {self.path}", "not_found"))
                return
            try:
                body = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                self._send(400, _error("request body is not JSON", "invalid_request_error"))
                return
            headers = {k.lower(): v for k, v in self.headers.items()}
            kind = fake._next_kind(self.path, headers, body)
            self._send(*fake.respond(kind, body))

        def _send(self, status: int, payload: bytes) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                if status == 429:
                    self.send_header("Retry-After", "0")
                self.end_headers()
                self.wfile.write(payload)
            except OSError:
                pass  # the client gave up (timeout) and closed the connection

        def log_message(self, format: str, *args: Any) -> None:
            pass  # keep test output quiet

    return Handler
