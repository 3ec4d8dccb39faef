"""The create form's options for players, and what the lobby says of them."""

from __future__ import annotations

from django.test import Client

from dipserver.games.models import Game
from dipserver.games.services.games import game_create

FORM = {
    "name": "Strict",
    "variant": "standard",
    "press": "full",
    "movement_minutes": 1440,
    "retreat_minutes": 720,
    "adjustment_minutes": 720,
    "deadline_zone": "UTC",
}


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_create_form_sets_the_minimum_reliability_and_the_civil_disorder_limit(users):
    signed_in(users[0]).post("/games/new/", {**FORM, "min_reliability": 75, "missed_limit": 3})

    game = Game.objects.get(name="Strict")
    assert (game.min_reliability, game.missed_limit) == (75, 3)


def test_the_create_form_left_empty_takes_anyone_and_the_usual_limit(users):
    signed_in(users[0]).post("/games/new/", FORM)

    game = Game.objects.get(name="Strict")
    assert (game.min_reliability, game.missed_limit) == (0, 2)


def test_the_create_form_explains_a_minimum_above_a_hundred(users):
    page = signed_in(users[0]).post("/games/new/", {**FORM, "min_reliability": 120}).content.decode()

    assert "Ensure this value is less than or equal to 100." in page and not Game.objects.exists()


def test_the_lobby_says_what_reliability_an_open_game_asks(users):
    game_create(name="Strict", variant="standard", min_reliability=60)

    assert "reliability 60% or more" in signed_in(users[0]).get("/games/").content.decode()


def test_the_create_form_sets_a_minimum_rating_and_an_unrated_game(users):
    signed_in(users[0]).post("/games/new/", {**FORM, "min_rating": 2.5, "rated": "no"})

    game = Game.objects.get(name="Strict")
    assert (game.min_rating, game.rated) == (2.5, False)


def test_a_game_made_from_the_form_is_rated_unless_told_otherwise(users):
    signed_in(users[0]).post("/games/new/", FORM)

    assert Game.objects.get(name="Strict").rated and Game.objects.get(name="Strict").min_rating is None
