"""A player's profile: games and how each went for them, per variant, and the games a visitor may see."""

from __future__ import annotations

from dipserver.games.models import Game, Power
from dipserver.games.services.games import game_draw_vote
from dipserver.games.services.powers import power_replace
from dipserver.players.profiles import profile_of
from tests.factories import UserFactory
from tests.players.conftest import play, seat, started_game

ALL = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def draw_all(game: Game) -> None:
    for power in Power.objects.filter(game=game).select_related("user"):
        game_draw_vote(game_id=game.id, user=power.user, vote=True)


def test_a_drawn_game_counts_as_played_finished_and_drawn_for_its_variant(users):
    game = started_game(users)
    draw_all(game)

    profile = profile_of(users[0])

    assert profile.totals.played == 1 and profile.totals.finished == 1
    assert profile.per_variant["standard"].outcomes["drawn"] == 1
    assert profile.recent[0].outcome == "drawn" and profile.recent[0].game_id == game.id


def test_a_game_in_play_counts_as_playing(users):
    started_game(users)

    assert profile_of(users[0]).totals.outcomes["playing"] == 1
    assert profile_of(users[0]).totals.finished == 0


def test_a_player_replaced_keeps_the_game_as_replaced_not_as_its_later_result(users):
    game = started_game(users)
    gone = seat(game, "TURKEY").user
    power_replace(power_id=seat(game, "TURKEY").id, user=users[8])
    draw_all(game)

    assert profile_of(gone).totals.outcomes["replaced"] == 1
    assert profile_of(gone).totals.finished == 0
    assert profile_of(users[8]).totals.outcomes["drawn"] == 1


def test_a_running_anonymous_game_is_counted_but_not_listed_to_others(users):
    started_game(users, press=Game.Press.ANONYMOUS)

    seen = profile_of(users[0], UserFactory())

    assert seen.totals.played == 1 and seen.recent == []


def test_a_running_anonymous_game_is_listed_to_the_player_themself_and_its_masters(users):
    master = UserFactory()
    started_game(users, press=Game.Press.ANONYMOUS, masters=[master])

    assert len(profile_of(users[0], users[0]).recent) == 1
    assert len(profile_of(users[0], master).recent) == 1


def test_a_finished_anonymous_game_is_listed_to_everyone(users):
    game = started_game(users, press=Game.Press.ANONYMOUS)
    draw_all(game)

    assert len(profile_of(users[0], None).recent) == 1


def test_the_profile_carries_the_reliability_from_the_phases_played(users):
    game = started_game(users)
    play(game, [p for p in ALL if p != "AUSTRIA"])

    assert profile_of(seat(game, "AUSTRIA").user).reliability.percent == 0
