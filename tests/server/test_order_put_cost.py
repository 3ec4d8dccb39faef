"""What the busiest write costs: a player's ``PUT /games/<id>/orders`` takes a fixed number of queries.

A count, not a time (times belong to ``scripts/bench_api.py``): a query added to the path fails here.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from dipserver.accounts.tokens import token_create
from dipserver.games.models import Order
from dipserver.games.services.games import game_create, game_join
from tests.server.conftest import seat
from tests.server.test_processing import ALL_ORDERS

# The token read with its owner (every request: a revoked token or a removed right counts at once), then
# in one transaction, the game with its current phase share-locked (PostgreSQL: one statement; SQLite: the
# game, then the phase), the seat's version bumped and returned, the seat's orders replaced (PostgreSQL: one
# statement; SQLite: delete, then insert); the transaction's start and end count one each.
PUT_QUERIES = {"postgresql": 6, "sqlite": 8}


@pytest.fixture
def quiet_players(db):
    return [get_user_model().objects.create(username=f"putter{i}") for i in range(7)]


def test_an_order_put_takes_a_fixed_number_of_queries(quiet_players):
    game = game_create(name="Put game", variant="standard")
    for user in quiet_players:
        game_join(game_id=game.id, user=user)  # now: the first deadline is days away
    france = seat(game, "FRANCE")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=france.user, name='bench')[1]}")
    body = {"phase": "S1901M", "orders": ALL_ORDERS["FRANCE"].split("\n")}
    url = f"/api/v1/games/{game.id}/orders"
    assert client.put(url, body, format="json").status_code == 200  # warms the board's cache
    with CaptureQueriesContext(connection) as queries:
        answer = client.put(url, body, format="json")
    assert answer.status_code == 200, answer.content
    assert len(queries) == PUT_QUERIES[connection.vendor], [q["sql"][:60] for q in queries]
    assert Order.objects.filter(power=france).count() == len(body["orders"])
