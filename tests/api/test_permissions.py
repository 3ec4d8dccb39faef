"""The permission matrix: every endpoint, asked by anonymous, a non-member, a member acting as their own
power, a game master of the game, and an admin. Statuses only; what each may *see* is in test_leaks."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.conftest import client_for, start_game, user_of
from tests.factories import AdminFactory, UserFactory

ROLES = ("anonymous", "outsider", "player", "master", "admin")

# (method, path, body, expected status per role in ROLES order). {g} is the game in play (S1901M).
MATRIX = [
    ("get", "/api/v1/accounts/me", None, (401, 200, 200, 200, 200)),
    ("get", "/api/v1/variants", None, (200, 200, 200, 200, 200)),
    ("get", "/api/v1/variants/standard", None, (200, 200, 200, 200, 200)),
    ("get", "/api/v1/games", None, (200, 200, 200, 200, 200)),
    ("post", "/api/v1/games", {"name": "New", "variant": "standard"}, (401, 201, 201, 201, 201)),
    ("get", "/api/v1/games/{g}", None, (200, 200, 200, 200, 200)),
    ("post", "/api/v1/games/{g}/join", {}, (401, 409, 409, 409, 409)),  # started: a conflict, with a reason
    ("post", "/api/v1/games/{g}/leave", None, (401, 403, 409, 403, 403)),
    ("get", "/api/v1/games/{g}/phases", None, (200, 200, 200, 200, 200)),
    ("get", "/api/v1/games/{g}/phases/0", None, (200, 200, 200, 200, 200)),
    ("get", "/api/v1/games/{g}/phases/0/map.svg", None, (200, 200, 200, 200, 200)),
    ("get", "/api/v1/games/{g}/phases/0/map.png", None, (200, 200, 200, 200, 200)),
    ("get", "/api/v1/games/{g}/timeline", None, (200, 200, 200, 200, 200)),
    ("get", "/api/v1/games/{g}/geometry", None, (200, 200, 200, 200, 200)),
    ("get", "/api/v1/games/{g}/orders", None, (401, 403, 200, 403, 403)),
    (
        "put",
        "/api/v1/games/{g}/orders",
        {"phase": "S1901M", "orders": ["A PAR H"]},
        (401, 403, 200, 403, 403),
    ),
    ("delete", "/api/v1/games/{g}/orders?phase=S1901M", None, (401, 403, 204, 403, 403)),
    ("get", "/api/v1/games/{g}/options", None, (401, 403, 200, 403, 403)),
    ("put", "/api/v1/games/{g}/ready", {"phase": "S1901M", "ready": False}, (401, 403, 200, 403, 403)),
    ("put", "/api/v1/games/{g}/draw-vote", {"phase": "S1901M", "vote": False}, (401, 403, 200, 403, 403)),
    ("post", "/api/v1/games/{g}/concede", {"to": "ENGLAND"}, (401, 403, 200, 403, 403)),
    ("get", "/api/v1/games/{g}/channels", None, (401, 403, 200, 403, 403)),
    ("post", "/api/v1/games/{g}/channels", {"channel": "public"}, (401, 403, 200, 403, 403)),
    ("get", "/api/v1/games/{g}/messages", None, (401, 403, 200, 403, 403)),
    ("post", "/api/v1/games/{g}/messages", {"body": "Hello all"}, (401, 403, 201, 403, 403)),
    ("post", "/api/v1/games/{g}/process", {"phase": "S1901M"}, (401, 403, 403, 200, 200)),
    ("post", "/api/v1/games/{g}/extend", {"deadline": "2099-01-01T12:00:00Z"}, (401, 403, 403, 200, 200)),
    ("post", "/api/v1/games/{g}/pause", None, (401, 403, 403, 200, 200)),
    ("post", "/api/v1/games/{g}/resume", None, (401, 403, 403, 409, 409)),  # not paused: a conflict
]


@pytest.fixture(scope="module")
def cast(module_db) -> dict[str, Any]:
    """The game in play and one login per role, made once for the matrix: each case writes, if at all,
    inside its own transaction, rolled back after it."""
    master = UserFactory()
    game = start_game(UserFactory.create_batch(7), master)
    return {
        "game": game,
        "anonymous": None,
        "outsider": UserFactory(),
        "player": user_of(game, "FRANCE"),
        "master": master,
        "admin": AdminFactory(),
    }


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(
    ("method", "path", "body", "expected"), MATRIX, ids=[f"{m} {p}" for m, p, *_ in MATRIX]
)
def test_permission_matrix(role, method, path, body, expected, cast, db):
    answer = getattr(client_for(cast[role]), method)(path.format(g=cast["game"].id), body, format="json")
    want = expected[ROLES.index(role)]
    assert answer.status_code == want, answer.content[:300]
    if want >= 400:
        error = answer.json()["error"]
        assert error["code"] and error["message"], error


def test_a_seat_before_the_start_cannot_order_yet(players, master):
    game_id = (
        client_for(master).post("/api/v1/games", {"name": "Forming", "variant": "standard"}).json()["id"]
    )
    client_for(players[0]).post(f"/api/v1/games/{game_id}/join")
    answer = client_for(players[0]).get(f"/api/v1/games/{game_id}/options")
    assert answer.status_code == 403
    assert "has not started yet" in answer.json()["error"]["message"]
