"""A cache that is down fails no request: token clients still sign in, and orders, ready and press are
saved; the outage is logged once, and a cache that hangs holds one request for its socket timeout, not
every request. The cache is a Redis URL on a loopback port where nothing listens, or where a socket takes
connections and never answers."""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Iterator

import pytest
from django.core.cache import cache

from dipserver.config.env import cache_from_url
from dipserver.games.models import Game, Message, Order, Power
from tests.api.conftest import client_for, user_of

pytestmark = pytest.mark.django_db

CACHE_LOGGER = "dipserver.core.cache"


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])  # closed again on leaving: connections to it are refused


@pytest.fixture
def cache_refusing(settings) -> None:
    settings.CACHES = {"default": cache_from_url(f"redis://127.0.0.1:{_closed_port()}/14")}


@pytest.fixture
def cache_hanging(settings) -> Iterator[None]:
    """A server that takes connections (the kernel's backlog) and never says a word."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(64)
        settings.CACHES = {"default": cache_from_url(f"redis://127.0.0.1:{server.getsockname()[1]}/14")}
        yield


def test_a_token_client_is_served_while_the_cache_refuses_connections(outsider, cache_refusing):
    answer = client_for(outsider).get("/api/v1/accounts/me")
    assert answer.status_code == 200, answer.content
    assert answer.json()["username"] == outsider.username


def test_orders_ready_and_press_are_saved_while_the_cache_is_down(game: Game, cache_refusing):
    england = client_for(user_of(game, "ENGLAND"))
    phase = game.current_phase.name
    path = f"/api/v1/games/{game.id}"
    options = england.get(f"{path}/options")  # a cached read: worked out again
    assert options.status_code == 200, options.content
    stored = england.put(f"{path}/orders", {"phase": phase, "orders": ["F LON H"]}, format="json")
    assert stored.status_code == 200, stored.content
    ready = england.put(f"{path}/ready", {"phase": phase, "ready": True}, format="json")
    assert ready.status_code == 200, ready.content
    press = england.post(f"{path}/messages", {"body": "Anyone?", "recipients": []}, format="json")
    assert press.status_code == 201, press.content

    seat = Power.objects.get(game=game, name="ENGLAND")
    assert list(Order.objects.filter(power=seat).values_list("text", flat=True)) == ["F LON H"]
    assert seat.ready
    assert Message.objects.filter(game=game, body="Anyone?").exists()


def test_signing_in_for_a_token_works_while_the_cache_is_down(outsider, cache_refusing):
    answer = client_for().post(
        "/api/v1/accounts/token", {"username": "outsider", "password": "a long passphrase 1"}, format="json"
    )
    assert answer.status_code in (200, 201), answer.content
    assert client_for(outsider).get("/api/v1/accounts/me").status_code == 200


def test_an_outage_is_logged_once_not_per_request(outsider, cache_refusing, caplog):
    client = client_for(outsider)
    with caplog.at_level(logging.WARNING, logger=CACHE_LOGGER):
        for _ in range(5):
            assert client.patch("/api/v1/accounts/settings", {}, format="json").status_code == 200
            cache.set("probe", 1)
            assert cache.get("probe") is None
    outage = [r for r in caplog.records if r.name == CACHE_LOGGER]
    assert len(outage) == 1
    assert "cannot be used" in outage[0].getMessage()


def test_a_cache_that_never_answers_holds_one_request_for_its_timeout_not_every_request(
    outsider, cache_hanging
):
    client = client_for(outsider)
    started = time.monotonic()
    for _ in range(10):  # each a write: the write throttle asks the cache twice
        assert client.patch("/api/v1/accounts/settings", {}, format="json").status_code == 200
    # Without leaving the cache alone after its first timeout: 10 requests x 2 asks x 0.5 s = 10 s.
    assert time.monotonic() - started < 3.0
