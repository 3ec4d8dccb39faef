"""A small client for the REST API over any transport (HTTP with urllib, or a test client in-process)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class Reply:
    status: int
    data: Any  # parsed JSON, or None for an empty body
    headers: dict[str, str] = field(default_factory=dict)  # lower-case names


class Transport(Protocol):
    def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> Reply:
        """Send one request; ``path`` starts with ``/api/``."""


class ApiError(RuntimeError):
    """An answer the bot did not expect, with the server's error body."""

    def __init__(self, method: str, path: str, reply: Reply) -> None:
        error = (reply.data or {}).get("error", {}) if isinstance(reply.data, dict) else {}
        self.reply = reply
        self.code = error.get("code", "")
        super().__init__(
            f"{method} {path} -> {reply.status} {error.get('code', '')}: {error.get('message', reply.data)}"
        )


class HttpTransport:
    """Plain HTTP with the standard library: no third-party dependency for a bot author to install."""

    def __init__(self, base_url: str, timeout: float = 30.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout

    def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> Reply:
        data = None if body is None else json.dumps(body).encode()
        sent = {"Accept": "application/json", **(headers or {})}
        if data is not None:
            sent["Content-Type"] = "application/json"
        req = urllib.request.Request(self.base_url + path, data=data, method=method, headers=sent)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as answer:
                return _reply(answer.status, answer.read(), answer.headers)
        except urllib.error.HTTPError as answer:
            return _reply(answer.code, answer.read(), answer.headers)


def _reply(status: int, raw: bytes, headers: Any) -> Reply:
    kind = headers.get("Content-Type", "")
    data = json.loads(raw) if raw and kind.startswith("application/json") else None
    return Reply(status, data, {k.lower(): v for k, v in headers.items()})


class ApiClient:
    """The endpoints the bot uses, each returning parsed JSON or raising ``ApiError``."""

    def __init__(self, transport: Transport) -> None:
        self.transport = transport
        self.token = ""
        self._tags: dict[str, tuple[str, Any]] = {}  # path -> (ETag, last body): polls are conditional

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        ok: tuple[int, ...] = (200, 201, 204),
        if_match: str = "",
    ) -> Any:
        """One request; ``if_match`` (an ETag) makes a write conditional: 412 if it is stale."""
        return self.exchange(method, path, body, ok, if_match).data

    def exchange(
        self,
        method: str,
        path: str,
        body: Any = None,
        ok: tuple[int, ...] = (200, 201, 204),
        if_match: str = "",
    ) -> Reply:
        """Like ``call``, with the whole reply (its headers carry the ``ETag``)."""
        headers = {"Authorization": f"Token {self.token}"} if self.token else {}
        if if_match:
            headers["If-Match"] = if_match
        reply = self.transport.request(method, "/api/v1" + path, body, headers)
        if reply.status not in ok:
            raise ApiError(method, path, reply)
        return reply

    def poll(self, path: str) -> Any:
        """GET with ``If-None-Match``: the previous body when the server says 304."""
        headers = {"Authorization": f"Token {self.token}"} if self.token else {}
        tag, body = self._tags.get(path, ("", None))
        if tag:
            headers["If-None-Match"] = tag
        reply = self.transport.request("GET", "/api/v1" + path, None, headers)
        if reply.status == 304:
            return body
        if reply.status != 200:
            raise ApiError("GET", path, reply)
        if "etag" in reply.headers:
            self._tags[path] = (reply.headers["etag"], reply.data)
        return reply.data

    def log_in(self, username: str, password: str, register: bool = True) -> None:
        """Log in, registering the name first if it is new (and ``register`` allows)."""
        try:
            self.token = self.call("POST", "/accounts/token", {"username": username, "password": password})[
                "token"
            ]
        except ApiError as exc:
            if not register or exc.code != "bad_credentials":
                raise
            made = self.call("POST", "/accounts/register", {"username": username, "password": password})
            self.token = made["token"]
