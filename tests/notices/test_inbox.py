"""The in-site inbox: every player hears their games' news there, mail or not; once each; read on the
server, one at a time or all; counted per game. Through the services and the API."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from dipserver.games.models import Game
from dipserver.games.services.press import message_send
from dipserver.games.tasks import notification_send
from dipserver.notices.models import Notification
from tests.api.conftest import client_for
from tests.server.conftest import seat, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(django_capture_on_commit_callbacks) -> Game:
    players = [get_user_model().objects.create(username=f"player{i}") for i in range(7)]  # no addresses
    with django_capture_on_commit_callbacks(execute=True):
        return started_game(players)


def test_every_player_hears_the_game_start_in_the_inbox_without_an_address(game):
    england = seat(game, "ENGLAND").user
    (note,) = Notification.objects.filter(user=england)
    assert note.kind == "game_started" and "You play England" in note.text
    assert Notification.objects.filter(game=game).count() == 7


def test_an_event_announced_twice_lands_once(game):
    notification_send("game_started_send", {"game_id": game.id})
    assert Notification.objects.filter(game=game).count() == 7


def test_private_press_lands_with_its_recipients_only(game, django_capture_on_commit_callbacks):
    england, france = seat(game, "ENGLAND").user, seat(game, "FRANCE").user
    with django_capture_on_commit_callbacks(execute=True):
        message_send(game_id=game.id, user=england, body="Just us", recipients=["FRANCE"])
    assert list(Notification.objects.filter(kind="press").values_list("user", flat=True)) == [france.id]


def test_anonymous_press_lands_without_its_sender(django_capture_on_commit_callbacks):
    players = [get_user_model().objects.create(username=f"anon{i}") for i in range(7)]
    with django_capture_on_commit_callbacks(execute=True):
        game = started_game(players, press="anonymous")
        message_send(
            game_id=game.id, user=seat(game, "ENGLAND").user, body="Guess who", recipients=["FRANCE"]
        )
    note = Notification.objects.get(kind="press")
    assert "England" not in note.title + note.text and "Anonymous" in note.title


def test_the_api_lists_my_notifications_and_counts_the_unread_per_game(game):
    england = seat(game, "ENGLAND").user
    listed = client_for(england).get("/api/v1/notifications").json()
    assert [n["kind"] for n in listed["results"]] == ["game_started"]
    assert listed["results"][0]["read"] is False
    unread = client_for(england).get("/api/v1/notifications/unread").json()
    assert unread == {"total": 1, "games": [{"game": game.id, "notifications": 1, "press": 0}]}


def test_marking_one_read_clears_it_from_the_unread(game):
    england = seat(game, "ENGLAND").user
    note = Notification.objects.get(user=england)
    assert client_for(england).post(f"/api/v1/notifications/{note.id}/read").status_code == 204
    assert client_for(england).get("/api/v1/notifications/unread").json()["total"] == 0
    assert client_for(england).get("/api/v1/notifications?unread=true").json()["results"] == []


def test_someone_elses_notification_cannot_be_marked(game):
    england, france = seat(game, "ENGLAND").user, seat(game, "FRANCE").user
    note = Notification.objects.get(user=france)
    answer = client_for(england).post(f"/api/v1/notifications/{note.id}/read")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"
    assert Notification.objects.get(id=note.id).read_at is None


def test_marking_all_read_marks_only_mine(game, django_capture_on_commit_callbacks):
    england = seat(game, "ENGLAND").user
    with django_capture_on_commit_callbacks(execute=True):
        message_send(game_id=game.id, user=seat(game, "FRANCE").user, body="Hello all")
    answer = client_for(england).post("/api/v1/notifications/read", {}, format="json")
    assert answer.json() == {"marked": 2}
    assert Notification.objects.filter(read_at__isnull=True).exclude(user=england).count() > 0


def test_unread_press_is_counted_per_game(game, django_capture_on_commit_callbacks):
    england = seat(game, "ENGLAND").user
    with django_capture_on_commit_callbacks(execute=True):
        message_send(game_id=game.id, user=seat(game, "FRANCE").user, body="Hello all")
    (row,) = client_for(england).get("/api/v1/notifications/unread").json()["games"]
    assert (row["notifications"], row["press"]) == (2, 1)
