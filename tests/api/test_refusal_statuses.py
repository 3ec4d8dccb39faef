"""What a refusal answers: 400 only for a malformed request; 409 when the game is not in the state the
request needs (look again: it may be allowed later); 422 when the rules refuse a well-formed request;
403 and 404 as everywhere. The status follows from the error's code alone (``GAME_ERROR_STATUSES``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import dipserver
from dipserver.api.errors import GAME_ERROR_STATUSES, Refused, status_of
from dipserver.games.models import Game, Order
from dipserver.games.services.games import game_create, game_finish, game_join
from tests.api.conftest import client_for, user_of

pytestmark = pytest.mark.django_db


def _error(answer) -> tuple[int, str]:
    return answer.status_code, answer.json()["error"]["code"]


def test_joining_a_game_that_has_started_is_a_conflict(game, outsider):
    answer = client_for(outsider).post(f"/api/v1/games/{game.id}/join", {}, format="json")
    assert _error(answer) == (409, "already_started")
    assert "has already started" in answer.json()["error"]["message"]


def test_joining_twice_is_a_conflict(players, master):
    forming = game_create(name="Forming", variant="standard", masters=[master])
    game_join(game_id=forming.id, user=players[0])
    answer = client_for(players[0]).post(f"/api/v1/games/{forming.id}/join", {}, format="json")
    assert _error(answer) == (409, "already_joined")


def test_a_wrong_game_password_is_forbidden(players, master):
    locked = game_create(name="Locked", variant="standard", masters=[master], join_password="sesame")
    answer = client_for(players[0]).post(f"/api/v1/games/{locked.id}/join", {"password": "x"}, format="json")
    assert _error(answer) == (403, "wrong_password")
    assert not locked.powers.exists()


def test_preferring_a_power_the_variant_lacks_is_unprocessable(players, master):
    forming = game_create(name="Forming", variant="standard", masters=[master])
    body = {"preferences": ["ATLANTIS"]}
    answer = client_for(players[0]).post(f"/api/v1/games/{forming.id}/join", body, format="json")
    assert _error(answer) == (422, "refused")
    assert "Unknown power" in answer.json()["error"]["message"]


def test_ready_for_a_phase_that_is_not_open_is_a_conflict(game):
    body = {"phase": "F1901M", "ready": True}
    answer = client_for(user_of(game, "FRANCE")).put(f"/api/v1/games/{game.id}/ready", body, format="json")
    assert _error(answer) == (409, "conflict")


def test_orders_for_another_powers_unit_are_unprocessable_and_the_rest_stored(game):
    body = {"phase": "S1901M", "orders": ["A PAR - BUR", "F LON - NTH"]}
    answer = client_for(user_of(game, "FRANCE")).put(f"/api/v1/games/{game.id}/orders", body, format="json")
    assert _error(answer) == (422, "invalid_orders")
    assert [o["valid"] for o in answer.json()["error"]["orders"]] == [True, False]
    assert list(Order.objects.filter(power__name="FRANCE").values_list("text", flat=True)) == ["A PAR - BUR"]


def test_orders_for_a_finished_game_are_a_conflict(game):
    game_finish(game=game, result="draw", winners=[])
    body = {"phase": "S1901M", "orders": ["A PAR - BUR"]}
    answer = client_for(user_of(game, "FRANCE")).put(f"/api/v1/games/{game.id}/orders", body, format="json")
    assert answer.status_code == 409


def test_pausing_a_paused_game_and_resuming_a_running_one_are_conflicts(game, master):
    gm = client_for(master)
    assert _error(gm.post(f"/api/v1/games/{game.id}/resume")) == (409, "not_paused")
    assert gm.post(f"/api/v1/games/{game.id}/pause").status_code == 200
    assert _error(gm.post(f"/api/v1/games/{game.id}/pause")) == (409, "not_in_play")
    game.refresh_from_db()
    assert game.status == Game.Status.PAUSED


def test_a_malformed_request_is_still_400_invalid(game):
    body = {"phase": "1901", "ready": "yes"}
    answer = client_for(user_of(game, "FRANCE")).put(f"/api/v1/games/{game.id}/ready", body, format="json")
    assert _error(answer) == (400, "invalid")
    assert set(answer.json()["error"]["fields"]) == {"phase", "ready"}


def test_no_refusal_code_answers_400():
    assert 400 not in GAME_ERROR_STATUSES.values()
    assert status_of("a code nobody listed") == 422  # a refusal of the rules, as the default "refused"
    assert Refused("Wrong.", code="game_full").status_code == 409


REFUSALS = {"GameError", "TokenError", "WebhookError", "Refused"}


def _codes_raised(source: str) -> set[str]:
    """The ``code=`` of every refusal made in ``source``."""
    calls = [node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Call)]
    return {
        keyword.value.value
        for call in calls
        if getattr(call.func, "id", getattr(call.func, "attr", None)) in REFUSALS
        for keyword in call.keywords
        if keyword.arg == "code" and isinstance(keyword.value, ast.Constant)
    }


def test_every_code_a_service_raises_has_its_status_listed():
    """A new code must be placed in the table on purpose (409 or 422 or another), not fall to a default."""
    root = Path(dipserver.__file__).parent
    raised = {code for path in root.rglob("*.py") for code in _codes_raised(path.read_text())}
    assert {"game_full", "already_started", "address_refused", "bad_credentials"} <= raised  # the scan works
    assert raised - set(GAME_ERROR_STATUSES) == set()
