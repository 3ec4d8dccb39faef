"""Content negotiation picks what DRF's own would, the first time a header is seen and every time after."""

from __future__ import annotations

import pytest
from django.http import Http404
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from dipserver.api.negotiation import RememberingContentNegotiation

ACCEPTS = [
    "application/json",
    "*/*",
    "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "application/json; indent=4",
    "application/*",
    "text/*;q=0.5, application/json",
    "x" * 300,  # longer than any header remembered
]


def _request(accept: str | None, query: str = "") -> Request:
    extra = {} if accept is None else {"HTTP_ACCEPT": accept}
    return Request(APIRequestFactory().get(f"/api/v1/variants{query}", **extra))


def _outcome(negotiation: object, request: Request) -> tuple[type, str] | type:
    """(renderer class, media type) chosen, or the class of the refusal (406, or 404 for a format)."""
    renderers = [JSONRenderer(), BrowsableAPIRenderer()]
    try:
        renderer, media_type = negotiation.select_renderer(request, renderers)  # type: ignore[attr-defined]
    except (NotAcceptable, Http404) as refusal:
        return type(refusal)
    return type(renderer), media_type


@pytest.mark.parametrize("accept", [*ACCEPTS, None])
@pytest.mark.parametrize("query", ["", "?format=json", "?format=api", "?format=xml"])
def test_the_outcome_is_drfs_every_time(accept: str | None, query: str) -> None:
    expected = _outcome(DefaultContentNegotiation(), _request(accept, query))
    for _ in range(2):
        assert _outcome(RememberingContentNegotiation(), _request(accept, query)) == expected


def test_a_refused_header_is_refused_again() -> None:
    for _ in range(2):
        assert _outcome(RememberingContentNegotiation(), _request("image/png")) is NotAcceptable
