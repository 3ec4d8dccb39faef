"""The schema declares the headers clients build on: every answer that carries an ``ETag`` says so, every
read that answers 304 takes ``If-None-Match``, and the writes of my orders take ``If-Match`` and say the
new version they answer with."""

from __future__ import annotations

import re

import pytest
from drf_spectacular.generators import SchemaGenerator

from tests.api.conftest import client_for, user_of

DOCUMENT = SchemaGenerator().get_schema(request=None, public=True)
OPERATIONS = [
    (path, method, operation)
    for path, item in DOCUMENT["paths"].items()
    for method, operation in item.items()
]


def _headers_in(operation: dict, code: str) -> set[str]:
    return set(operation["responses"].get(code, {}).get("headers", {}))


def _parameters(operation: dict, where: str) -> set[str]:
    return {p["name"] for p in operation.get("parameters", []) if p["in"] == where}


def _readable_paths(game) -> list[tuple[str, dict]]:
    """Every GET whose path parameters a started game fills (its id, its first phase, its variant)."""
    values = {"game_id": str(game.id), "index": "0", "slug": game.variant}
    found = []
    for path, method, operation in OPERATIONS:
        names = re.findall(r"{(\w+)}", path)
        if method == "get" and set(names) <= set(values):
            found.append((re.sub(r"{(\w+)}", lambda m: values[m[1]], path), operation))
    return found


def test_every_read_answering_304_takes_if_none_match_and_tags_its_answers():
    conditional = [(path, op) for path, _, op in OPERATIONS if "304" in op["responses"]]
    assert {path for path, _ in conditional} >= {
        "/api/v1/games/{game_id}",
        "/api/v1/games/{game_id}/orders",
        "/api/v1/games/{game_id}/phases/{index}",
        "/api/v1/games/{game_id}/phases/{index}/map.svg",
        "/api/v1/games/{game_id}/phases/{index}/map.png",
        "/api/v1/variants/{slug}",
    }
    for path, operation in conditional:
        assert "If-None-Match" in _parameters(operation, "header"), path
        assert "ETag" in _headers_in(operation, "200") and "ETag" in _headers_in(operation, "304"), path


@pytest.mark.django_db
def test_every_answer_carrying_an_etag_is_documented_with_it(game):
    """Asked of the server itself: each read a player of a started game can make (its master, for a read
    documented as refused to players), and whether its answer is tagged; a tagged one must declare the
    tag, and answer 304 to it as documented."""
    player = client_for(user_of(game, "FRANCE"))
    master = client_for(game.masters.first())
    tagged = []
    for path, operation in _readable_paths(game):
        reader = player
        answer = reader.get(path)
        if answer.status_code == 403 and "403" in operation["responses"]:
            reader = master  # a read for the game's masters (its open seats' requests)
            answer = reader.get(path)
        assert answer.status_code == 200, (path, answer.status_code)
        if answer.has_header("ETag"):
            tagged.append(path)
            assert "ETag" in _headers_in(operation, "200"), path
            again = reader.get(path, HTTP_IF_NONE_MATCH=answer["ETag"])
            assert again.status_code == 304 and "304" in operation["responses"], path
    assert len(tagged) >= 6, tagged


@pytest.mark.parametrize(("method", "codes"), [("put", {"200", "422"}), ("delete", {"204"})])
def test_writes_of_my_orders_take_if_match_and_answer_the_new_etag(method, codes):
    operation = DOCUMENT["paths"]["/api/v1/games/{game_id}/orders"][method]
    assert "If-Match" in _parameters(operation, "header")
    assert "412" in operation["responses"]
    for code in codes:
        assert "ETag" in _headers_in(operation, code), code
