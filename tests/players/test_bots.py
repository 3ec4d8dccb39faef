"""Bots in seats: the site's bot accounts fill a game's empty seats or play a power in civil disorder,
order through the same REST API as people (in process, with a token of their own), and are marked as
bots wherever players are named."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from dipserver.accounts.tokens import token_create
from dipserver.games.errors import GameError
from dipserver.games.models import Game, Order, Power, Tenure
from dipserver.games.services.games import game_create, game_join
from dipserver.games.services.phases import phase_process
from dipserver.games.services.powers import power_civil_disorder_set
from dipserver.games.services.seats import seat_take
from dipserver.players.bot_turns import bots_play
from dipserver.players.house_bots import game_fill_with_bots, seat_to_bot
from tests.factories import UserFactory
from tests.players.conftest import START, play, seat, started_game


def api(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=user, name='t')[1]}")
    return client


def with_bots(users, **options) -> Game:
    master = UserFactory(username="master")
    game = game_create(name="Bots", variant="standard", bots_fill_seats=True, masters=[master], **options)
    game_join(game_id=game.id, user=users[0], now=START)
    return game_fill_with_bots(game_id=game.id)


def test_a_master_starts_a_game_with_bots_in_the_empty_seats(users):
    game = with_bots(users)

    seats = Power.objects.filter(game=game).select_related("user")
    assert game.status == Game.Status.ACTIVE and game.bots_seated
    assert sorted(s.user.is_bot for s in seats) == [False] + [True] * 6


def test_a_game_not_made_for_bots_refuses_them_with_its_code(users):
    game = game_create(name="People", variant="standard")

    with pytest.raises(GameError) as refused:
        game_fill_with_bots(game_id=game.id)

    assert refused.value.code == "no_bots"


def test_bots_order_through_the_api_for_the_open_phase(users):
    game = with_bots(users)

    acted = bots_play(game_id=game.id)

    ordered = set(
        Order.objects.filter(phase_id=game.current_phase_id).values_list("power__user__is_bot", flat=True)
    )
    assert acted == 6 and ordered == {True}
    assert Power.objects.filter(game=game, user__is_bot=True, ready=True).count() == 6


def test_bots_order_again_when_the_next_phase_opens(users, django_capture_on_commit_callbacks):
    game = with_bots(users)
    with django_capture_on_commit_callbacks(execute=True):
        phase_process(phase_id=game.current_phase_id, force=True)
    game.refresh_from_db()

    assert Order.objects.filter(phase_id=game.current_phase_id, power__user__is_bot=True).exists()


def test_a_master_hands_a_power_in_civil_disorder_to_a_bot_until_a_person_takes_it(users):
    game = started_game(users)
    france = seat(game, "FRANCE")
    power_civil_disorder_set(power_id=france.id)

    played = seat_to_bot(game_id=game.id, power_id=france.id)

    assert played.user.is_bot and seat(game, "FRANCE").seat_open
    assert seat_take(power_id=france.id, user=users[8]).user == users[8]


def test_an_open_seat_a_bot_plays_meanwhile_is_marked_in_the_open_seats_list(users):
    game = started_game(users)
    france = seat(game, "FRANCE")
    power_civil_disorder_set(power_id=france.id)
    seat_to_bot(game_id=game.id, power_id=france.id)

    listed = APIClient().get("/api/v1/seats/open").json()

    assert [(row["power"], row["is_bot"]) for row in listed] == [("FRANCE", True)]


def test_bots_are_marked_in_the_game_payload_and_on_their_profile(users):
    game = with_bots(users)

    seats = APIClient().get(f"/api/v1/games/{game.id}").json()["powers"]
    bot = next(s for s in seats if s["is_bot"])

    assert sum(s["is_bot"] for s in seats) == 6
    assert APIClient().get(f"/api/v1/players/{bot['player']}").json()["is_bot"] is True
    assert "bot</span>" in Client().get(f"/players/{bot['player']}/").content.decode()


def test_the_game_page_lets_its_master_start_a_forming_game_with_bots(users):
    master = UserFactory(username="master")
    game = game_create(name="Early", variant="standard", bots_fill_seats=True, masters=[master])
    game_join(game_id=game.id, user=users[0], now=START)
    page, player = Client(), Client()
    page.force_login(master)
    player.force_login(users[0])

    assert 'id="fill-with-bots"' in page.get(f"/games/{game.id}/").content.decode()
    assert 'id="fill-with-bots"' not in player.get(f"/games/{game.id}/").content.decode()
    assert player.post(f"/games/{game.id}/fill-with-bots/").status_code == 404
    assert page.post(f"/games/{game.id}/fill-with-bots/").status_code == 302

    game.refresh_from_db()
    assert (
        game.status == Game.Status.ACTIVE and Power.objects.filter(game=game, user__is_bot=True).count() == 6
    )


def test_the_api_lets_only_the_master_fill_seats_with_bots(users):
    game = game_create(
        name="Bots", variant="standard", bots_fill_seats=True, masters=[UserFactory(username="m")]
    )

    refused = api(users[0]).post(f"/api/v1/games/{game.id}/fill-with-bots")
    done = api(game.masters.get()).post(f"/api/v1/games/{game.id}/fill-with-bots")

    assert refused.status_code == 403
    assert done.status_code == 200 and done.json()["status"] == "active"


def test_where_the_game_says_so_a_bot_plays_a_power_that_falls_into_civil_disorder(users):
    game = started_game(users, missed_limit=1, bots_play_disorder=True)
    others = ["AUSTRIA", "ENGLAND", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
    play(game, others)

    france = seat(game, "FRANCE")
    assert france.user.is_bot and france.seat_open  # played by a bot, still offered to people
    assert Tenure.objects.get(power=france, user=france.user).from_index == 1  # from the next phase


def test_without_the_option_a_power_in_civil_disorder_waits_for_a_person(users):
    game = started_game(users, missed_limit=1)
    play(game, ["AUSTRIA", "ENGLAND", "GERMANY", "ITALY", "RUSSIA", "TURKEY"])

    assert not seat(game, "FRANCE").user.is_bot
    assert seat(game, "FRANCE").status == Power.Status.CIVIL_DISORDER
