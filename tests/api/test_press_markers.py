"""Press read markers: the server remembers, per power and channel, the last message read; the channel
list counts what is unread from there, and ``POST /games/<id>/channels`` moves a marker forward. Who may
call both endpoints is in the permission matrix (``test_permissions.py``)."""

from __future__ import annotations

from tests.api.conftest import client_for, user_of


def send(game, power: str, body: str, to: list[str] | None = None) -> int:
    sent = client_for(user_of(game, power)).post(
        f"/api/v1/games/{game.id}/messages", {"body": body, "recipients": to or []}, format="json"
    )
    assert sent.status_code == 201, sent.content
    return sent.json()["id"]


def channels(game, power: str) -> dict[str, tuple[int, int]]:
    """Channel -> (unread, last_read) for ``power``, from the server's markers."""
    answer = client_for(user_of(game, power)).get(f"/api/v1/games/{game.id}/channels")
    assert answer.status_code == 200
    return {c["id"]: (c["unread"], c["last_read"]) for c in answer.json()}


def mark(game, power: str, **body):
    return client_for(user_of(game, power)).post(f"/api/v1/games/{game.id}/channels", body, format="json")


def test_unread_counts_come_from_the_markers_and_marking_a_channel_read_clears_only_it(game):
    first = send(game, "ENGLAND", "Hello, Europe")
    send(game, "ENGLAND", "Channel?", ["FRANCE"])
    newest = send(game, "GERMANY", "Hello again")
    assert channels(game, "FRANCE")["public"] == (2, 0)
    assert channels(game, "FRANCE")["ENGLAND"] == (1, 0)

    answer = mark(game, "FRANCE", channel="public")
    assert answer.status_code == 200
    assert answer.json() == {"channel": "public", "last_read": newest, "unread": 0}
    assert channels(game, "FRANCE")["public"] == (0, newest)
    assert channels(game, "FRANCE")["ENGLAND"] == (1, 0)  # the other channel is still unread
    assert channels(game, "GERMANY")["public"] == (1, 0)  # markers are per power

    later = send(game, "ITALY", "Anyone?")
    assert channels(game, "FRANCE")["public"] == (1, newest)
    assert mark(game, "FRANCE", channel="public", up_to=first).json()["last_read"] == newest  # never back
    assert mark(game, "FRANCE", channel="PUBLIC", up_to=later).json() == {
        "channel": "public",
        "last_read": later,
        "unread": 0,
    }


def test_a_private_channel_is_marked_by_the_other_powers_name(game):
    sent = send(game, "ENGLAND", "Channel?", ["FRANCE"])
    answer = mark(game, "FRANCE", channel="england", up_to=sent)
    assert answer.json() == {"channel": "ENGLAND", "last_read": sent, "unread": 0}
    assert channels(game, "FRANCE")["ENGLAND"] == (0, sent)


def test_since_still_counts_from_the_clients_own_message_id(game):
    first = send(game, "ENGLAND", "one")
    send(game, "ENGLAND", "two")
    mark(game, "FRANCE", channel="public")
    counted = client_for(user_of(game, "FRANCE")).get(f"/api/v1/games/{game.id}/channels", {"since": first})
    assert {c["id"]: c["unread"] for c in counted.json()}["public"] == 1


def test_marking_a_message_of_another_channel_is_refused_with_the_reason(game):
    private = send(game, "ENGLAND", "Channel?", ["FRANCE"])
    elsewhere = send(game, "ENGLAND", "Just us", ["GERMANY"])
    answer = mark(game, "FRANCE", channel="public", up_to=private)
    assert (answer.status_code, answer.json()["error"]["code"]) == (422, "not_in_channel")
    assert f"Message {private} is not in your public press" in answer.json()["error"]["message"]
    hidden = mark(game, "FRANCE", channel="GERMANY", up_to=elsewhere)  # not France's to read
    assert (hidden.status_code, hidden.json()["error"]["code"]) == (422, "not_in_channel")
    assert "not in your GERMANY press" in hidden.json()["error"]["message"]
    assert mark(game, "FRANCE", channel=" , ").json()["error"]["code"] == "unknown_channel"  # 422
    assert mark(game, "FRANCE").status_code == 400  # no channel: malformed
