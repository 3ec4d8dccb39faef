"""Anonymous press never reveals its sender to anyone but the sender: not the channel list, a channel's
id, unread counts, read marks, the message list, error texts (the mail: ``tests/server/test_press_mail.py``).

Each test sends the same press from different powers (or compares every power) and checks that what the
recipient can read or call comes out the same."""

from __future__ import annotations

from dipserver.games.models import Game
from tests.api.conftest import POWERS, client_for, start_game, user_of


def anonymous_game(players, master, name: str = "Whisper") -> Game:
    return start_game(players, master, press="anonymous", name=name)


def send(game: Game, power: str, body: str, to: list[str]) -> int:
    sent = client_for(user_of(game, power)).post(
        f"/api/v1/games/{game.id}/messages", {"body": body, "recipients": to}, format="json"
    )
    assert sent.status_code == 201, sent.content
    return sent.json()["id"]


def channels(game: Game, power: str) -> list[dict]:
    answer = client_for(user_of(game, power)).get(f"/api/v1/games/{game.id}/channels")
    assert answer.status_code == 200
    return answer.json()


def messages(game: Game, power: str, **query) -> list[dict]:
    answer = client_for(user_of(game, power)).get(f"/api/v1/games/{game.id}/messages", query)
    assert answer.status_code == 200, answer.content
    return answer.json()["results"]


def mark(game: Game, power: str, **body):
    return client_for(user_of(game, power)).post(f"/api/v1/games/{game.id}/channels", body, format="json")


def test_the_recipients_channel_list_is_the_same_whoever_sent_the_anonymous_press(players, master):
    seen = []
    for sender in ("ENGLAND", "GERMANY"):
        game = anonymous_game(players, master, name=f"From {sender}")
        send(game, sender, "Guess who", ["FRANCE"])
        seen.append(channels(game, "FRANCE"))
    assert seen[0] == seen[1]
    assert {c["id"]: c["unread"] for c in seen[0] if c["unread"]} == {"anonymous": 1}


def test_anonymous_private_press_is_in_the_recipients_anonymous_channel(players, master):
    game = anonymous_game(players, master)
    sent = send(game, "ENGLAND", "Guess who", ["FRANCE"])
    got = messages(game, "FRANCE")
    assert [(m["id"], m["channel"], m["sender"], m["recipients"]) for m in got] == [
        (sent, "anonymous", None, ["FRANCE"])
    ]
    assert [m["id"] for m in messages(game, "FRANCE", channel="anonymous")] == [sent]
    assert messages(game, "FRANCE", channel="ENGLAND") == []


def test_anonymous_group_press_names_no_channel_after_its_sender(players, master):
    game = anonymous_game(players, master)
    send(game, "ENGLAND", "Guess who", ["FRANCE", "GERMANY"])
    for reader in ("FRANCE", "GERMANY"):
        listed = channels(game, reader)
        assert {c["id"]: c["unread"] for c in listed if c["unread"]} == {"anonymous": 1}
        assert [c["id"] for c in listed if "," in c["id"]] == []  # no group channel with the sender in it


def test_anonymous_group_press_shows_the_reader_only_itself_among_its_recipients(players, master):
    """Six of seven recipients would name the seventh power as the sender."""
    game = anonymous_game(players, master)
    others = [p for p in POWERS if p != "ENGLAND"]
    send(game, "ENGLAND", "Guess who", others)
    for reader in others:
        assert [m["recipients"] for m in messages(game, reader)] == [[reader]]
    assert [m["recipients"] for m in messages(game, "ENGLAND")] == [others]  # the sender sees its own


def test_marking_a_powers_channel_read_is_refused_alike_whoever_sent_the_message(players, master):
    """Today's oracle: ``{"channel": <the sender>, "up_to": <id>}`` answered 200 for the real sender only."""
    game = anonymous_game(players, master)
    sent = send(game, "ENGLAND", "Guess who", ["FRANCE"])
    others = [p for p in POWERS if p != "FRANCE"]
    answers = {other: mark(game, "FRANCE", channel=other, up_to=sent) for other in others}
    assert {a.status_code for a in answers.values()} == {422}
    bodies = {a.content.decode().replace(other, "X") for other, a in answers.items()}
    assert len(bodies) == 1
    assert answers["ENGLAND"].json()["error"]["code"] == "not_in_channel"


def test_the_anonymous_channel_is_marked_read_like_any_other(players, master):
    game = anonymous_game(players, master)
    first = send(game, "ENGLAND", "Guess who", ["FRANCE"])
    second = send(game, "ITALY", "And me?", ["FRANCE"])
    assert mark(game, "FRANCE", channel="anonymous", up_to=first).json() == {
        "channel": "anonymous",
        "last_read": first,
        "unread": 1,
    }
    assert mark(game, "FRANCE", channel="ANONYMOUS").json()["last_read"] == second
    listed = {c["id"]: (c["unread"], c["last_read"]) for c in channels(game, "FRANCE")}
    assert listed["anonymous"] == (0, second)
    assert all(unread == 0 for unread, _ in listed.values())


def test_the_anonymous_channel_cannot_be_answered_and_says_so(players, master):
    game = anonymous_game(players, master)
    send(game, "ENGLAND", "Guess who", ["FRANCE"])
    inbox = next(c for c in channels(game, "FRANCE") if c["id"] == "anonymous")
    assert (inbox["recipients"], inbox["can_send"]) == ([], False)
    answer = {"body": "Who are you?", "recipients": ["anonymous"]}
    refused = client_for(user_of(game, "FRANCE")).post(
        f"/api/v1/games/{game.id}/messages", answer, format="json"
    )
    assert (refused.status_code, refused.json()["error"]["code"]) == (422, "refused")
    assert "Anonymous press cannot be answered" in refused.json()["error"]["message"]


def test_press_sent_anonymously_stays_anonymous_when_the_game_setting_changes(players, master):
    game = anonymous_game(players, master)
    send(game, "ENGLAND", "Guess who", ["FRANCE"])
    send(game, "ENGLAND", "Hello, all", [])
    Game.objects.filter(id=game.id).update(press=Game.Press.FULL)
    assert [m["sender"] for m in messages(game, "FRANCE")] == [None, None]
    assert {c["id"]: c["unread"] for c in channels(game, "FRANCE") if c["unread"]} == {
        "anonymous": 1,
        "public": 1,
    }


def test_anonymous_public_press_hides_its_sender_from_everyone_else(players, master):
    game = anonymous_game(players, master)
    send(game, "ENGLAND", "Hello, all", [])
    for reader in POWERS:
        assert [m["sender"] for m in messages(game, reader)] == ["ENGLAND" if reader == "ENGLAND" else None]
