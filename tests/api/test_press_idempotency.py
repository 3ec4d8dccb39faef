"""``POST .../messages`` with an ``Idempotency-Key``: a client that retries after a cut connection posts
once and gets the same message back; the key is the sending power's own, and the same key with another
message is refused."""

from __future__ import annotations

from django.core import mail

from dipserver.games.models import Game, Message
from dipserver.games.services import press
from dipserver.games.services.games import game_finish
from tests.api.conftest import client_for, user_of


def post(game: Game, power: str, key: str | None, body: str = "Channel?", to: list[str] | None = None):
    headers = {} if key is None else {"HTTP_IDEMPOTENCY_KEY": key}
    return client_for(user_of(game, power)).post(
        f"/api/v1/games/{game.id}/messages",
        {"body": body, "recipients": ["FRANCE"] if to is None else to},
        format="json",
        **headers,
    )


def test_a_retry_with_the_same_key_posts_once_and_gets_the_same_message_back(game):
    first = post(game, "ENGLAND", "c0ffee-1")
    retry = post(game, "ENGLAND", "c0ffee-1")
    assert (first.status_code, retry.status_code) == (201, 201)
    assert retry.json() == first.json()
    assert retry["Idempotent-Replayed"] == "true"
    assert not first.has_header("Idempotent-Replayed")
    assert Message.objects.filter(game=game).count() == 1


def test_a_retry_sends_no_second_mail(game, django_capture_on_commit_callbacks):
    user_of(game, "FRANCE").__class__.objects.filter(id=user_of(game, "FRANCE").id).update(
        email="france@example.org"
    )
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            assert post(game, "ENGLAND", "c0ffee-1").status_code == 201
    assert [m.to for m in mail.outbox] == [["france@example.org"]]


def test_the_same_key_with_another_message_is_refused(game):
    post(game, "ENGLAND", "c0ffee-1")
    for body, to in (("Something else", ["FRANCE"]), ("Channel?", ["GERMANY"])):
        refused = post(game, "ENGLAND", "c0ffee-1", body=body, to=to)
        assert refused.status_code == 422
        assert refused.json()["error"]["code"] == "idempotency_key_reused"
    assert Message.objects.filter(game=game).count() == 1


def test_a_key_is_scoped_to_its_sender(game):
    assert post(game, "ENGLAND", "c0ffee-1").status_code == 201
    assert post(game, "GERMANY", "c0ffee-1").status_code == 201
    assert Message.objects.filter(game=game).count() == 2


def test_a_retry_after_the_game_moved_on_still_gets_the_message(game):
    first = post(game, "ENGLAND", "c0ffee-1")
    game_finish(game=game, result="draw", winners=[])
    retry = post(game, "ENGLAND", "c0ffee-1")
    assert (retry.status_code, retry.json()) == (201, first.json())
    over = post(game, "ENGLAND", "c0ffee-2")  # new press: the game is over
    assert (over.status_code, over.json()["error"]["code"]) == (409, "not_in_play")


def test_posts_without_a_key_are_each_posted(game):
    assert post(game, "ENGLAND", None).status_code == 201
    assert post(game, "ENGLAND", None).status_code == 201
    assert Message.objects.filter(game=game).count() == 2


def test_an_unusable_key_is_refused_and_nothing_is_posted(game):
    for key in ("", "x" * 256, "caf\u00e9"):
        refused = post(game, "ENGLAND", key)
        assert refused.status_code == 400, key
        assert list(refused.json()["error"]["fields"]) == ["Idempotency-Key"]
    assert not Message.objects.filter(game=game).exists()


def test_a_retry_racing_the_first_post_gets_its_message_too(game, monkeypatch):
    """Two requests with one key at once: the second misses the first's row when it looks, and its insert
    then meets the key's unique constraint; it answers with the first message all the same."""
    first = post(game, "ENGLAND", "c0ffee-1").json()
    looked = []
    real = press.posted_with

    def missed_once(seat, key):
        looked.append(key)
        return None if len(looked) == 1 else real(seat, key)

    monkeypatch.setattr(press, "posted_with", missed_once)
    retry = post(game, "ENGLAND", "c0ffee-1")
    assert (retry.status_code, retry.json(), retry["Idempotent-Replayed"]) == (201, first, "true")
    assert looked == ["c0ffee-1", "c0ffee-1"]
    assert Message.objects.filter(game=game).count() == 1
