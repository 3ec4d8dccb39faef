"""Fixtures for the REST API: logins of every kind, token clients, and a standard game in play."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from dipserver.accounts.tokens import token_create
from dipserver.games.models import Game, Power
from tests.factories import AdminFactory, GameFactory, GameMasterFactory, UserFactory

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        _, secret = token_create(user=user, name="test client")
        client.credentials(HTTP_AUTHORIZATION=f"Token {secret}")
    return client


@pytest.fixture
def players(db):
    return [UserFactory(username=f"player{i}") for i in range(7)]


@pytest.fixture
def outsider(db):
    return UserFactory(username="outsider")


@pytest.fixture
def master(db):
    return UserFactory(username="master")


@pytest.fixture
def gm(db):
    """A game master (of the *Game masters* group): the studio's author."""
    return GameMasterFactory(username="author")


@pytest.fixture
def api(gm):
    """The game master's client (a test module that means someone else defines its own ``api``)."""
    return client_for(gm)


@pytest.fixture
def admin(db):
    return AdminFactory(username="admin")


def start_game(players, master, **settings) -> Game:
    """A game ``master`` masters and ``players`` joined: with seven, started, powers assigned."""
    return GameFactory(players=players, masters=[master], **{"name": "API game", **settings})


@pytest.fixture
def game(players, master) -> Game:
    return start_game(players, master)


def user_of(game: Game, power: str):
    return Power.objects.select_related("user").get(game=game, name=power).user
