"""Fixtures for the REST API: logins of every kind, token clients, and a standard game in play."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from dipserver.accounts.tokens import token_create
from dipserver.games.models import Game, Power
from dipserver.games.services.games import game_create, game_join

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        _, secret = token_create(user=user, name="test client")
        client.credentials(HTTP_AUTHORIZATION=f"Token {secret}")
    return client


@pytest.fixture
def players(db):
    users = get_user_model().objects
    return [users.create_user(username=f"player{i}", password="a long passphrase 1") for i in range(7)]


@pytest.fixture
def outsider(db):
    return get_user_model().objects.create_user(username="outsider", password="a long passphrase 1")


@pytest.fixture
def master(db):
    return get_user_model().objects.create_user(username="master", password="a long passphrase 1")


@pytest.fixture
def admin(db):
    return get_user_model().objects.create_superuser(username="admin", password="a long passphrase 1")


def start_game(players, master, **settings) -> Game:
    name, variant = settings.pop("name", "API game"), settings.pop("variant", "standard")
    game = game_create(name=name, variant=variant, masters=[master], **settings)
    for user in players:
        game_join(game_id=game.id, user=user)
    game.refresh_from_db()
    return game


@pytest.fixture
def game(players, master) -> Game:
    return start_game(players, master)


def user_of(game: Game, power: str):
    return Power.objects.select_related("user").get(game=game, name=power).user
