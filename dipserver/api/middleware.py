"""Middleware of the API: refuse an oversized body before anything reads it."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from dipserver.api.errors import is_api, too_large
from dipserver.api.parsers import body_limit


class BodyLimitMiddleware:
    """Under /api/, a request whose declared ``Content-Length`` exceeds the limit answers 413 (JSON) at
    once; a body sent without a length is cut off by the JSON parser at the same limit."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if is_api(request) and _declared_length(request) > body_limit():
            return too_large()
        return self.get_response(request)


def _declared_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0
