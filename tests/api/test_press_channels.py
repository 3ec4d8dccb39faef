"""Press channels are consistent: a channel is named by the powers in it other than the reader, is listed
for everyone in it from its first message on (read or not), and a channel that does not exist is refused.
"""

from __future__ import annotations

from dipserver.games.models import Game, PressMark
from dipserver.games.services.games import game_finish
from tests.api.conftest import POWERS, client_for, start_game, user_of


def send(game: Game, power: str, body: str, to: list[str]):
    return client_for(user_of(game, power)).post(
        f"/api/v1/games/{game.id}/messages", {"body": body, "recipients": to}, format="json"
    )


def channels(game: Game, power: str) -> dict[str, dict]:
    answer = client_for(user_of(game, power)).get(f"/api/v1/games/{game.id}/channels")
    assert answer.status_code == 200
    return {c["id"]: c for c in answer.json()}


def mark(game: Game, power: str, **body):
    return client_for(user_of(game, power)).post(f"/api/v1/games/{game.id}/channels", body, format="json")


def test_a_group_channel_is_listed_for_its_sender(game):
    assert send(game, "ENGLAND", "Triple?", ["GERMANY", "FRANCE"]).status_code == 201
    group = channels(game, "ENGLAND")["FRANCE,GERMANY"]
    assert (group["recipients"], group["unread"], group["can_send"]) == (["FRANCE", "GERMANY"], 0, True)


def test_a_group_channel_stays_listed_after_reading(game):
    sent = send(game, "ENGLAND", "Triple?", ["FRANCE", "GERMANY"]).json()["id"]
    assert channels(game, "FRANCE")["ENGLAND,GERMANY"]["unread"] == 1
    assert mark(game, "FRANCE", channel="germany, england").json() == {
        "channel": "ENGLAND,GERMANY",
        "last_read": sent,
        "unread": 0,
    }
    group = channels(game, "FRANCE")["ENGLAND,GERMANY"]
    assert (group["unread"], group["last_read"]) == (0, sent)


def test_no_channel_id_or_recipients_include_the_reader(game):
    send(game, "ENGLAND", "Triple?", ["FRANCE", "GERMANY"])
    send(game, "FRANCE", "Just us", ["ENGLAND"])
    for reader in POWERS:
        for channel in channels(game, reader).values():
            assert reader not in channel["id"].split(",")
            assert reader not in channel["recipients"]
        got = client_for(user_of(game, reader)).get(f"/api/v1/games/{game.id}/messages").json()["results"]
        assert all(reader not in m["channel"].split(",") for m in got)


def test_posting_to_a_channels_recipients_reaches_exactly_that_channel(game):
    send(game, "ENGLAND", "Triple?", ["FRANCE", "GERMANY"])
    group = channels(game, "FRANCE")["ENGLAND,GERMANY"]
    answer = send(game, "FRANCE", "Yes", group["recipients"])
    assert answer.status_code == 201, answer.content
    assert answer.json()["channel"] == "ENGLAND,GERMANY"
    assert channels(game, "ENGLAND")["FRANCE,GERMANY"]["unread"] == 1
    assert channels(game, "GERMANY")["ENGLAND,FRANCE"]["unread"] == 2


def test_marking_a_channel_that_does_not_exist_is_refused_with_unknown_channel(game):
    send(game, "ENGLAND", "Triple?", ["FRANCE", "GERMANY"])
    for channel in ("ATLANTIS", "ENGLAND,FRANCE,GERMANY", "ITALY,RUSSIA", " , "):
        answer = mark(game, "FRANCE", channel=channel)
        assert answer.status_code == 422, channel
        assert answer.json()["error"]["code"] == "unknown_channel", channel
    assert not PressMark.objects.filter(power__game=game).exists()  # nothing stored for them


def test_reading_a_channel_that_does_not_exist_is_refused_with_unknown_channel(game):
    path = f"/api/v1/games/{game.id}/messages"
    answer = client_for(user_of(game, "FRANCE")).get(path, {"channel": "ATLANTIS"})
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == "unknown_channel"


def test_marking_a_message_of_another_channel_is_refused_with_not_in_channel(game):
    sent = send(game, "ENGLAND", "Channel?", ["FRANCE"]).json()["id"]
    answer = mark(game, "FRANCE", channel="public", up_to=sent)
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == "not_in_channel"


def test_channels_say_whether_i_may_post_there(players, master):
    public_only = start_game(players, master, press="public", name="Loud")
    assert {c: v["can_send"] for c, v in channels(public_only, "FRANCE").items()} == {"public": True}
    anonymous = start_game(players, master, press="anonymous", name="Quiet")
    listed = channels(anonymous, "FRANCE")
    assert [c for c, v in listed.items() if not v["can_send"]] == ["anonymous"]
    game_finish(game=anonymous, result="draw", winners=[])
    assert not any(v["can_send"] for v in channels(anonymous, "FRANCE").values())
