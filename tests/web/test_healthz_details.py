"""/healthz tells anyone whether the site's services are up, but where they are (the broker's address,
host names) and why they failed only to the site's staff and to a check on this host (loopback)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

pytestmark = pytest.mark.django_db

OUTSIDE = "203.0.113.5"


def _details(body: dict) -> list[str]:
    return [name for name in ("database", "broker", "worker") if body[name] and "detail" in body[name]]


def test_an_outsider_sees_only_what_is_up() -> None:
    answer = Client(REMOTE_ADDR=OUTSIDE).get("/healthz")
    assert answer.status_code == 200
    body = answer.json()
    assert body["status"] == "ok"
    assert body["database"] == {"name": "database", "ok": True}
    assert body["broker"] == {"name": "broker", "ok": True}
    assert _details(body) == []


@pytest.mark.parametrize("address", ["127.0.0.1", "127.8.9.10", "::1"])
def test_a_check_on_this_host_sees_the_details(address: str) -> None:
    body = Client(REMOTE_ADDR=address).get("/healthz").json()
    assert _details(body) == ["database", "broker", "worker"]


def test_staff_see_the_details_from_anywhere() -> None:
    client = Client(REMOTE_ADDR=OUTSIDE)
    client.force_login(get_user_model().objects.create_user("ops", password="x" * 12, is_staff=True))
    assert _details(client.get("/healthz").json()) == ["database", "broker", "worker"]


def test_a_signed_in_player_sees_only_what_is_up() -> None:
    client = Client(REMOTE_ADDR=OUTSIDE)
    client.force_login(get_user_model().objects.create_user("player", password="x" * 12))
    assert _details(client.get("/healthz").json()) == []


def test_behind_a_proxy_on_this_host_the_client_is_the_forwarded_address(settings) -> None:
    settings.TRUSTED_PROXY_COUNT = 1
    proxied = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=OUTSIDE)
    assert _details(proxied.get("/healthz").json()) == []
