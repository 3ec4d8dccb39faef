"""Host-name lookups of webhook deliveries, with a resolver that stalls on purpose (injected, not a real
DNS) and real receivers on loopback: a stalled name holds no lookup of another name, each delivery waits
for its own name only until its own deadline, deliveries to one stalled name share one lookup, the bound on
names looked up at once refuses at once rather than queueing, and the address filter still judges every
address a name resolves to."""

from __future__ import annotations

import socket
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from django.contrib.auth import get_user_model

from dipserver.webhooks import addresses
from dipserver.webhooks.addresses import Lookups
from dipserver.webhooks.deliveries import Outcome, delivery_send
from dipserver.webhooks.models import Delivery, Webhook
from dipserver.webhooks.services import webhook_create
from dipserver.webhooks.transport import Unreachable, post

DEADLINE = 2  # seconds, each delivery's
PROMPT = 1.0  # seconds: what "at once" means on a busy two-core machine
STALLED = 12  # more names than the pool of 8 lookup threads there used to be


@dataclass
class StallingResolver:
    """``getaddrinfo`` as a test wants it: a name starting with ``stalled`` never answers until the test
    ends; a name in ``answers`` resolves at once to its address; any other name does not exist."""

    answers: dict[str, str] = field(default_factory=dict)
    asked: Counter[str] = field(default_factory=Counter)
    release: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, host: str, port: object, **_: object) -> list[tuple[object, ...]]:
        with self.lock:
            self.asked[host] += 1
        if host.startswith("stalled"):
            self.release.wait(60)
            raise socket.gaierror(socket.EAI_AGAIN, "the resolver gave up")
        if host not in self.answers:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (self.answers[host], 0))]

    def stalled(self) -> int:
        with self.lock:
            return sum(n for host, n in self.asked.items() if host.startswith("stalled"))


@pytest.fixture
def resolver(monkeypatch) -> Iterator[StallingResolver]:
    stalling = StallingResolver()
    monkeypatch.setattr(addresses, "lookups", Lookups(resolve=stalling))
    yield stalling
    stalling.release.set()  # the stalled lookups end (their threads with them)


@pytest.fixture
def short_deadline(settings):
    settings.DIPSERVER_WEBHOOK_DEADLINE = DEADLINE


@pytest.fixture
def owner(db):
    return get_user_model().objects.create(username="owner")


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1].split("/", 1)[0])


def delivery_to(owner, url: str, key: str) -> Delivery:
    hook = Webhook.objects.create(owner=owner, url=url, secret="whsec_l")
    return Delivery.objects.create(webhook=hook, key=key, kind="press", payload={"key": key})


def posts_in_background(urls: list[str]) -> tuple[list[threading.Thread], list[tuple[str, float]]]:
    """Each URL posted to in a thread of its own; each ends as (what happened, seconds it took)."""
    ended: list[tuple[str, float]] = []

    def send(url: str) -> None:
        started = time.monotonic()
        try:
            post(url, b"{}", {}, deadline=DEADLINE)
            ended.append(("answered", time.monotonic() - started))
        except Unreachable as exc:
            ended.append((str(exc), time.monotonic() - started))

    threads = [threading.Thread(target=send, args=(url,), daemon=True) for url in urls]
    for thread in threads:
        thread.start()
    return threads, ended


def wait_until(condition, seconds: float = 5.0) -> None:
    ends = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < ends, "timed out"
        time.sleep(0.01)


def test_stalled_names_hold_no_lookup_of_another_name(short_deadline, resolver, receiver, owner):
    port = port_of(receiver.url)
    resolver.answers["hooks.example.org"] = "127.0.0.1"
    threads, ended = posts_in_background([f"http://stalled-{i}.example.net:{port}/x" for i in range(STALLED)])
    wait_until(lambda: resolver.stalled() == STALLED)  # every stalled name holds its lookup now
    delivery = delivery_to(owner, f"http://hooks.example.org:{port}/hook", "fast")

    started = time.monotonic()
    tried = delivery_send(delivery_id=delivery.id)

    assert time.monotonic() - started < PROMPT
    assert tried.outcome == Outcome.DELIVERED
    assert receiver.bodies() == [{"key": "fast"}]
    assert receiver.received[0].headers["Host"] == f"hooks.example.org:{port}"
    for thread in threads:
        thread.join(DEADLINE + 3)
    # Each stalled delivery waited for its own name until its own deadline, and no longer.
    assert len(ended) == STALLED
    for error, took in ended:
        assert "deadline" in error and DEADLINE <= took < DEADLINE + 1.5, (error, took)


