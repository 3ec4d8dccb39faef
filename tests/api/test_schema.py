"""The OpenAPI schema: valid, served with local interactive docs, and honoured by the server.

Schemathesis generates requests from the schema, valid and invalid ones (a bounded number per operation,
derandomized), against a real game as its player, and runs every one of its checks on each answer: no
5xx, status codes, content types, headers and bodies as documented, invalid data rejected, valid data
accepted, auth not ignored. "Valid data accepted" takes the API's statuses as they are documented: a
schema-valid request is never answered 400 (malformed), but the game's rules may still turn it down, with
409 (the game is not in that state: a seat in a game that has started), 412 (an If-Match naming a version
that is not the current one) or 422 (the rules refuse it: an order for a unit that is not there, a press
channel one does not have), which no schema can foresee.
"""

from __future__ import annotations

import json

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test
from schemathesis.config import PositiveDataAcceptanceConfig

from dipserver.accounts.models import ApiToken
from dipserver.accounts.tokens import token_create
from tests.api.conftest import start_game, user_of

EXAMPLES_PER_OPERATION = 12


def _schema() -> dict:
    document = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(json.dumps(document, default=str))


schema = schemathesis.openapi.from_dict(_schema())
schema.app = get_wsgi_application()
# Schemathesis' own list of the statuses valid data may get (409 among them), and 412 and 422 (see above).
ACCEPTED = [*PositiveDataAcceptanceConfig().expected_statuses, "412", "422"]
schema.config.checks.positive_data_acceptance = PositiveDataAcceptanceConfig(expected_statuses=ACCEPTED)


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


DOCUMENT = _schema()


def _operation(path: str, method: str) -> dict:
    return DOCUMENT["paths"][f"/api/v1{path}"][method]


def _errors(path: str, method: str) -> set[str]:
    return {code for code in _operation(path, method)["responses"] if code >= "400"}


def test_every_error_answer_is_documented_with_the_one_error_body():
    for path, item in DOCUMENT["paths"].items():
        for method, operation in item.items():
            for code, response in operation["responses"].items():
                if code >= "400":
                    ref = response["content"]["application/json"]["schema"]["$ref"]
                    assert ref.rsplit("/", 1)[-1] in ("Error", "InvalidOrders"), (method, path, code)


def test_a_write_documents_every_error_the_server_can_give_it():
    assert _errors("/games/{game_id}/orders", "put") == {
        "400", "401", "403", "404", "409", "412", "413", "415", "422", "429", "503"
    }  # fmt: skip
    assert _errors("/games/{game_id}/messages", "post") >= {"413", "422", "429"}  # a reused idempotency key
    assert "409" in _errors("/accounts/tokens", "post")  # too many tokens


def test_a_public_read_documents_only_the_errors_it_can_give():
    assert _errors("/variants", "get") == {"401"}  # a bad token is refused anywhere
    assert _errors("/games/{game_id}/phases/{index}/map.png", "get") == {"400", "401", "404", "429"}


def test_lists_document_their_paging_as_the_server_answers_it():
    parameters = {p["name"]: p["schema"] for p in _operation("/games", "get")["parameters"]}
    assert parameters["page"] == {"type": "integer", "minimum": 1}
    assert parameters["page_size"] == {"type": "integer", "minimum": 1, "maximum": 200}
    envelope = DOCUMENT["components"]["schemas"]["PaginatedGamesApiListOutputList"]
    assert envelope["required"] == ["count", "next", "previous", "results"]


def test_picture_widths_and_message_ids_carry_their_bounds():
    png = {
        p["name"]: p["schema"]
        for p in _operation("/games/{game_id}/phases/{index}/map.png", "get")["parameters"]
    }
    assert (png["width"]["minimum"], png["width"]["maximum"]) == (100, 4000)
    for path in ("/games/{game_id}/messages", "/games/{game_id}/channels", "/games/{game_id}/press/public"):
        since = {p["name"]: p["schema"] for p in _operation(path, "get")["parameters"]}["since"]
        assert since["minimum"] == 0, path


