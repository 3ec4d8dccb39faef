"""Real HTTP receivers on loopback that the site's webhooks post to: one keeps every request and answers
with the statuses a test lines up (then 200); one trickles its answer a byte a second."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Receiver:
    url: str
    received: list[Received] = field(default_factory=list)
    answers: list[int] = field(default_factory=list)  # statuses to answer, in order; then 200

    def bodies(self) -> list[Any]:
        return [r.json for r in self.received]


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    state = Receiver(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            state.received.append(Received(self.path, dict(self.headers.items()), body))
            status = state.answers.pop(0) if state.answers else 200
            self.send_response(status)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args: Any) -> None:  # quiet test output
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@dataclass
class Trickler:
    """A receiver that takes the request at once, then answers one byte a second (its status line, its
    headers, its body: a minute in all), so only a deadline on the whole try can end it sooner."""

    url: str
    got_request: threading.Event = field(default_factory=threading.Event)
    requests: int = 0
    bytes_sent: int = 0


TRICKLED_ANSWER = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 20\r\n\r\n" + b"x" * 20


@pytest.fixture
def trickler() -> Iterator[Trickler]:
    stop = threading.Event()
    listener = socket.create_server(("127.0.0.1", 0))
    state = Trickler(url=f"http://127.0.0.1:{listener.getsockname()[1]}/slow")

    def answer(conn: socket.socket) -> None:
        with conn:
            conn.settimeout(5)
            request = b""
            while b"\r\n\r\n" not in request:
                request += conn.recv(65536)
            head, _, body = request.partition(b"\r\n\r\n")
            length = next(
                (
                    int(h.split(b":")[1])
                    for h in head.split(b"\r\n")
                    if h.lower().startswith(b"content-length")
                ),
                0,
            )
            while len(body) < length:
                body += conn.recv(65536)
            state.requests += 1
            state.got_request.set()
            for byte in TRICKLED_ANSWER:
                if stop.wait(1.0):
                    return
                try:
                    conn.sendall(bytes([byte]))
                except OSError:  # the sender hung up: what a deadline does
                    return
                state.bytes_sent += 1

    def serve() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            threading.Thread(target=answer, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        stop.set()
        thread.join()
        listener.close()