def test_deliveries_to_one_stalled_name_share_its_lookup(short_deadline, resolver, receiver):
    port = port_of(receiver.url)
    threads, ended = posts_in_background([f"http://stalled.example.net:{port}/{i}" for i in range(10)])
    wait_until(lambda: resolver.stalled() >= 1)
    time.sleep(0.2)  # the other nine have asked meanwhile
    assert resolver.asked["stalled.example.net"] == 1
    assert addresses.lookups.in_flight() == 1
    for thread in threads:
        thread.join(DEADLINE + 3)
    assert len(ended) == 10 and all("deadline" in error for error, _ in ended)


def test_a_name_is_asked_again_at_the_next_delivery(resolver, receiver, owner):
    port = port_of(receiver.url)
    resolver.answers["hooks.example.org"] = "127.0.0.1"
    for key in ("first", "second"):
        delivery = delivery_to(owner, f"http://hooks.example.org:{port}/hook", key)
        assert delivery_send(delivery_id=delivery.id).outcome == Outcome.DELIVERED
    assert resolver.asked["hooks.example.org"] == 2  # no answer is kept: a name rebound is seen
    assert addresses.lookups.in_flight() == 0


def test_past_the_bound_on_names_at_once_a_lookup_is_refused_at_once_and_tried_later(
    short_deadline, monkeypatch, resolver, receiver, owner
):
    monkeypatch.setattr(addresses, "lookups", Lookups(resolve=resolver, at_once=2))
    port = port_of(receiver.url)
    resolver.answers["hooks.example.org"] = "127.0.0.1"
    threads, _ = posts_in_background([f"http://stalled-{i}.example.net:{port}/x" for i in range(2)])
    wait_until(lambda: resolver.stalled() == 2)
    delivery = delivery_to(owner, f"http://hooks.example.org:{port}/hook", "bounded")

    started = time.monotonic()
    tried = delivery_send(delivery_id=delivery.id)

    assert time.monotonic() - started < PROMPT
    assert tried.outcome == Outcome.RETRY  # not given up: tried again once the stalled names are done
    assert "Too many host names" in Delivery.objects.get(id=delivery.id).last_error
    assert receiver.received == []
    for thread in threads:
        thread.join(DEADLINE + 3)
    resolver.release.set()
    wait_until(lambda: addresses.lookups.in_flight() == 0)
    Delivery.objects.filter(id=delivery.id).update(next_attempt_at=None)
    assert delivery_send(delivery_id=delivery.id).outcome == Outcome.DELIVERED


def test_a_hook_is_made_at_once_while_other_names_stall(resolver, receiver, owner):
    port = port_of(receiver.url)
    resolver.answers["hooks.example.org"] = "127.0.0.1"
    threads, _ = posts_in_background([f"http://stalled-{i}.example.net:{port}/x" for i in range(STALLED)])
    wait_until(lambda: resolver.stalled() == STALLED)

    started = time.monotonic()
    hook, _ = webhook_create(owner=owner, url=f"http://hooks.example.org:{port}/hook")

    assert time.monotonic() - started < PROMPT and hook.id
    resolver.release.set()
    for thread in threads:
        thread.join(DEADLINE + 3)


@pytest.mark.parametrize(
    "address", ["10.0.0.7", "169.254.169.254", "100.100.100.200", "::ffff:127.0.0.1", "fd00::1"]
)
def test_a_name_resolving_to_an_address_webhooks_may_not_reach_is_still_refused(
    address, resolver, receiver, owner
):
    resolver.answers["inside.example.org"] = address
    delivery = delivery_to(owner, f"http://inside.example.org:{port_of(receiver.url)}/hook", "inside")

    assert delivery_send(delivery_id=delivery.id).outcome == Outcome.GAVE_UP

    assert "may not reach" in Delivery.objects.get(id=delivery.id).last_error
    assert receiver.received == []


def test_loopback_by_name_or_written_in_the_url_is_refused_unless_the_tests_allow_it(
    resolver, receiver, owner, settings
):
    settings.DIPSERVER_WEBHOOKS_ALLOW_LOOPBACK = False
    resolver.answers["home.example.org"] = "127.0.0.1"
    port = port_of(receiver.url)
    by_name = delivery_to(owner, f"http://home.example.org:{port}/hook", "by-name")
    written = delivery_to(owner, receiver.url, "written")

    assert delivery_send(delivery_id=by_name.id).outcome == Outcome.GAVE_UP
    assert delivery_send(delivery_id=written.id).outcome == Outcome.GAVE_UP

    assert receiver.received == []
    assert resolver.asked == Counter({"home.example.org": 1})  # an address in the URL is not looked up
