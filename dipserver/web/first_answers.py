"""The API's first answers for a page, sent inside it: what the page's scripts would ask the API for as
soon as they start, so they start without waiting for it.

Each answer is the API view's own, run in this process for the same viewer (session or token): the same
selectors, serializers, permissions and ETag as over HTTP, never a second copy. An address that would
not answer 200 (not my game, no open phase, not started) is left out, and the page asks for it over HTTP
as it would have and shows the API's refusal. The page's ``static/js/api.js`` uses each answer once, for
the first GET of its address; later GETs (the polls, with the answer's ETag) go to the API.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, QueryDict
from django.urls import resolve


def first_answers(request: HttpRequest, paths: list[str]) -> dict[str, dict[str, Any]]:
    """``{path: {"body": ..., "etag": ...}}`` for each API path (e.g. ``/api/v1/games/1/options``) that
    answers ``request``'s viewer 200."""
    answers = {}
    for path in paths:
        response = _get(request, path)
        if response.status_code == 200:
            answers[path] = {"body": json.loads(response.content), "etag": response.get("ETag")}
    return answers


def _get(request: HttpRequest, path: str) -> Any:
    """A GET of ``path`` by ``request``'s viewer, answered by the API's view in this process."""
    match = resolve(path)
    sub = HttpRequest()
    sub.method = "GET"
    sub.path = sub.path_info = path
    sub.GET = QueryDict()
    sub.COOKIES = request.COOKIES
    sub.META = {
        **request.META,
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "HTTP_ACCEPT": "application/json",
        "CONTENT_LENGTH": "0",
    }
    sub.META.pop("HTTP_IF_NONE_MATCH", None)  # the page's own validator is no answer's
    sub.resolver_match = match
    # What the middleware gave the page's request: its viewer and session.
    sub.user = request.user
    sub.session = request.session
    response = match.func(sub, *match.args, **match.kwargs)
    response.render()
    return response
