"""gunicorn as production runs it (dipserver/config/gunicorn.py), on loopback: what it refuses before the
site sees a request (a request line too long, headers too large, a line that is not HTTP) is answered
with the API's JSON error body, and the connection is closed."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from .conftest import ROOT

GUNICORN_CONFIG = "dipserver/config/gunicorn.py"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _exchange(port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(request)
        data = b""
        while chunk := conn.recv(65536):  # the server closes the connection after its answer
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines)}
    return int(status_line.split()[1]), headers, body


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    port = _free_port()
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "dipserver.config.settings.local",
        "DIPSERVER_VAR_DIR": str(tmp_path_factory.mktemp("var")),
    }
    command = [sys.executable, "-m", "gunicorn", "-c", GUNICORN_CONFIG, "--workers", "1"]
    command += ["--bind", f"127.0.0.1:{port}", "dipserver.config.wsgi:application"]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)


def _json_error(status: int, headers: dict[str, str], body: bytes, code: str) -> None:
    assert headers["content-type"] == "application/json" and headers["connection"] == "close"
    assert int(headers["content-length"]) == len(body)
    error = json.loads(body)["error"]
    assert set(error) == {"code", "message", "fields"} and error["fields"] == {}
    assert error["code"] == code and error["message"]


def test_a_request_line_over_the_limit_answers_414_with_the_json_error(server: int) -> None:
    long_path = "/api/v1/games?name=" + "x" * 5000
    status, headers, body = _exchange(server, f"GET {long_path} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
    assert status == 414
    _json_error(status, headers, body, "uri_too_long")


def test_headers_over_the_limit_answer_431_with_the_json_error(server: int) -> None:
    request = b"GET /api/v1/variants HTTP/1.1\r\nHost: localhost\r\nX-Big: " + b"y" * 9000 + b"\r\n\r\n"
    status, headers, body = _exchange(server, request)
    assert status == 431
    _json_error(status, headers, body, "headers_too_large")


def test_a_line_that_is_not_http_answers_400_with_the_json_error(server: int) -> None:
    status, headers, body = _exchange(server, b"GET /api/v1/variants HTTP/9.9\r\nHost: localhost\r\n\r\n")
    assert status == 400
    _json_error(status, headers, body, "bad_request")


def test_a_request_within_the_limits_reaches_the_site(server: int) -> None:
    request = b"GET /api/v1/variants HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    status, headers, body = _exchange(server, request)
    assert status == 200 and headers["content-type"] == "application/json"
    assert json.loads(body)  # the site's own answer
