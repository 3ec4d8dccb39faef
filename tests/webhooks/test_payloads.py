"""Press reaches Discord and Slack channels as text, never as markup: no one is pinged, and no link can
be disguised, whatever a player writes (sent through a real delivery to a receiver on loopback)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from dipserver.games.services.press import message_send
from dipserver.webhooks.payloads import discord_text, slack_text
from dipserver.webhooks.services import webhook_create
from tests.server.conftest import seat, started_game

pytestmark = pytest.mark.django_db

HOSTILE = (
    "@everyone @here look <!channel> <!here> <@123> <@&456> <#789> "
    "[the rules](http://evil.example/steal) <http://evil.example|the rules> "
    "**bold** # heading & done > quote"
)
# A Discord masked link: [text](address) with the bracket not escaped by a backslash.
DISCORD_LINK = re.compile(r"(?<!\\)\[[^\]]*(?<!\\)\]\(")
# A Discord mention or channel: <@…>, <@&…>, <#…> with the angle bracket not escaped.
DISCORD_MENTION = re.compile(r"(?<!\\)<[@#]")


@pytest.fixture
def press_payload(receiver, django_capture_on_commit_callbacks):
    players = [get_user_model().objects.create(username=f"player{i}") for i in range(7)]
    with django_capture_on_commit_callbacks(execute=True):
        game = started_game(players)
    england, france = seat(game, "ENGLAND").user, seat(game, "FRANCE").user
    webhook_create(owner=france, url=receiver.url, game_id=game.id, kinds=["press"])
    with django_capture_on_commit_callbacks(execute=True):
        message_send(game_id=game.id, user=england, body=HOSTILE, recipients=["FRANCE"])
    (body,) = receiver.bodies()
    return body


def test_discord_is_told_to_ping_nobody(press_payload):
    assert press_payload["allowed_mentions"] == {"parse": []}


def test_discord_content_and_card_carry_no_link_and_no_mention_from_press(press_payload):
    for text in (press_payload["content"], press_payload["embeds"][0]["description"]):
        assert not DISCORD_LINK.search(text)
        assert not DISCORD_MENTION.search(text)
        assert "\\@everyone" in text and "\\[the rules\\]\\(http" in text and "\\*\\*bold\\*\\*" in text


def test_slack_text_has_no_control_sequence_from_press(press_payload):
    text = press_payload["text"]
    assert "<" not in text and ">" not in text  # <!channel>, <@U…>, <http://x|y> all need them
    assert "&lt;!channel&gt;" in text and "&lt;http://evil.example|the rules&gt;" in text
    assert "&amp; done &gt; quote" in text


def test_programs_get_the_press_as_written(press_payload):
    assert HOSTILE in press_payload["body"]


def test_a_long_message_is_cut_between_escapes_never_inside_one():
    assert discord_text("[" * 10, 8) == "\\[\\[\\[…"
    assert slack_text("<" * 10, 10) == "&lt;&lt;…"
