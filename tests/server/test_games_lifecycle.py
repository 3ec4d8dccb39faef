"""Creating, joining, leaving and starting games."""

from __future__ import annotations

import pytest

from dipserver.games.errors import GameError
from dipserver.games.models import Game, Phase, Power
from dipserver.games.services.games import game_create, game_join, game_leave
from tests.server.conftest import START


def test_a_game_pins_the_variant_version_and_commits_to_its_secret(db):
    game = game_create(name="Ice", variant="wall_of_ice", options={"mode": "random"})

    assert game.status == Game.Status.FORMING
    assert len(game.variant_version) == 64
    assert game.options["mode"] == "random"
    assert game.secret and game.commitment != game.secret
    assert game.secret_revealed is None


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"variant": "nowhere"}, "Variant 'nowhere' cannot be used"),
        ({"options": {"mode": "sometimes"}}, "mode must be 'exact' or 'random'"),
        ({"options": {"errata": True}}, "unknown option"),
        ({"press": "loud"}, "Press must be one of"),
        ({"assignment": "alphabetical"}, "Power assignment is 'random' or 'preference'"),
        ({"phase_minutes": {"M": -5}}, "whole number of minutes"),
        ({"deadline_zone": "Mars/Olympus"}, "not a time zone name"),
        ({"end_year": 1850}, "before the game starts"),
        ({"name": "  "}, "needs a name"),
    ],
)
def test_bad_settings_are_refused_with_a_reason(db, settings, message):
    with pytest.raises(GameError, match=message):
        game_create(**{"name": "G", "variant": "standard", **settings})


def test_the_game_starts_when_the_last_seat_is_taken(users):
    game = game_create(name="G", variant="standard")
    for user in users[:6]:
        game_join(game_id=game.id, user=user, now=START)
    game.refresh_from_db()
    assert game.status == Game.Status.FORMING
    assert not Phase.objects.filter(game=game).exists()

    game_join(game_id=game.id, user=users[6], now=START)

    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    names = sorted(Power.objects.filter(game=game).values_list("name", flat=True))
    assert names == ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
    phase = game.current_phase
    assert (phase.name, phase.index, phase.status) == ("S1901M", 0, Phase.Status.OPEN)
    assert phase.deadline == START + __import__("datetime").timedelta(hours=24)
    assert len(phase.snapshot["units"]) == 22


def test_preferences_are_honoured_in_a_preference_game(users):
    game = game_create(name="G", variant="standard", assignment="preference")
    wishes = ["TURKEY", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "AUSTRIA"]
    for user, wish in zip(users[:7], wishes, strict=True):
        game_join(game_id=game.id, user=user, preferences=[wish])

    assigned = dict(Power.objects.filter(game=game).values_list("user__username", "name"))
    assert assigned == {f"player{i}": wish for i, wish in enumerate(wishes)}


def test_random_assignment_is_reproducible_from_the_secret(users):
    first = game_create(name="G", variant="standard")
    for user in users[:7]:
        game_join(game_id=first.id, user=user)
    assigned = dict(Power.objects.filter(game=first).values_list("id", "name"))
    assert len(set(assigned.values())) == 7


def test_joining_checks_password_duplicates_and_preferences(users):
    game = game_create(name="G", variant="standard", join_password="sesame")
    with pytest.raises(GameError, match="Wrong password"):
        game_join(game_id=game.id, user=users[0], password="open")
    game_join(game_id=game.id, user=users[0], password="sesame")
    with pytest.raises(GameError, match="already joined"):
        game_join(game_id=game.id, user=users[0], password="sesame")
    with pytest.raises(GameError, match="Unknown power"):
        game_join(game_id=game.id, user=users[1], password="sesame", preferences=["NARNIA"])
    assert game.join_password != "sesame"  # stored hashed


def test_a_player_may_leave_before_the_start_but_not_after(users, game):
    forming = game_create(name="Forming", variant="standard")
    game_join(game_id=forming.id, user=users[0])
    game_leave(game_id=forming.id, user=users[0])
    assert not Power.objects.filter(game=forming).exists()

    with pytest.raises(GameError, match="Once a game has started you cannot leave"):
        game_leave(game_id=game.id, user=users[0])
    with pytest.raises(GameError, match="already started"):
        game_join(game_id=game.id, user=users[7])
