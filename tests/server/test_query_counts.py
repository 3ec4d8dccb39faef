"""The hot paths take a fixed number of queries, whatever the game holds: processing a phase of seven
seated players (however many missed their orders or were ready), announcing its results to them (however
many webhooks hear it), an order PUT (however many lines), a
poll of the game and of a phase (fresh or answered 304, however long the game's history). Counts, not
times: a query added to a path, or one per seat, order or phase (an N+1), fails here. The counts were
measured on both databases; where they differ, each says why."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from dipserver.accounts.tokens import token_create
from dipserver.games.models import Game, Phase, Power
from dipserver.games.notifications import notifications_muted
from dipserver.games.services.games import game_create, game_join
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.phases import Processed, phase_process
from dipserver.games.tasks import notification_send
from dipserver.mail.models import Mail
from dipserver.notices.models import Notification
from dipserver.webhooks.models import Delivery
from dipserver.webhooks.services import webhook_create
from tests.server.conftest import seat, started_game
from tests.server.test_processing import ALL_ORDERS, LATE, SOON

# BEGIN, the game and its phase locked, the seats locked, their orders, the phase saved, the next phase
# inserted, the game pointed at it, COMMIT.
PHASE = 8
# ... and one UPDATE for the seats that missed their orders (all alike: one statement), one to clear
# readiness.
PHASE_WITH_MISSES_AND_READY = PHASE + 2

# Every request reads its token with the token's owner first (a revoked token or a removed right counts
# at once: TOKEN). Then BEGIN, the game and its phase (PostgreSQL: one share-locking statement; SQLite:
# two), the seat's version bumped, its orders replaced (PostgreSQL: one statement; SQLite: delete, insert),
# COMMIT.
TOKEN = 1
PUT = {"postgresql": TOKEN + 5, "sqlite": TOKEN + 7}


def _ordered(game: Game, powers: list[str]) -> None:
    for name in powers:
        orders_submit(game_id=game.id, user=seat(game, name).user, text=ALL_ORDERS[name], now=SOON)


@pytest.mark.parametrize("ordered", [7, 6, 1])
def test_processing_seven_seated_players_takes_a_fixed_number_of_queries(
    users, django_assert_num_queries, ordered
):
    game = started_game(users)
    names = sorted(ALL_ORDERS)
    _ordered(game, names[:ordered])
    if ordered < 7:  # those who ordered said they were ready; the others missed the phase
        Power.objects.filter(game=game, name__in=names[:ordered]).update(ready=True)
    expected = PHASE if ordered == 7 else PHASE_WITH_MISSES_AND_READY
    with django_assert_num_queries(expected):
        assert phase_process(phase_id=game.current_phase_id, now=LATE) is Processed.DONE
    assert Power.objects.filter(game=game, missed_phases=1).count() == 7 - ordered
    assert not Power.objects.filter(game=game, ready=True).exists()


# The phase with its game and the next phase; the seats with their players; the players' mail settings;
# the game's masters; the outbox rows (one INSERT for every player's mail); the inbox rows (one INSERT);
# the webhooks that may hear the news; their deliveries (one INSERT, when any hears it); the phase marked
# told. (It was 42 for seven players with addresses and a webhook: three statements a mail and a
# delivery, a query for who sent no orders and one for the phase's snapshot.)
ANNOUNCE = 9


@pytest.mark.parametrize("hooks", [0, 1, 3])
def test_announcing_a_phase_to_seven_seated_players_takes_a_fixed_number_of_queries(
    users, django_assert_num_queries, hooks
):
    game = started_game(users)  # every player has an address
    _ordered(game, sorted(ALL_ORDERS)[:5])
    for user in users[:hooks]:
        webhook_create(owner=user, url="http://127.0.0.1:9/hook")
    with notifications_muted():
        assert phase_process(phase_id=game.current_phase_id, now=LATE) is Processed.DONE
    with django_assert_num_queries(ANNOUNCE if hooks else ANNOUNCE - 1):
        assert notification_send.run("phase_results_send", {"phase_id": game.current_phase_id}) == 7
    assert Mail.objects.filter(kind=Mail.Kind.PHASE_PROCESSED).count() == 7
    assert Notification.objects.filter(game=game).count() == 7
    assert Delivery.objects.count() == hooks


@pytest.fixture
def player(users):
    """France's API client in a started game, its token already checked once (as a polling client's is)."""
    game = game_create(name="Polled game", variant="standard")
    for user in users[:7]:
        game_join(game_id=game.id, user=user)  # now: the first deadline is days away
    game.refresh_from_db()
    france = seat(game, "FRANCE")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=france.user, name='poll')[1]}")
    assert client.get(f"/api/v1/games/{game.id}").status_code == 200
    return game, client


@pytest.mark.parametrize("lines", [1, 3])
def test_an_order_put_takes_a_fixed_number_of_queries_however_many_lines(player, lines):
    game, client = player
    body = {"phase": "S1901M", "orders": ALL_ORDERS["FRANCE"].split("\n")[:lines]}
    url = f"/api/v1/games/{game.id}/orders"
    assert client.put(url, body, format="json").status_code == 200
    with CaptureQueriesContext(connection) as captured:
        assert client.put(url, body, format="json").status_code == 200
    assert len(captured) == PUT[connection.vendor], [q["sql"][:70] for q in captured]


def _history(game: Game, phases: int) -> None:
    """``phases`` phases played: the first with every unit ordered, the rest without orders."""
    if phases:
        _ordered(game, sorted(ALL_ORDERS))
    for _ in range(phases):
        assert phase_process(phase_id=game.current_phase_id, now=LATE, force=True) is Processed.DONE
        game.refresh_from_db()


# The tag's one query; the game and its seats (read twice over: the view and its serializer), whether the
# player masters it, the names of its phases, which seats have orders (twice over as well).
POLL = TOKEN + 9
# The tag's one query (the game's version, its phase and seats as this player sees them), nothing else.
POLL_NOT_MODIFIED = TOKEN + 1
# The tag's one query; the game, the phase, the seats, whether the player masters it, the player's orders.
PHASE_POLL = TOKEN + 6
PHASE_POLL_NOT_MODIFIED = TOKEN + 1


@pytest.mark.parametrize("history", [0, 3])
def test_polling_a_game_takes_a_fixed_number_of_queries_however_long_its_history(
    player, django_assert_num_queries, history
):
    game, client = player
    _history(game, history)
    url = f"/api/v1/games/{game.id}"
    with django_assert_num_queries(POLL):
        answer = client.get(url)
    assert answer.status_code == 200
    with django_assert_num_queries(POLL_NOT_MODIFIED):
        assert client.get(url, HTTP_IF_NONE_MATCH=answer["ETag"]).status_code == 304


@pytest.mark.parametrize("history", [0, 3])
def test_polling_the_current_phase_takes_a_fixed_number_of_queries(
    player, django_assert_num_queries, history
):
    game, client = player
    _history(game, history)
    index = Phase.objects.get(id=game.current_phase_id).index
    url = f"/api/v1/games/{game.id}/phases/{index}"
    with django_assert_num_queries(PHASE_POLL):
        answer = client.get(url)
    assert answer.status_code == 200
    with django_assert_num_queries(PHASE_POLL_NOT_MODIFIED):
        assert client.get(url, HTTP_IF_NONE_MATCH=answer["ETag"]).status_code == 304
