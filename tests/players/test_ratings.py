"""Ratings: updated once when a rated game ends, per variant family, with places from the ending (a solo
first, a draw shared, eliminations ordered by when they came); unrated games change nothing; a game
master's revert that puts an ended game back in play takes its rating back."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from dipserver.games.errors import GameError
from dipserver.games.models import Game, Power
from dipserver.games.services.games import game_concede, game_create, game_draw_vote, game_join
from dipserver.games.services.phases import phase_revert
from dipserver.players.models import Rating, RatingChange
from dipserver.players.ratings import Standing, game_rate, places, rating_value_of
from tests.players.conftest import seat, started_game


def seats(game: Game) -> list[Power]:
    return list(Power.objects.filter(game=game).select_related("user").order_by("name"))


def draw_all(game: Game) -> None:
    for power in seats(game):
        game_draw_vote(game_id=game.id, user=power.user, vote=True)


def concede_all_to(game: Game, winner: str) -> None:
    for power in seats(game):
        if power.name != winner:
            game_concede(game_id=game.id, user=power.user, to=winner)


def rating(user, family="standard") -> Rating:
    return Rating.objects.get(user=user, family=family)


def test_a_solo_winner_rises_and_every_other_player_falls(users):
    game = started_game(users)
    winner = seat(game, "FRANCE").user
    concede_all_to(game, "FRANCE")

    assert rating(winner).value > 0 and rating(winner).games == 1
    assert all(rating(p.user).value < rating(winner).value for p in seats(game) if p.name != "FRANCE")
    assert RatingChange.objects.get(game=game, user=winner).rank == 1


def test_the_others_of_a_solo_share_second_place(users):
    game = started_game(users)
    concede_all_to(game, "FRANCE")

    ranks = set(
        RatingChange.objects.filter(game=game)
        .exclude(user=seat(game, "FRANCE").user)
        .values_list("rank", flat=True)
    )
    assert ranks == {2}


def test_a_draw_is_shared_by_its_survivors(users):
    game = started_game(users)
    draw_all(game)

    assert set(RatingChange.objects.filter(game=game).values_list("rank", flat=True)) == {1}
    assert len({round(rating(p.user).mu, 9) for p in seats(game)}) == 1


def test_eliminated_powers_come_after_survivors_the_later_out_the_better(db):
    game = Game(result=Game.Result.DRAW, winners=["A", "B"])
    standings = [Standing("A", 1, False), Standing("B", 2, False), Standing("C", 3, True),
                 Standing("D", 4, True), Standing("E", 5, True)]  # fmt: skip

    assert places(game, standings, {"A": 9, "B": 9, "C": 7, "D": 3, "E": 7}) == {1: 1, 2: 1, 3: 2, 4: 3, 5: 2}


def test_an_unrated_game_changes_no_rating(users):
    game = started_game(users, rated=False)
    draw_all(game)

    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_a_game_is_rated_once(users):
    game = started_game(users)
    draw_all(game)
    before = list(Rating.objects.values_list("mu", "sigma"))

    assert game_rate(Game.objects.get(id=game.id)) == []
    assert list(Rating.objects.values_list("mu", "sigma")) == before


def test_a_variant_built_on_another_shares_its_familys_rating(users):
    game = started_game(users, variant="deluge")
    draw_all(game)

    assert set(Rating.objects.values_list("family", flat=True)) == {"standard"}


def test_a_player_below_the_games_minimum_rating_is_refused(users):
    game = started_game(users)
    loser = seat(game, "ITALY").user
    concede_all_to(game, "FRANCE")
    strict = game_create(name="Strict", variant="standard", min_rating=0)

    with pytest.raises(GameError) as refused:
        game_join(game_id=strict.id, user=loser)

    assert refused.value.code == "rating_too_low" and "in standard; yours is -" in str(refused.value)


def test_a_newcomer_is_rated_zero_and_meets_a_minimum_of_zero(users):
    strict = game_create(name="Strict", variant="standard", min_rating=0)

    assert rating_value_of(users[8], "standard") == 0
    assert game_join(game_id=strict.id, user=users[8]).user == users[8]


def test_the_leaderboard_lists_the_winner_first(users):
    game = started_game(users)
    concede_all_to(game, "RUSSIA")

    body = APIClient().get("/api/v1/leaderboard?family=standard").json()

    assert body["players"][0]["username"] == seat(game, "RUSSIA").user.username
    assert body["players"][0]["place"] == 1 and len(body["players"]) == 7
    assert body["families"] == ["standard"]


def test_the_profile_and_leaderboard_pages_show_ratings(users, client):
    game = started_game(users)
    winner = seat(game, "RUSSIA").user
    concede_all_to(game, "RUSSIA")

    profile = client.get(f"/players/{winner.username}/").content.decode()
    board = client.get("/leaderboard/?family=standard").content.decode()

    assert "after 1 rated game" in profile and f'href="/players/{winner.username}/"' in board
    assert APIClient().get(f"/api/v1/players/{winner.username}").json()["ratings"][0]["games"] == 1


def test_a_game_with_a_bot_in_a_seat_changes_no_rating(users):
    users[3].is_bot = True
    users[3].save(update_fields=["is_bot"])
    game = started_game(users)
    draw_all(game)

    assert not RatingChange.objects.filter(game=game).exists()


def revert_to_its_last_phase(game: Game) -> None:
    game.refresh_from_db()
    phase_revert(game_id=game.id, index=game.current_phase.index)


def test_a_revert_that_reopens_an_ended_game_takes_its_rating_back(users):
    game = started_game(users)
    concede_all_to(game, "FRANCE")

    revert_to_its_last_phase(game)

    assert not RatingChange.objects.filter(game=game).exists()
    assert {(r.mu, r.sigma, r.games) for r in Rating.objects.all()} == {(Rating().mu, Rating().sigma, 0)}


def test_a_reverted_game_that_ends_again_is_rated_by_its_new_ending(users):
    game = started_game(users)
    concede_all_to(game, "FRANCE")
    revert_to_its_last_phase(game)

    concede_all_to(game, "ITALY")

    assert RatingChange.objects.get(game=game, rank=1).user == seat(game, "ITALY").user
    assert rating(seat(game, "ITALY").user).games == 1 and rating(seat(game, "FRANCE").user).games == 1


def test_taking_a_rating_back_keeps_what_a_later_game_did(users):
    first = started_game(users)
    winner = seat(first, "FRANCE").user
    concede_all_to(first, "FRANCE")
    after_first = rating(winner).mu
    Rating.objects.filter(user=winner).update(mu=after_first + 2, games=2)  # a later game's gain

    revert_to_its_last_phase(first)

    change = rating(winner)
    assert change.games == 1 and change.mu == pytest.approx(Rating().mu + 2)
