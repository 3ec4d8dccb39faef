"""The press digest: one mail a day with the unread press, instead of a mail per message."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model

from dipserver.accounts.models import NotificationPreferences
from dipserver.games.press_digest import press_digests_send
from dipserver.games.services.press import message_send, press_mark_read
from tests.mail.conftest import text_of, unsubscribe_path
from tests.server.conftest import seat, started_game

pytestmark = pytest.mark.django_db
NOON = dt.datetime(2026, 3, 2, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def players(db):
    user_model = get_user_model()
    return [
        user_model.objects.create(username=f"player{i}", email=f"player{i}@example.org") for i in range(7)
    ]


@pytest.fixture
def digests(django_capture_on_commit_callbacks):
    def send_digests(now) -> int:
        with django_capture_on_commit_callbacks(execute=True):  # the mails go once the sweep commits
            return press_digests_send(now=now)

    return send_digests


def send(game, sender: str, body: str, to: list[str], capture) -> None:
    with capture(execute=True):
        message_send(game_id=game.id, user=seat(game, sender).user, body=body, recipients=to)


def test_a_digest_gathers_the_days_unread_press_once(
    smtp, players, client, django_capture_on_commit_callbacks, digests
):
    game = started_game(players)
    france = seat(game, "FRANCE").user
    NotificationPreferences.objects.create(user=france, press=NotificationPreferences.Press.DIGEST)
    send(game, "GERMANY", "Shall we talk about Belgium?", ["FRANCE"], django_capture_on_commit_callbacks)
    send(game, "ENGLAND", "Peace in our time", [], django_capture_on_commit_callbacks)
    send(game, "ITALY", "Not for France", ["AUSTRIA"], django_capture_on_commit_callbacks)
    send(game, "FRANCE", "My own words", ["GERMANY"], django_capture_on_commit_callbacks)
    assert smtp.to(france.email) == []  # no mail per message

    assert digests(NOON) == 1
    mail = smtp.one_to(france.email)
    assert mail["Subject"] == "dipserver: 2 unread press messages"
    body = text_of(mail)
    assert "Test game, as France:" in body
    assert "Germany (to you): Shall we talk about Belgium?" in body
    assert "England (public): Peace in our time" in body
    assert "Not for France" not in body and "My own words" not in body
    assert client.post(unsubscribe_path(mail)).status_code == 200  # stops press mail, digest included
    assert NotificationPreferences.objects.get(user=france).press == "off"

    NotificationPreferences.objects.filter(user=france).update(press="digest")
    assert digests(NOON + dt.timedelta(hours=1)) == 0  # a day has not passed
    assert digests(NOON + dt.timedelta(hours=25)) == 0  # nothing new since
    send(game, "GERMANY", "Read on the site already", ["FRANCE"], django_capture_on_commit_callbacks)
    press_mark_read(game_id=game.id, user=france, channel="GERMANY")
    send(game, "RUSSIA", "A new one", ["FRANCE"], django_capture_on_commit_callbacks)
    assert digests(NOON + dt.timedelta(hours=50)) == 1
    second = smtp.to(france.email)[-1]
    assert "A new one" in text_of(second) and "Read on the site already" not in text_of(second)
    assert len(smtp.to(france.email)) == 2


def test_an_anonymous_games_digest_names_no_sender(
    smtp, players, django_capture_on_commit_callbacks, digests
):
    game = started_game(players, press="anonymous")
    france = seat(game, "FRANCE").user
    NotificationPreferences.objects.create(user=france, press=NotificationPreferences.Press.DIGEST)
    send(game, "ENGLAND", "Who am I?", ["FRANCE"], django_capture_on_commit_callbacks)
    send(game, "ENGLAND", "And now?", ["FRANCE", "GERMANY"], django_capture_on_commit_callbacks)

    assert digests(NOON) == 1
    raw = smtp.one_to(france.email).as_string()
    assert "Anonymous (to you): Who am I?" in text_of(smtp.one_to(france.email))
    # co-recipients would narrow the sender down: anonymous press names only the reader
    assert "Anonymous (to you): And now?" in text_of(smtp.one_to(france.email))
    assert "ENGLAND" not in raw.upper() and seat(game, "ENGLAND").user.username not in raw
    assert "GERMANY" not in raw.upper()
