"""The HTTP side of the load scripts (``load_api.py``, ``bench_api.py``): one request with a player's
token, a free port on loopback for gunicorn, and waiting until it answers."""

from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.request


def request(method: str, url: str, token: str, body: object = None, etag: str = "") -> tuple[int, dict, str]:
    """(status, JSON body or {}, ETag) of one API call; an HTTP error is an answer, not an exception."""
    headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
    data = None
    if body is not None:
        data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
    if etag:
        headers["If-None-Match"] = etag
    req = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as answer:
            raw = answer.read()
            return answer.status, json.loads(raw) if raw else {}, answer.headers.get("ETag", "")
    except urllib.error.HTTPError as answer:
        answer.read()
        return answer.code, {}, answer.headers.get("ETag", "")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(base: str, timeout: float = 30.0) -> None:
    """Until ``base``'s variant list answers (gunicorn is up), or exit after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"{base}/variants", timeout=2).read()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"gunicorn did not answer on {base}")
