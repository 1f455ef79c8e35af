"""The access log of `worldmem serve`: one line per HTTP response, in uvicorn's access format, on stdout.

uvicorn's own access log (off: resolvers.serving) builds a logging.LogRecord per request on the request's
path: the caller's frame looked up, the time, the thread and the process names, the handler's lock. Measured
against no access log at all, that and the lines' formatting in the writer thread cost a served stateAt(T)
0.05-0.1 ms of server CPU and most of its tail. Here a request's path appends
its scope and status to a deque and nothing else; a background thread formats the lines every `interval_s`
(the same text uvicorn's AccessFormatter writes without colours) and writes them in one call. At most
`max_pending` lines wait (the oldest are kept, later ones dropped and counted in `dropped`), which at one
flush per 0.25 s is far more than the server answers. `close` writes what is pending (the app's lifespan
calls it at shutdown). Appending wakes nobody on purpose: a queue with a listener thread woken per record
(logging.handlers.QueueListener), measured before the batches, took the GIL from the event loop at the wrong
moments (the floor's p95 x2.4 against no access log).
"""

from __future__ import annotations

import collections
import http
import sys
import threading
import urllib.parse
from typing import TextIO

from starlette.types import Message, Scope, Send


def line(scope: Scope, status: int) -> str:
    """uvicorn's access line for `scope` answered with `status` (its default format, no colours)."""
    try:
        phrase = http.HTTPStatus(status).phrase
    except ValueError:
        phrase = ""
    target = urllib.parse.quote(scope["path"])
    if scope.get("query_string"):
        target = f'{target}?{scope["query_string"].decode("ascii")}'
    client = scope.get("client")
    address = f"{client[0]}:{int(client[1])}" if client else ""
    request = f'{scope["method"]} {target} HTTP/{scope["http_version"]}'
    return f'INFO:     {address} - "{request}" {status} {phrase}'


class AccessLog:
    """Collects (scope, status) per response; a daemon thread writes the lines to `stream` in batches."""

    def __init__(self, interval_s: float = 0.25, max_pending: int = 100_000, stream: TextIO | None = None) -> None:
        self.interval_s = interval_s
        self.max_pending = max_pending
        self.dropped = 0
        self.pending: collections.deque[tuple[Scope, int]] = collections.deque()
        self.stream = stream or sys.stdout
        self._stopped = threading.Event()
        self._writer = threading.Thread(target=self._run, name="access-log", daemon=True)
        self._writer.start()

    def wrap(self, scope: Scope, send: Send) -> Send:
        """`send` that also notes the response's status for the log (an HTTP scope)."""

        async def logged(message: Message) -> None:
            if message["type"] == "http.response.start":
                if len(self.pending) < self.max_pending:
                    self.pending.append((scope, message["status"]))
                else:
                    self.dropped += 1
            await send(message)

        return logged

    def write_pending(self) -> None:
        lines = []
        while self.pending:
            lines.append(line(*self.pending.popleft()) + "\n")
        if lines:
            self.stream.write("".join(lines))
            self.stream.flush()

    def _run(self) -> None:
        while not self._stopped.wait(self.interval_s):
            self.write_pending()

    def close(self) -> None:
        """Stops the thread and writes what is still pending."""
        self._stopped.set()
        self._writer.join(timeout=5)
        self.write_pending()
