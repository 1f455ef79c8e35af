"""A small local HTTP server speaking the OpenAI chat-completions protocol (loopback only), for the curator's
real provider path: pydantic-ai's OpenAI model talks to it over HTTP exactly as to a hosted model.

Besides answering, it can misbehave the ways real servers do: refuse every request with one HTTP status
(`status`: 401 for a wrong key), support only some output modes (`modes`: a small local model without tool
calls answers 400 to a request with tools, as Ollama does), answer prose whatever was asked (`prose`), or
hang (`delays`). It also embeds (`/embeddings`: a small vector from each text's hash), hanging on the n-th
embedding request by `embed_delays`."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ALL_MODES = frozenset({"tool", "native", "prompted"})
REFUSALS = {"tool": "this model does not support tools",
            "native": "response_format json_schema is not supported by this model"}


def requested_mode(body: dict[str, Any]) -> str:
    """Which output mode a request uses: tools (tool), a JSON schema response format (native), or neither."""
    if body.get("tools"):
        return "tool"
    if (body.get("response_format") or {}).get("type") == "json_schema":
        return "native"
    return "prompted"


@dataclass(frozen=True)
class Refusal:
    """An answer that is an HTTP error: `status` with `body` as JSON (a provider refusing the request)."""

    status: int
    body: dict[str, Any]


@dataclass
class FakeOpenAI:
    """Answers (dicts become the output's JSON) in order, then empty proposals; `delays` in seconds before the
    n-th answer (a hanging model); `requests` keeps every request body, `modes_seen` the mode of each."""

    answers: list[Any] = field(default_factory=list)
    delays: dict[int, float] = field(default_factory=dict)
    requests: list[dict[str, Any]] = field(default_factory=list)
    modes: frozenset[str] = ALL_MODES
    status: int | None = None
    prose: frozenset[str] = frozenset()  # the modes it answers in prose, ignoring the tools or schema asked for
    paths: list[str] = field(default_factory=list)  # each request's path: which base URL (which client) asked
    url: str = ""
    embed_delays: dict[int, float] = field(default_factory=dict)
    embedded: list[tuple[str, list[str]]] = field(default_factory=list)  # each embedding request: path, its texts
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def modes_seen(self) -> list[str]:
        return [requested_mode(body) for body in self.requests]

    def embed(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            self.embedded.append((path, list(body["input"])))
            n = len(self.embedded)
        time.sleep(self.embed_delays.get(n, 0.0))
        return {"object": "list", "model": body["model"], "data": [
            {"object": "embedding", "index": i, "embedding": [b / 255 for b in hashlib.sha256(t.encode()).digest()[:8]]}
            for i, t in enumerate(body["input"])]}

    def respond(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        with self._lock:
            self.requests.append(body)
            n = len(self.requests)
        if self.status is not None:
            said = {401: "Incorrect API key provided",  # what OpenAI says; Ollama's words for a 404 below
                    404: f'model "{body.get("model")}" not found, try pulling it first'}
            return self.status, _error(self.status, said.get(self.status, "refused"))
        mode = requested_mode(body)
        if mode not in self.modes and mode in REFUSALS:
            return 400, _error(400, REFUSALS[mode])
        with self._lock:
            answer = self.answers.pop(0) if self.answers else {"operations": []}
        if isinstance(answer, Refusal):
            return answer.status, answer.body
        if callable(answer):
            answer = answer(json.dumps(body["messages"], ensure_ascii=False))
        time.sleep(self.delays.get(n, 0.0))
        text = answer if isinstance(answer, str) else json.dumps(answer)
        if mode in self.prose:
            message: dict[str, Any] = {"role": "assistant", "content": "Sure! I will remember that for you."}
        elif mode == "tool":
            message = {"role": "assistant", "content": None, "tool_calls": [{
                "id": f"call_{n}", "type": "function",
                "function": {"name": body["tools"][0]["function"]["name"], "arguments": text}}]}
        else:
            message = {"role": "assistant", "content": text}
        return 200, {
            "id": f"chatcmpl-{n}", "object": "chat.completion", "created": int(time.time()), "model": body["model"],
            "choices": [{"index": 0, "message": message,
                         "finish_reason": "tool_calls" if "tool_calls" in message else "stop"}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
        }


def _error(status: int, text: str) -> dict[str, Any]:
    return {"error": {"message": text, "type": "invalid_request_error", "code": str(status)}}


@contextmanager
def serve(fake: FakeOpenAI) -> Iterator[FakeOpenAI]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            fake.paths.append(self.path)
            if not self.path.startswith("/v1/"):
                self.send_error(404)  # a base URL without /v1: the server has no such path
                return
            embedding = self.path.endswith("/embeddings")
            if not embedding and not self.path.endswith("/chat/completions"):
                self.send_error(404)
                return
            try:
                status, answer = (200, fake.embed(self.path, body)) if embedding else fake.respond(body)
            except BrokenPipeError:
                return
            data = json.dumps(answer).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):  # the client gave up waiting (a slow model)
                return

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
