"""A small local HTTP server speaking the OpenAI chat-completions protocol (loopback only), for the curator's
real provider path: pydantic-ai's OpenAI model talks to it over HTTP exactly as to a hosted model."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Refusal:
    """An answer that is an HTTP error: `status` with `body` as JSON (a provider refusing the request)."""

    status: int
    body: dict[str, Any]


@dataclass
class FakeOpenAI:
    """Answers (dicts become the output tool's arguments) in order, then empty proposals; `delays` in seconds
    before the n-th answer (a hanging model); `requests` keeps every request body."""

    answers: list[Any] = field(default_factory=list)
    delays: dict[int, float] = field(default_factory=dict)
    requests: list[dict[str, Any]] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)  # each request's path: which base URL (which client) asked
    url: str = ""
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def respond(self, body: dict[str, Any]) -> dict[str, Any] | Refusal:
        with self._lock:
            self.requests.append(body)
            n = len(self.requests)
            answer = self.answers.pop(0) if self.answers else {"operations": []}
        if isinstance(answer, Refusal):
            return answer
        if callable(answer):
            answer = answer(json.dumps(body["messages"], ensure_ascii=False))
        time.sleep(self.delays.get(n, 0.0))
        tool = body["tools"][0]["function"]["name"]
        arguments = answer if isinstance(answer, str) else json.dumps(answer)
        return {
            "id": f"chatcmpl-{n}", "object": "chat.completion", "created": int(time.time()), "model": body["model"],
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                "role": "assistant", "content": None,
                "tool_calls": [{"id": f"call_{n}", "type": "function",
                                "function": {"name": tool, "arguments": arguments}}]}}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
        }


@contextmanager
def serve(fake: FakeOpenAI) -> Iterator[FakeOpenAI]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            fake.paths.append(self.path)
            if not self.path.endswith("/chat/completions"):
                self.send_error(404)
                return
            try:
                answer = fake.respond(body)
            except BrokenPipeError:
                return
            status, payload = (answer.status, answer.body) if isinstance(answer, Refusal) else (200, answer)
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    fake.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()