def test_statuses_order_kinds_and_outcomes_are_enums():
    schemas = DOCUMENT["components"]["schemas"]
    assert schemas["GameStatusEnum"]["enum"] == ["forming", "active", "paused", "finished"]
    assert schemas["PhaseStatusEnum"]["enum"] == ["open", "processed"]
    assert schemas["PowerStatusEnum"]["enum"] == ["active", "civil_disorder", "eliminated"]
    assert "bounce" in schemas["OutcomeEnum"]["enum"]
    assert {"move", "support_move", "build"} <= set(schemas["OptionKindEnum"]["enum"])
    assert {"move", "support_move", "waive"} <= set(schemas["ResultKindEnum"]["enum"])
    news = ["phase_processed", "deadline_reminder", "press", "game_started", "game_ended", "version_changed"]
    assert schemas["NotificationKindEnum"]["enum"] == news
    assert schemas["GamePressEnum"]["enum"] == ["full", "public", "gunboat", "anonymous"]
    assert schemas["PressMailEnum"]["enum"] == ["each", "digest", "off"]
    assert schemas["DeliveryStatusEnum"]["enum"] == ["pending", "delivered", "failed"]
    assert schemas["WebhookViewEnum"]["enum"] == ["player", "game"]
    # Each kind field names its own enum: an inbox's kind is never an order's.
    assert schemas["Notification"]["properties"]["kind"] == {
        "$ref": "#/components/schemas/NotificationKindEnum"
    }
    assert schemas["Delivery"]["properties"]["kind"] == {"$ref": "#/components/schemas/NotificationKindEnum"}
    assert schemas["Webhook"]["properties"]["kinds"]["items"] == {
        "$ref": "#/components/schemas/NotificationKindEnum"
    }


def test_a_version_preview_documents_what_changes_in_sentences():
    answer = _operation("/games/{game_id}/studio-versions/{version_id}", "get")["responses"]["200"]
    ref = answer["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    preview = DOCUMENT["components"]["schemas"][ref]
    assert preview["properties"]["diff_lines"]["items"] == {"type": "string"}
    assert {"from", "to", "phase", "diff", "diff_lines", "problems", "applicable"} <= set(preview["required"])


def test_the_schema_is_generated_without_warnings():
    """drf-spectacular warns where it guesses (an enum named by a hash, an operationId given a numeral):
    a guess is a name a client cannot rely on."""
    GENERATOR_STATS.reset()
    SchemaGenerator().get_schema(request=None, public=True)
    assert not GENERATOR_STATS, (dict(GENERATOR_STATS._warn_cache), dict(GENERATOR_STATS._error_cache))


def test_the_new_lists_are_pages_like_the_others():
    for path in ("/notifications", "/webhooks/{webhook_id}/deliveries"):
        operation = _operation(path, "get")
        ref = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
        envelope = DOCUMENT["components"]["schemas"][ref.rsplit("/", 1)[-1]]
        assert envelope["required"] == ["count", "next", "previous", "results"], path
        assert {"page", "page_size"} <= {p["name"] for p in operation["parameters"]}, path
        assert "404" in _errors(path, "get"), path  # a page past the last one


@pytest.fixture
def player_in_a_game(players, master):
    game = start_game(players, master)
    # Requests go through the WSGI app itself, so keep the test's connection open between them, as
    # Django's own test client does (PostgreSQL would otherwise close it inside the test transaction).
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield game
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


def _token_for(game) -> str:
    """France's token, made afresh for every request: a request may sign out or rotate the one it was
    given (and a user has at most 50)."""
    user = user_of(game, "FRANCE")
    ApiToken.objects.filter(user=user).delete()
    return token_create(user=user, name="schemathesis")[1]


def test_valid_data_may_be_refused_by_the_rules_but_never_called_malformed():
    operation = schema["/api/v1/games/{game_id}/orders"]["PUT"]
    config = schema.config.checks_config_for(operation=operation, phase="fuzzing").positive_data_acceptance
    assert config.enabled
    assert "400" not in config.expected_statuses and {"409", "412", "422"} <= set(config.expected_statuses)


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    derandomize=True,  # the same examples every run: a failure can be reproduced
    suppress_health_check=list(HealthCheck),
)
def test_the_server_answers_as_its_schema_says(case, player_in_a_game):
    game = player_in_a_game
    params = case.path_parameters or {}
    # Aim at the real game, so requests get past the 404; a value of another type stays (it is invalid).
    if isinstance(params.get("game_id"), int):
        params["game_id"] = game.id
    if isinstance(params.get("index"), int):
        params["index"] = params["index"] % 2
    case.call_and_validate(headers={"Authorization": f"Token {_token_for(game)}"})  # every check


STATEFUL_SCENARIOS, STATEFUL_STEPS = 5, 5


def test_the_server_answers_as_its_schema_says_through_linked_calls(player_in_a_game):
    """The stateful phase: schemathesis chains calls through the links it infers from the schema (a game
    created, then read, joined, its phases listed; a token made, then rotated or revoked...), and checks
    every answer as above."""

    game = player_in_a_game

    class Workflow(schema.as_state_machine()):
        def get_call_kwargs(self, case):
            self.headers = {"Authorization": f"Token {_token_for(game)}"}
            return {"headers": self.headers}

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            # The headers given as explicit auth, as call_and_validate does: the auth checks then probe
            # the same request without them, and with made-up ones.
            case.validate_response(response, headers=self.headers, transport_kwargs=kwargs or None)

    run_state_machine_as_test(
        Workflow,
        settings=settings(
            max_examples=STATEFUL_SCENARIOS,
            stateful_step_count=STATEFUL_STEPS,
            deadline=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        ),
    )
