"""Reliability is read from the stored phases and orders of the seats a player held: phases due (the
power had a decision to make) and phases ordered, with civil disorders as runs of misses that reached the
game's limit. It is computed afresh, never counted up, so it follows a revert or a replacement."""

from __future__ import annotations

from dipserver.games.services.phases import phase_revert
from dipserver.games.services.powers import power_replace
from dipserver.players.reliability import Reliability, reliability_of
from tests.players.conftest import play, seat, started_game

ALL = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def test_a_player_who_ordered_in_one_of_two_phases_due_is_half_reliable(users):
    game = started_game(users)
    play(game, ALL)
    play(game, [p for p in ALL if p != "FRANCE"])

    mine = reliability_of(seat(game, "FRANCE").user)

    assert (mine.phases_due, mine.phases_ordered, mine.percent) == (2, 1, 50)


def test_the_open_phase_is_not_yet_due(users):
    game = started_game(users)
    play(game, ALL)

    assert reliability_of(seat(game, "FRANCE").user).phases_due == 1


def test_a_phase_where_the_power_had_nothing_to_decide_is_not_due(users):
    game = started_game(users)
    play(game, ALL)
    play(game, ALL)  # F1901M: nobody moved, so no winter adjustments are due and Spring 1902 opens

    assert reliability_of(seat(game, "ENGLAND").user).phases_due == 2


def test_a_newcomer_has_no_percentage_and_meets_any_minimum(users):
    newcomer = reliability_of(users[8])

    assert newcomer == Reliability(0, 0, 0) and newcomer.percent is None
    assert newcomer.meets(100)


def test_missed_phases_in_a_row_reaching_the_games_limit_are_one_civil_disorder(users):
    game = started_game(users, missed_limit=2)
    others = [p for p in ALL if p != "ITALY"]
    for _ in range(3):
        play(game, others)

    italy = reliability_of(seat(game, "ITALY").user)

    assert (italy.phases_due, italy.phases_ordered, italy.civil_disorders) == (3, 0, 1)
    assert not italy.meets(1)


def test_the_phases_before_a_replacement_are_the_old_players_and_after_it_the_new_ones(users):
    game = started_game(users)
    gone = seat(game, "TURKEY").user
    play(game, [p for p in ALL if p != "TURKEY"])
    power_replace(power_id=seat(game, "TURKEY").id, user=users[8])
    play(game, ALL)

    assert (reliability_of(gone).phases_due, reliability_of(gone).phases_ordered) == (1, 0)
    assert (reliability_of(users[8]).phases_due, reliability_of(users[8]).phases_ordered) == (1, 1)


def test_a_reverted_phase_no_longer_counts(users):
    game = started_game(users)
    play(game, ALL)
    play(game, [p for p in ALL if p != "GERMANY"])

    phase_revert(game_id=game.id, index=1)

    assert reliability_of(seat(game, "GERMANY").user).percent == 100
