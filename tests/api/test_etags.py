"""A game's ETag is the same for equal states and covers only what its viewer sees: another power's
order edits, draw votes and concessions, or who holds a seat in an anonymous game, never change an
observer's tag; a change the observer can see always does. Run on SQLite here and on PostgreSQL (whose
STRING_AGG joins rows in the order it finds them) by tests/integration/test_etags_postgres.py."""

from __future__ import annotations

import pytest

from dipserver.accounts.models import User
from dipserver.games.models import Game
from dipserver.games.services.powers import power_replace
from tests.api.conftest import POWERS, client_for, start_game, user_of

pytestmark = pytest.mark.django_db

HOME_UNITS = ("A VIE", "F LON", "A PAR", "A BER", "A ROM", "A MOS", "A CON")  # one per power, as POWERS


def _path(game: Game) -> str:
    return f"/api/v1/games/{game.id}"


def test_other_powers_revising_their_orders_leave_an_observers_tag_alone(game: Game, outsider) -> None:
    for power, unit in zip(POWERS, HOME_UNITS, strict=True):  # each has orders: that much is public
        stored = client_for(user_of(game, power)).put(
            f"{_path(game)}/orders", {"phase": "S1901M", "orders": [f"{unit} H"]}, format="json"
        )
        assert stored.status_code == 200, stored.content
    observer = client_for(outsider)
    tag = observer.get(_path(game))["ETag"]
    england = client_for(user_of(game, "ENGLAND"))
    for orders in (["F LON - NTH"], ["F LON - ENG"], ["F LON H"], ["F LON - NTH"]):
        stored = england.put(f"{_path(game)}/orders", {"phase": "S1901M", "orders": orders}, format="json")
        assert stored.status_code == 200, stored.content
        assert observer.get(_path(game), HTTP_IF_NONE_MATCH=tag).status_code == 304


def test_draw_votes_and_concessions_leave_an_observers_and_other_powers_tags_alone(
    game: Game, outsider
) -> None:
    observer, austria = client_for(outsider), client_for(user_of(game, "AUSTRIA"))
    tags = {observer: observer.get(_path(game))["ETag"], austria: austria.get(_path(game))["ETag"]}
    for power in POWERS[1:]:
        voted = client_for(user_of(game, power)).put(
            f"{_path(game)}/draw-vote", {"phase": "S1901M", "vote": True}, format="json"
        )
        assert voted.status_code == 200, voted.content
        for client, tag in tags.items():
            assert client.get(_path(game), HTTP_IF_NONE_MATCH=tag).status_code == 304, power
    conceded = client_for(user_of(game, "TURKEY")).post(
        f"{_path(game)}/concede", {"to": "RUSSIA"}, format="json"
    )
    assert conceded.status_code == 200, conceded.content
    for client, tag in tags.items():
        assert client.get(_path(game), HTTP_IF_NONE_MATCH=tag).status_code == 304


def test_a_first_order_or_a_ready_flag_changes_an_observers_tag(game: Game, outsider) -> None:
    observer = client_for(outsider)
    tag = observer.get(_path(game))["ETag"]
    england = client_for(user_of(game, "ENGLAND"))
    england.put(f"{_path(game)}/orders", {"phase": "S1901M", "orders": ["F LON H"]}, format="json")
    seen = observer.get(_path(game), HTTP_IF_NONE_MATCH=tag)
    assert seen.status_code == 200
    tag = seen["ETag"]
    england.put(f"{_path(game)}/ready", {"phase": "S1901M", "ready": True}, format="json")
    assert observer.get(_path(game), HTTP_IF_NONE_MATCH=tag).status_code == 200


def test_a_player_replaced_in_an_anonymous_game_changes_only_the_masters_tag(
    players, master, outsider
) -> None:
    # No grace period for the newcomer: a deadline moved on is news for everyone, which is not what this
    # test is about (who plays is).
    game = start_game(players, master, press="anonymous", replacement_grace_minutes=0)
    observer, boss = client_for(outsider), client_for(master)
    watched, mastered = observer.get(_path(game))["ETag"], boss.get(_path(game))["ETag"]
    seat = observer.get(_path(game)).json()["powers"][0]["seat"]
    power_replace(power_id=seat, user=User.objects.create_user(username="newcomer", password="x" * 20))
    assert observer.get(_path(game), HTTP_IF_NONE_MATCH=watched).status_code == 304
    assert boss.get(_path(game), HTTP_IF_NONE_MATCH=mastered).status_code == 200


def test_a_renamed_player_changes_the_tag_where_players_are_shown(game: Game, outsider) -> None:
    observer = client_for(outsider)
    tag = observer.get(_path(game))["ETag"]
    User.objects.filter(pk=user_of(game, "FRANCE").pk).update(username="francois")
    seen = observer.get(_path(game), HTTP_IF_NONE_MATCH=tag)
    assert seen.status_code == 200
    assert "francois" in [p["player"] for p in seen.json()["powers"]]


def test_a_superuser_right_taken_away_changes_the_tag(game: Game, admin) -> None:
    client = client_for(admin)
    tag = client.get(_path(game))["ETag"]
    assert client.get(_path(game)).json()["me"]["is_master"] is True
    User.objects.filter(pk=admin.pk).update(is_superuser=False)
    seen = client.get(_path(game), HTTP_IF_NONE_MATCH=tag)
    assert seen.status_code == 200
    assert seen.json()["me"]["is_master"] is False
