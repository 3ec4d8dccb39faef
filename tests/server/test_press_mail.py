"""Press mail: each recipient hears who sent it (``Anonymous`` for anonymous press), to whom and where to
read it, and learns nothing more about an anonymous sender than the API shows."""

from __future__ import annotations

from django.core import mail

from dipserver.games.models import Game
from dipserver.games.services.press import message_send
from tests.server.conftest import seat, started_game

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def mailed(django_capture_on_commit_callbacks, game: Game, sender: str, to: list[str]) -> dict[str, str]:
    """Recipient's address -> its whole mail (headers and body), for press ``sender`` sends ``to``."""
    with django_capture_on_commit_callbacks(execute=True):
        message_send(game_id=game.id, user=seat(game, sender).user, body="Guess who", recipients=to)
    return {m.to[0]: m.message().as_string() for m in mail.outbox}


def test_anonymous_press_mail_names_neither_its_sender_nor_its_other_recipients(
    users, django_capture_on_commit_callbacks
):
    game = started_game(users, press="anonymous")
    england = seat(game, "ENGLAND")
    others = [p for p in POWERS if p != "ENGLAND"]
    mails = mailed(django_capture_on_commit_callbacks, game, "ENGLAND", others)
    assert len(mails) == 6
    for name in others:
        text = mails[seat(game, name).user.email]
        leaks = ("ENGLAND", "England", england.user.username, england.user.email)
        assert [word for word in leaks if word in text] == []
        assert [p for p in others if p != name and p.title() in text] == []


def test_anonymous_press_mail_says_it_reached_me_in_the_anonymous_channel(
    users, django_capture_on_commit_callbacks
):
    game = started_game(users, press="anonymous")
    mails = mailed(django_capture_on_commit_callbacks, game, "ENGLAND", ["FRANCE", "GERMANY"])
    text = mails[seat(game, "FRANCE").user.email]
    assert "Subject: [Test game] Press from Anonymous" in text
    assert "To: France\n" in text and "Channel: anonymous\n" in text and "Guess who" in text


def test_press_mail_says_who_sent_it_to_whom_and_in_which_channel(game, django_capture_on_commit_callbacks):
    mails = mailed(django_capture_on_commit_callbacks, game, "ENGLAND", ["FRANCE", "GERMANY"])
    text = mails[seat(game, "FRANCE").user.email]
    assert "Subject: [Test game] Press from England" in text
    assert "To: France, Germany\n" in text and "Channel: ENGLAND,GERMANY" in text
    assert seat(game, "ENGLAND").user.email not in mails  # not to its sender


def test_public_press_mail_goes_to_everyone_else(game, django_capture_on_commit_callbacks):
    mails = mailed(django_capture_on_commit_callbacks, game, "ENGLAND", [])
    assert len(mails) == 6
    assert all("Public press from England" in text and "To: everyone" in text for text in mails.values())
