"""GET and PUT /api/v1/games/<id>/mute: whether I muted a game's news (mail and the inbox), and muting or
unmuting it, for its players and game masters."""

from __future__ import annotations

import pytest

from tests.api.conftest import client_for, user_of

pytestmark = pytest.mark.django_db


def mute_path(game) -> str:
    return f"/api/v1/games/{game.id}/mute"


def test_a_game_is_not_muted_until_i_mute_it(game):
    assert client_for(user_of(game, "FRANCE")).get(mute_path(game)).json() == {"muted": False}


def test_a_player_mutes_and_unmutes_a_game(game):
    france = client_for(user_of(game, "FRANCE"))
    assert france.put(mute_path(game), {"muted": True}, format="json").json() == {"muted": True}
    assert france.get(mute_path(game)).json() == {"muted": True}
    assert france.put(mute_path(game), {"muted": False}, format="json").json() == {"muted": False}
    assert france.get(mute_path(game)).json() == {"muted": False}


def test_my_mute_is_mine_alone(game):
    client_for(user_of(game, "FRANCE")).put(mute_path(game), {"muted": True}, format="json")
    assert client_for(user_of(game, "ENGLAND")).get(mute_path(game)).json() == {"muted": False}


def test_a_game_master_who_does_not_play_may_mute_the_game(game, master):
    answer = client_for(master).put(mute_path(game), {"muted": True}, format="json")
    assert answer.status_code == 200 and answer.json() == {"muted": True}


def test_someone_outside_the_game_is_refused_with_a_code(game, outsider):
    answer = client_for(outsider).put(mute_path(game), {"muted": True}, format="json")
    assert (answer.status_code, answer.json()["error"]["code"]) == (403, "not_yours")


def test_muting_needs_a_login(game):
    assert client_for().put(mute_path(game), {"muted": True}, format="json").status_code == 401
    assert client_for().get(mute_path(game)).status_code == 401


def test_a_body_without_a_yes_or_no_is_a_400_naming_the_field(game):
    france = client_for(user_of(game, "FRANCE"))
    answer = france.put(mute_path(game), {"muted": "perhaps"}, format="json")
    assert (answer.status_code, list(answer.json()["error"]["fields"])) == (400, ["muted"])


def test_an_unknown_game_is_a_404(game):
    answer = client_for(user_of(game, "FRANCE")).put("/api/v1/games/999999/mute", {"muted": True})
    assert answer.status_code == 404
