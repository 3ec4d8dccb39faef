"""static/js/press.js, run in Node: how the game page names press channels and keeps a message's
idempotency key for its retries."""

from __future__ import annotations

import json

import pytest

from tests.web.node_js import js_value


def run(expression: str) -> object:
    """The JSON value of ``expression``, evaluated with press.js's exports in scope."""
    return js_value("press.js", expression)


@pytest.mark.parametrize(
    ("channel", "label"),
    [
        ({"id": "public", "recipients": []}, "Everyone"),
        ({"id": "anonymous", "recipients": []}, "Anonymous press to me"),
        ({"id": "ENGLAND", "recipients": ["ENGLAND"]}, "England"),
        ({"id": "ENGLAND,FRANCE", "recipients": ["ENGLAND", "FRANCE"]}, "England, France"),
    ],
)
def test_channels_are_named_for_people(channel, label):
    assert run(f"press.channelLabel({json.dumps(channel)})") == label


def test_a_power_a_bot_plays_is_marked_in_a_channels_name():
    channel = {"id": "ENGLAND,FRANCE", "recipients": ["ENGLAND", "FRANCE"]}
    assert run(f"press.channelLabel({json.dumps(channel)}, new Set(['FRANCE']))") == "England, France (bot)"


def test_sending_the_same_message_again_reuses_its_key():
    pending = {"channel": "ENGLAND", "text": "Hello", "key": "k1"}
    assert run(f"press.keyFor({json.dumps(pending)}, 'ENGLAND', 'Hello')") == "k1"


def test_another_text_or_channel_gets_a_new_key():
    pending = json.dumps({"channel": "ENGLAND", "text": "Hello", "key": "k1"})
    keys = run(
        f"[press.keyFor({pending}, 'ENGLAND', 'Hello!'), press.keyFor({pending}, 'FRANCE', 'Hello'),"
        " press.keyFor(null, 'ENGLAND', 'Hello'), press.newKey()]"
    )
    assert isinstance(keys, list) and len(set(keys)) == 4
    assert all(len(k) == 32 and int(k, 16) >= 0 for k in keys)


def test_the_press_heading_counts_the_games_unread_press_only_when_there_is_some():
    assert run("[press.pressHeading(2), press.pressHeading(0)]") == ["Press (2 new)", "Press"]


def test_the_page_title_counts_unread_notifications_only_when_there_are_some():
    assert run("[press.titleWith(3, 'Game · dipserver'), press.titleWith(0, 'Game · dipserver')]") == [
        "(3) Game · dipserver",
        "Game · dipserver",
    ]


def test_a_message_time_is_written_in_the_readers_zone():
    # The zone itself is the browser's (tests/browser/test_lobby_actions.py reads it in New York).
    done = run("[press.sentWords('2026-03-03T18:05:00Z'), press.sentWords('not a time')]")
    assert isinstance(done, list) and "Mar" in done[0] and done[1] == ""
