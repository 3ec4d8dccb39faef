"""Middleware of the API: refuse an oversized body, or one that is not JSON, before anything reads it, and
hold the sign-in and sign-up forms of the site to the same limits as the API's token and registration
endpoints."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from rest_framework.utils.mediatypes import media_type_matches

from dipserver.api.errors import is_api, not_found, not_json, read_only, too_large
from dipserver.api.parsers import JSONParser, body_limit
from dipserver.api.throttling import LoginThrottle, RegisterThrottle
from dipserver.core.read_only import is_read_only


class BodyLimitMiddleware:
    """Under /api/, a request whose declared ``Content-Length`` exceeds the limit answers 413 (JSON) at
    once; a body sent without a length is cut off by the JSON parser at the same limit."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if is_api(request) and _declared_length(request) > body_limit():
            return too_large()
        return self.get_response(request)


class JsonBodyMiddleware:
    """Under /api/, a request to an endpoint that carries a body in any media type but JSON (a form,
    multipart, text) answers 415 (JSON) before its view runs, whether or not the view would read the body:
    the API takes JSON only. An unknown address stays a 404."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: Any
    ) -> HttpResponse | None:
        if not is_api(request) or view is not_found or not _has_body(request):
            return None
        media_type = request.META.get("CONTENT_TYPE", "")
        return None if media_type_matches(JSONParser.media_type, media_type) else not_json(media_type)


def _has_body(request: HttpRequest) -> bool:
    return _declared_length(request) > 0 or "HTTP_TRANSFER_ENCODING" in request.META


def _declared_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


class SignInLimitMiddleware:
    """A POST to the sign-in form, the admin's sign-in or the sign-up form counts against the same limit
    per address as ``POST /api/v1/accounts/token`` or ``/register``: without it a password guesser would
    simply use the form. Over the limit the page answers 429 with ``Retry-After``."""

    FORMS = {"login": LoginThrottle, "admin:login": LoginThrottle, "signup": RegisterThrottle}

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST":
            throttle_class = next(
                (t for name, t in self.FORMS.items() if request.path == reverse(name)), None
            )
            if throttle_class is not None:
                throttle = throttle_class()
                if not throttle.allow_request(request, None):
                    return _too_many(request, throttle.wait())
        return self.get_response(request)


def _too_many(request: HttpRequest, wait: float | None) -> HttpResponse:
    seconds = max(1, math.ceil(wait or 60))
    response = render(request, "429.html", {"seconds": seconds}, status=429)
    response["Retry-After"] = str(seconds)
    return response


class ReadOnlyDatabaseMiddleware:
    """A write that a read-only database refused (maintenance, a failover) answers 503 "read-only, try
    again" with ``Retry-After`` on every page, not a 500; the API's own views say the same through its
    exception handler. Reads go on working."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, DatabaseError) and is_read_only(exception):
            return read_only(request)
        return None
