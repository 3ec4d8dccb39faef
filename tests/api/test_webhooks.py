"""My webhooks through the API: added with the secret shown once, listed without it, removed, and each
one's delivery log; refusals carry their codes."""

from __future__ import annotations

import pytest

from dipserver.api.errors import GAME_ERROR_STATUSES, RETRY_AFTER_SECONDS
from dipserver.webhooks import addresses
from dipserver.webhooks.addresses import Lookups
from dipserver.webhooks.models import Webhook
from tests.api.conftest import client_for, user_of

pytestmark = pytest.mark.django_db
URL = "http://127.0.0.1:9/hook"  # loopback: the test settings allow it; nothing is sent in these tests


def test_a_new_webhook_shows_its_secret_once(outsider):
    made = client_for(outsider).post("/api/v1/webhooks", {"url": URL, "name": "discord"}, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["secret"].startswith("whsec_")
    assert made.json()["game"] is None and made.json()["view"] == "player"
    listed = client_for(outsider).get("/api/v1/webhooks").json()
    assert [h["name"] for h in listed] == ["discord"]
    assert "secret" not in listed[0]


def test_a_webhook_to_a_private_address_is_refused_with_its_code(outsider):
    answer = client_for(outsider).post("/api/v1/webhooks", {"url": "http://10.0.0.1/"}, format="json")
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == "address_refused"
    assert not Webhook.objects.exists()


def test_a_hook_made_while_every_lookup_is_busy_answers_503_saying_when_to_try_again(outsider, monkeypatch):
    monkeypatch.setattr(addresses, "lookups", Lookups(at_once=0))  # every lookup slot taken
    made = {"url": "http://hooks.example.org/"}  # a name: an address in the URL is not looked up
    answer = client_for(outsider).post("/api/v1/webhooks", made, format="json")
    assert answer.status_code == 503
    assert answer.json()["error"]["code"] == "lookups_busy"
    assert int(answer["Retry-After"]) > 0
    assert not Webhook.objects.exists()


def test_every_refusal_answering_503_says_when_to_try_again():
    busy = {code for code, status in GAME_ERROR_STATUSES.items() if status == 503}
    assert busy and busy <= RETRY_AFTER_SECONDS.keys()


def test_a_webhook_on_a_game_i_neither_play_nor_run_is_forbidden(outsider, game):
    answer = client_for(outsider).post("/api/v1/webhooks", {"url": URL, "game": game.id}, format="json")
    assert answer.status_code == 403
    assert answer.json()["error"]["code"] == "not_yours"


def test_a_game_masters_webhook_hears_the_game_as_seen_without_a_seat(master, game):
    game.masters.add(master)
    answer = client_for(master).post("/api/v1/webhooks", {"url": URL, "game": game.id}, format="json")
    assert answer.status_code == 201
    assert answer.json()["view"] == "game"


def test_an_unknown_kind_of_news_is_refused(outsider):
    answer = client_for(outsider).post("/api/v1/webhooks", {"url": URL, "kinds": ["gossip"]}, format="json")
    assert answer.status_code == 400
    assert "kinds" in answer.json()["error"]["fields"]


def test_removing_a_webhook_ends_it(outsider):
    hook = client_for(outsider).post("/api/v1/webhooks", {"url": URL}, format="json").json()
    assert client_for(outsider).delete(f"/api/v1/webhooks/{hook['id']}").status_code == 204
    assert client_for(outsider).get("/api/v1/webhooks").json() == []


def test_someone_elses_webhook_is_not_found(outsider, game):
    england = user_of(game, "ENGLAND")
    hook = client_for(england).post("/api/v1/webhooks", {"url": URL}, format="json").json()
    assert client_for(outsider).delete(f"/api/v1/webhooks/{hook['id']}").status_code == 404
    assert client_for(outsider).get(f"/api/v1/webhooks/{hook['id']}/deliveries").status_code == 404


def test_the_delivery_log_says_delivered_or_failed_but_not_the_receivers_answer(outsider, game):
    """The status code, error and tries would tell the owner what listens at an address (port scanning)."""
    from dipserver.webhooks.models import Delivery

    england = user_of(game, "ENGLAND")
    hook = Webhook.objects.create(owner=england, url=URL, secret="whsec_x")
    Delivery.objects.create(
        webhook=hook,
        key="press:message:1:2:hook:1",
        kind="press",
        payload={},
        status="failed",
        attempts=8,
        response_code=503,
        last_error="HTTP 503",
    )
    Delivery.objects.create(
        webhook=hook, key="press:message:1:3:hook:1", kind="press", payload={}, status="delivered"
    )
    log = client_for(england).get(f"/api/v1/webhooks/{hook.id}/deliveries").json()
    assert [row["status"] for row in log["results"]] == ["delivered", "failed"]
    for row in log["results"]:
        assert not {"response_code", "last_error", "attempts"} & set(row)
        assert "503" not in str(row)


def test_a_webhook_without_a_name_answers_null_and_an_undelivered_delivery_no_time(game):
    from dipserver.webhooks.models import Delivery

    england = user_of(game, "ENGLAND")
    made = client_for(england).post("/api/v1/webhooks", {"url": URL}, format="json").json()
    assert made["name"] is None
    assert client_for(england).get("/api/v1/webhooks").json()[0]["name"] is None
    Delivery.objects.create(webhook_id=made["id"], key="press:message:1:2:hook:9", kind="press", payload={})
    (row,) = client_for(england).get(f"/api/v1/webhooks/{made['id']}/deliveries").json()["results"]
    assert row["status"] == "pending" and row["delivered_at"] is None
