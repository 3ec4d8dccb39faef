"""Every failure under /api/ is the documented JSON body, whatever the client sends; pages keep HTML."""

from __future__ import annotations

import io
import json

import pytest
from django.test import Client

from dipserver.api.errors import PayloadTooLarge
from dipserver.api.parsers import MAX_DEPTH, JSONParser
from tests.api.conftest import client_for, user_of

pytestmark = pytest.mark.django_db

BRACKETS = "[" * 2048  # 2 KB that made Python's JSON decoder recurse until it failed


def _error(answer) -> tuple[int, str]:
    assert answer["Content-Type"] == "application/json", answer.content[:200]
    return answer.status_code, answer.json()["error"]["code"]


@pytest.mark.parametrize("path", ["/api/v1/accounts/token", "/api/v1/accounts/register"])
def test_deeply_nested_brackets_are_a_parse_error_for_anyone(path):
    answer = client_for().generic("POST", path, BRACKETS, content_type="application/json")
    assert _error(answer) == (400, "parse_error")
    assert "nested" in answer.json()["error"]["message"]


def test_deeply_nested_brackets_are_a_parse_error_for_a_player_too(game):
    answer = client_for(user_of(game, "FRANCE")).generic(
        "PUT", f"/api/v1/games/{game.id}/orders", BRACKETS, content_type="application/json"
    )
    assert _error(answer) == (400, "parse_error")


def test_valid_json_nested_deeper_than_the_limit_is_refused():
    deep = json.dumps({"username": "x", "password": "y", "extra": [[[]]]}).replace(
        "[[[]]]", "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    )
    answer = client_for().generic("POST", "/api/v1/accounts/token", deep, content_type="application/json")
    assert _error(answer) == (400, "parse_error")


def test_an_oversized_body_is_413_json(db, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = json.dumps({"username": "x" * 1000, "password": "y"})
    answer = client_for().generic("POST", "/api/v1/accounts/token", body, content_type="application/json")
    assert _error(answer) == (413, "too_large")


def test_an_oversized_form_body_is_413_json_too(db, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    answer = client_for().post("/api/v1/accounts/token", {"username": "x" * 1000, "password": "y"})
    assert _error(answer) == (413, "too_large")


def test_a_body_without_a_declared_length_is_cut_off_at_the_limit(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    with pytest.raises(PayloadTooLarge):
        JSONParser().parse(io.BytesIO(b'"' + b"x" * 1000 + b'"'), "application/json", {})


def test_json_constants_outside_the_standard_are_a_parse_error():
    answer = client_for().generic(
        "POST", "/api/v1/accounts/token", '{"username": NaN}', content_type="application/json"
    )
    assert _error(answer) == (400, "parse_error")


def test_unknown_addresses_anywhere_under_api_answer_json_404():
    assert _error(client_for().get("/api/nothing")) == (404, "not_found")
    assert _error(client_for().get("/api/v2/games")) == (404, "not_found")


def test_a_post_to_an_unknown_api_address_with_a_session_is_404_not_a_csrf_page(outsider):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(outsider)
    assert _error(browser.post("/api/v1/nothing", {"x": 1})) == (404, "not_found")


def test_a_request_for_a_host_not_served_is_a_json_400_under_api():
    answer = Client().get("/api/v1/variants", HTTP_HOST="evil.example")
    assert _error(answer) == (400, "bad_request")


@pytest.mark.urls("tests.api.failing_urls")
@pytest.mark.parametrize("path", ["/api/v1/broken", "/api/v1/broken-api"])
def test_an_unexpected_failure_under_api_is_a_json_500(path):
    answer = Client(raise_request_exception=False).get(path)
    assert _error(answer) == (500, "server_error")
    assert "a bug" not in answer.content.decode()  # nothing of the failure's insides reaches the client


@pytest.mark.urls("tests.api.failing_urls")
def test_a_refusal_outside_drf_under_api_is_a_json_403():
    assert _error(Client().get("/api/v1/forbidden")) == (403, "permission_denied")


@pytest.mark.urls("tests.api.failing_urls")
def test_pages_outside_the_api_keep_html_error_pages():
    for answer, status in (
        (Client(raise_request_exception=False).get("/games/broken/"), 500),
        (Client().get("/no-such-page/"), 404),
    ):
        assert answer.status_code == status
        assert answer["Content-Type"].startswith("text/html")


def test_a_charset_that_is_not_text_is_a_parse_error():
    answer = client_for().generic(
        "POST", "/api/v1/accounts/token", b"{}", content_type="application/json; charset=bz2_codec"
    )
    assert _error(answer) == (400, "parse_error")


@pytest.mark.urls("tests.api.failing_urls")
def test_a_database_locked_past_its_timeout_is_a_json_503_with_retry_after():
    answer = Client(raise_request_exception=False).put("/api/v1/locked")
    assert _error(answer) == (503, "busy")
    assert answer["Retry-After"] == "1"
