"""gunicorn's sync worker, answering the requests gunicorn itself refuses with the API's JSON error.

Before the site sees a request, gunicorn reads its request line and headers and refuses one that is too
long or malformed, by default with an HTML page. The API promises one error body for every failure
(``{"error": {"code", "message", "fields"}}``), so this worker answers those refusals with it: a request
line over ``limit_request_line`` is ``414 uri_too_long``, headers over ``limit_request_fields`` or
``limit_request_field_size`` are ``431 headers_too_large``, and a request line or header that is not HTTP
is ``400 bad_request``. Every other error keeps gunicorn's own handling.

Named in ``dipserver/config/gunicorn.py`` as ``worker_class``; it imports neither Django nor the site,
as gunicorn's master loads it.
"""

from __future__ import annotations

import json
from typing import Any

from gunicorn.http.errors import (
    InvalidHeader,
    InvalidHeaderName,
    InvalidHTTPVersion,
    InvalidRequestLine,
    InvalidRequestMethod,
    LimitRequestHeaders,
    LimitRequestLine,
    ObsoleteFolding,
)
from gunicorn.workers.sync import SyncWorker

MALFORMED = (
    InvalidRequestLine,
    InvalidRequestMethod,
    InvalidHTTPVersion,
    InvalidHeader,
    InvalidHeaderName,
    ObsoleteFolding,
)


def refusal(exc: BaseException) -> tuple[int, str, str, str] | None:
    """(status, reason phrase, code, message) for a request gunicorn refused, or None for other errors."""
    if isinstance(exc, LimitRequestLine):
        return 414, "URI Too Long", "uri_too_long", "The request line (the address) is too long."
    if isinstance(exc, LimitRequestHeaders):
        return (
            431,
            "Request Header Fields Too Large",
            "headers_too_large",
            "The request headers are too large.",
        )
    if isinstance(exc, MALFORMED):
        return 400, "Bad Request", "bad_request", "The request could not be understood."
    return None


def answer(status: int, reason: str, code: str, message: str) -> bytes:
    """The whole HTTP answer, the API's error body in it; the connection closes after it."""
    body = json.dumps({"error": {"code": code, "message": message, "fields": {}}}).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


class JsonErrorWorker(SyncWorker):  # type: ignore[misc]  # gunicorn has no type hints
    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        refused = refusal(exc)
        if refused is None:
            super().handle_error(req, client, addr, exc)
            return
        self.log.warning("Invalid request from ip=%s: %s", (addr or ("", -1))[0], exc)
        try:
            client.sendall(answer(*refused))
        except OSError:
            self.log.debug("Failed to send error message.")
