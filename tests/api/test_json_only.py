"""The API takes JSON bodies only, as its schema says: a form, multipart or text body answers 415 with the
one error body, whatever the endpoint does with its body, and changes nothing."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from dipserver.games.models import Message, Order
from tests.api.conftest import client_for, user_of

pytestmark = pytest.mark.django_db


def _unsupported(answer) -> dict:
    assert answer.status_code == 415, answer.content[:300]
    assert answer["Content-Type"] == "application/json"
    error = answer.json()["error"]
    assert (error["code"], error["fields"]) == ("unsupported_media_type", {})
    return error


def test_a_form_body_is_refused_with_415_and_nothing_is_stored(game):
    france = client_for(user_of(game, "FRANCE"))
    answer = france.put(
        f"/api/v1/games/{game.id}/orders",
        "phase=S1901M&orders=A+PAR+H",
        content_type="application/x-www-form-urlencoded",
    )
    assert "application/x-www-form-urlencoded" in _unsupported(answer)["message"]
    assert not Order.objects.exists()


def test_a_multipart_body_is_refused_with_415(game):
    answer = client_for(user_of(game, "FRANCE")).post(
        f"/api/v1/games/{game.id}/messages", {"body": "Hello"}, format="multipart"
    )
    _unsupported(answer)
    assert not Message.objects.exists()


def test_a_text_body_is_refused_with_415(game):
    body = json.dumps({"body": "Hello"})
    answer = client_for(user_of(game, "FRANCE")).post(
        f"/api/v1/games/{game.id}/messages", body, content_type="text/plain"
    )
    _unsupported(answer)


def test_a_form_body_to_a_write_that_reads_no_body_is_refused_too(game):
    answer = client_for(user_of(game, "FRANCE")).post(
        f"/api/v1/games/{game.id}/leave", {"x": "1"}, format="multipart"
    )
    _unsupported(answer)


def test_json_with_a_charset_is_json(game):
    body = json.dumps({"body": "Hello"})
    answer = client_for(user_of(game, "FRANCE")).post(
        f"/api/v1/games/{game.id}/messages", body, content_type="application/json; charset=utf-8"
    )
    assert answer.status_code == 201, answer.content[:300]


def test_a_write_without_a_body_needs_no_media_type(game, master):
    assert client_for(master).post(f"/api/v1/games/{game.id}/pause").status_code == 200


def test_the_schema_documents_json_bodies_only_and_415_on_every_write():
    from tests.api.test_schema import DOCUMENT

    for path, item in DOCUMENT["paths"].items():
        for method, operation in item.items():
            if "requestBody" in operation:
                assert set(operation["requestBody"]["content"]) == {"application/json"}, (method, path)
            if method in ("post", "put", "patch", "delete"):
                assert "415" in operation["responses"], (method, path)


def test_the_sites_own_pages_still_post_their_forms():
    """The pages' forms post to the site's addresses, never under /api/ (their scripts send JSON)."""
    answer = Client().post("/accounts/login/", {"username": "nobody", "password": "x"})
    assert answer.status_code == 200 and b"<form" in answer.content


def test_the_browsable_api_offers_its_json_form(game):
    client = client_for(user_of(game, "FRANCE"))
    answer = client.get(f"/api/v1/games/{game.id}/messages", HTTP_ACCEPT="text/html")
    assert answer.status_code == 200
    page = answer.content.decode()
    assert 'name="_content_type"' in page and "application/json" in page
    assert "multipart/form-data" not in page
