"""The schema's OpenAPI links for the main chain (create -> join -> options -> orders -> ready): each
names an operation that exists, fills its path parameters from what the answer holds, and a client that
follows them from a new game gets through the chain."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

from tests.api.conftest import client_for

DOCUMENT = SchemaGenerator().get_schema(request=None, public=True)
BY_ID = {
    operation["operationId"]: (path, method, operation)
    for path, item in DOCUMENT["paths"].items()
    for method, operation in item.items()
}
LINKS = [
    (source, code, name, link)
    for source, (_, _, operation) in BY_ID.items()
    for code, response in operation["responses"].items()
    for name, link in response.get("links", {}).items()
]
CHAIN = [
    "v1_games_create",
    "v1_games_join_create",
    "v1_games_options_retrieve",
    "v1_games_orders_update",
    "v1_games_ready_update",
]


def _body_properties(operation: dict, code: str) -> set[str]:
    ref = operation["responses"][code]["content"]["application/json"]["schema"]["$ref"]
    return set(DOCUMENT["components"]["schemas"][ref.rsplit("/", 1)[-1]]["properties"])


def test_each_link_names_an_operation_and_fills_exactly_its_path_parameters():
    assert LINKS
    for source, code, name, link in LINKS:
        path, _, operation = BY_ID[source]
        target_path, _, _ = BY_ID[link["operationId"]]
        assert set(link["parameters"]) == set(re.findall(r"{(\w+)}", target_path)), (source, name)
        for expression in link["parameters"].values():
            if expression.startswith("$response.body#/"):
                assert expression.removeprefix("$response.body#/") in _body_properties(operation, code)
            else:
                assert expression.removeprefix("$request.path.") in re.findall(r"{(\w+)}", path)


def test_the_links_lead_from_creating_a_game_to_saying_ready():
    for here, following in itertools.pairwise(CHAIN):
        targets = {link["operationId"] for source, _, _, link in LINKS if source == here}
        assert following in targets, here


def _resolve(expression: str, path_values: dict[str, Any], body: dict[str, Any]) -> Any:
    """An OpenAPI runtime expression, of the two kinds the links use."""
    if expression.startswith("$response.body#/"):
        return body[expression.removeprefix("$response.body#/")]
    return path_values[expression.removeprefix("$request.path.")]


def _follow(source: str, code: str, target: str, path_values: dict, body: dict) -> tuple[str, dict]:
    (link,) = [link for s, c, _, link in LINKS if (s, c) == (source, code) and link["operationId"] == target]
    values = {name: _resolve(expr, path_values, body) for name, expr in link["parameters"].items()}
    path = BY_ID[target][0]
    return re.sub(r"{(\w+)}", lambda m: str(values[m[1]]), path), values


@pytest.mark.django_db
def test_a_client_following_the_links_plays_a_phase(players, master):
    made = client_for(master).post("/api/v1/games", {"name": "Linked", "variant": "standard"}, format="json")
    assert made.status_code == 201, made.content
    join_path, values = _follow("v1_games_create", "201", "v1_games_join_create", {}, made.json())
    for user in players:
        joined = client_for(user).post(join_path, {}, format="json")
        assert joined.status_code == 200, joined.content
    me = client_for(players[-1])
    options_path, values = _follow(
        "v1_games_join_create", "200", "v1_games_options_retrieve", {}, joined.json()
    )
    options = me.get(options_path)
    assert options.status_code == 200, options.content
    phase = options.json()["phase"]
    orders_path, values = _follow("v1_games_options_retrieve", "200", "v1_games_orders_update", values, {})
    order = next(iter(options.json()["units"].values()))[0]["text"]  # a unit's first choice
    held = me.put(orders_path, {"phase": phase, "orders": [order]}, format="json")
    assert held.status_code == 200, held.content
    ready_path, _ = _follow("v1_games_orders_update", "200", "v1_games_ready_update", values, held.json())
    ready = me.put(ready_path, {"phase": phase, "ready": True}, format="json")
    assert ready.status_code == 200, ready.content
