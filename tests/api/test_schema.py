"""The OpenAPI schema: valid, served with local interactive docs, and honoured by the server.

Schemathesis generates requests from the schema (a bounded number per operation) against a real game,
as its player; no answer may be a 5xx, and every 4xx JSON answer must carry the one error body.
"""

from __future__ import annotations

import json

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, settings

from dipserver.accounts.tokens import token_create
from tests.api.conftest import start_game, user_of

EXAMPLES_PER_OPERATION = 12


def _schema() -> dict:
    document = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(json.dumps(document, default=str))


schema = schemathesis.openapi.from_dict(_schema())
schema.app = get_wsgi_application()


def test_the_schema_and_the_docs_are_served_from_the_project(client):
    answer = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert answer.status_code == 200
    paths = json.loads(answer.content)["paths"]
    assert "/api/v1/games/{game_id}/orders" in paths
    assert {"/api/v1/games/{game_id}/timeline", "/api/v1/games/{game_id}/geometry"} <= set(paths)
    docs = client.get("/api/docs/").content.decode()
    assert "swagger-ui" in docs
    assert "cdn" not in docs.lower() and "//unpkg" not in docs
    assert client.get("/api/redoc/").status_code == 200


@pytest.fixture
def player_in_a_game(players, master):
    game = start_game(players, master)
    _, secret = token_create(user=user_of(game, "FRANCE"), name="schemathesis")
    # Requests go through the WSGI app itself, so keep the test's connection open between them, as
    # Django's own test client does (PostgreSQL would otherwise close it inside the test transaction).
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield game, secret
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    derandomize=True,  # the same examples every run: a failure can be reproduced
    suppress_health_check=list(HealthCheck),
)
def test_no_request_the_schema_allows_gets_a_server_error(case, player_in_a_game):
    game, token = player_in_a_game
    params = case.path_parameters or {}
    if "game_id" in params:
        params["game_id"] = game.id  # aim at a real game, so requests get past the 404
    if "index" in params:
        params["index"] = params["index"] % 2 if isinstance(params["index"], int) else 0
    response = case.call(headers={"Authorization": f"Token {token}"})
    assert response.status_code < 500, f"{case.method} {case.formatted_path}: {response.text[:500]}"
    if response.status_code >= 400 and response.headers.get("Content-Type", [""])[0].startswith(
        "application/json"
    ):
        error = json.loads(response.text)["error"]
        assert error["code"] and error["message"], error
