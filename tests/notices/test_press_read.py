"""Press read in the game (the API's mark-read, which the game page uses) is read in the inbox too: one
read state, so the header's count and the lobby's agree."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from dipserver.games.models import Game
from dipserver.games.services.press import message_send
from dipserver.notices.models import Notification
from tests.api.conftest import client_for
from tests.server.conftest import seat, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(django_capture_on_commit_callbacks) -> Game:
    players = [get_user_model().objects.create(username=f"player{i}") for i in range(7)]
    with django_capture_on_commit_callbacks(execute=True):
        return started_game(players)


def press_news(user) -> list[bool]:
    """Whether each of the user's press notifications is read, oldest first."""
    rows = Notification.objects.filter(user=user, kind="press").order_by("id")
    return [n.read_at is not None for n in rows]


def test_marking_a_channel_read_reads_its_press_in_the_inbox(game, django_capture_on_commit_callbacks):
    england, france = seat(game, "ENGLAND").user, seat(game, "FRANCE").user
    with django_capture_on_commit_callbacks(execute=True):
        message_send(game_id=game.id, user=france, body="Just us", recipients=["ENGLAND"])
        message_send(game_id=game.id, user=france, body="Hello all")
    assert press_news(england) == [False, False]

    answer = client_for(england).post(f"/api/v1/games/{game.id}/channels", {"channel": "FRANCE"})

    assert answer.status_code == 200
    assert press_news(england) == [True, False]  # the public message is another channel's, still unread
    unread = client_for(england).get("/api/v1/notifications/unread").json()
    (row,) = unread["games"]
    assert (row["notifications"], row["press"]) == (2, 1)  # the start and the public press


def test_marking_read_up_to_a_message_leaves_the_later_ones_unread(game, django_capture_on_commit_callbacks):
    england, france = seat(game, "ENGLAND").user, seat(game, "FRANCE").user
    with django_capture_on_commit_callbacks(execute=True):
        first = message_send(game_id=game.id, user=france, body="One")
        message_send(game_id=game.id, user=france, body="Two")

    client_for(england).post(
        f"/api/v1/games/{game.id}/channels", {"channel": "public", "up_to": first.id}, format="json"
    )

    assert press_news(england) == [True, False]
