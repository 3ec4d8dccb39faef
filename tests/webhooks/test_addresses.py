"""Webhooks reach only globally routable http(s) addresses (an allow-list): checked when a hook is made and
again at each delivery, after the name is resolved, and the delivery connects to the address checked."""

from __future__ import annotations

import ipaddress

import pytest
from django.contrib.auth import get_user_model

from dipserver.webhooks.addresses import address_allowed
from dipserver.webhooks.errors import WebhookError
from dipserver.webhooks.models import Delivery
from dipserver.webhooks.services import webhook_create
from tests.server.conftest import started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner(db):
    return get_user_model().objects.create(username="owner")


# Each class an attacker may aim a webhook at, inside the network the site runs in or back at itself.
REFUSED = {
    "10.1.2.3": "private (RFC 1918)",
    "172.16.5.4": "private (RFC 1918)",
    "192.168.0.10": "private (RFC 1918)",
    "127.0.0.1": "loopback",
    "127.9.9.9": "loopback",
    "169.254.169.254": "link-local: a cloud's metadata service",
    "100.64.0.1": "shared address space (carrier-grade NAT)",
    "100.127.255.254": "shared address space, its last address",
    "100.100.100.200": "a cloud's metadata service in the shared address space",
    "0.0.0.0": "unspecified",
    "0.1.2.3": "this network",
    "240.0.0.1": "reserved",
    "255.255.255.255": "broadcast",
    "224.0.0.1": "multicast",
    "239.255.255.250": "multicast (SSDP)",
    "192.0.2.1": "documentation",
    "198.18.0.1": "benchmarking",
    "192.0.0.8": "IETF protocol assignments",
    "192.88.99.1": "6to4 relay anycast",
    "::1": "IPv6 loopback",
    "::": "IPv6 unspecified",
    "fe80::1": "IPv6 link-local",
    "fc00::1": "IPv6 unique local",
    "fd12:3456::1": "IPv6 unique local",
    "fec0::1": "IPv6 site-local (deprecated)",
    "ff02::1": "IPv6 multicast",
    "ff0e::1": "IPv6 global-scope multicast",
    "::ffff:10.0.0.1": "IPv4-mapped private",
    "::ffff:127.0.0.1": "IPv4-mapped loopback",
    "::ffff:8.8.8.8": "IPv4-mapped, even of a public address",
    "::127.0.0.1": "IPv4-compatible (deprecated)",
    "2002:7f00:1::": "6to4 carrying 127.0.0.1",
    "2002:a9fe:a9fe::1": "6to4 carrying 169.254.169.254",
    "2002:a00:1::": "6to4 carrying 10.0.0.1",
    "2002:c0a8:1::": "6to4 carrying 192.168.0.1",
    "2001:0:4136:e378:8000:63bf:3fff:fdd2": "Teredo",
    "2001::1": "Teredo",
    "64:ff9b::a00:1": "NAT64 carrying 10.0.0.1",
    "64:ff9b::7f00:1": "NAT64 carrying 127.0.0.1",
    "64:ff9b::a9fe:a9fe": "NAT64 carrying 169.254.169.254",
    "64:ff9b:1::1": "local-use NAT64",
    "2001:db8::1": "IPv6 documentation",
    "100::1": "IPv6 discard-only",
}
ALLOWED = ["8.8.8.8", "1.1.1.1", "93.184.215.14", "2606:4700:4700::1111", "2a00:1450:4001:81c::200e"]


def url_of(address: str) -> str:
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}/hook"


@pytest.mark.parametrize("address", list(REFUSED), ids=[f"{a} {why}" for a, why in REFUSED.items()])
def test_an_address_that_is_not_globally_routable_is_refused(address, settings):
    settings.DIPSERVER_WEBHOOKS_ALLOW_LOOPBACK = False
    assert not address_allowed(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", ALLOWED)
def test_a_globally_routable_address_is_allowed(address, settings):
    settings.DIPSERVER_WEBHOOKS_ALLOW_LOOPBACK = False
    assert address_allowed(ipaddress.ip_address(address))


def test_a_nat64_address_carrying_a_public_one_is_allowed(settings):
    settings.DIPSERVER_WEBHOOKS_ALLOW_LOOPBACK = False
    assert address_allowed(ipaddress.ip_address("64:ff9b::808:808"))  # to 8.8.8.8


@pytest.mark.parametrize(
    "address",
    ["10.1.2.3", "100.100.100.200", "169.254.169.254", "2002:7f00:1::", "fec0::1", "::ffff:10.0.0.1"],
)
def test_a_hook_to_a_refused_address_is_not_made(owner, address):
    with pytest.raises(WebhookError) as refused:
        webhook_create(owner=owner, url=url_of(address))
    assert refused.value.code == "address_refused"


def test_the_test_only_loopback_setting_lets_loopback_through_and_nothing_else(settings):
    settings.DIPSERVER_WEBHOOKS_ALLOW_LOOPBACK = True
    assert address_allowed(ipaddress.ip_address("127.0.0.1"))
    assert address_allowed(ipaddress.ip_address("::1"))
    for other in ("::ffff:127.0.0.1", "2002:7f00:1::", "10.0.0.1", "169.254.169.254", "100.64.0.1"):
        assert not address_allowed(ipaddress.ip_address(other)), other


def test_only_the_test_settings_allow_loopback():
    from dipserver.config.settings import local, mail

    assert mail.DIPSERVER_WEBHOOKS_ALLOW_LOOPBACK is False
    assert getattr(local, "DIPSERVER_WEBHOOKS_ALLOW_LOOPBACK", False) is False


def test_loopback_is_refused_unless_the_settings_allow_it(owner, settings):
    settings.DIPSERVER_WEBHOOKS_ALLOW_LOOPBACK = False
    with pytest.raises(WebhookError) as refused:
        webhook_create(owner=owner, url="http://localhost:9/hook")
    assert refused.value.code == "address_refused"


@pytest.mark.parametrize(
    "url",
    ["ftp://example.org/hook", "file:///etc/passwd", "https://user:pw@example.org/", "http:///x", "hook"],
)
def test_a_hook_url_that_is_not_plain_http_or_https_is_refused(owner, url):
    with pytest.raises(WebhookError) as refused:
        webhook_create(owner=owner, url=url)
    assert refused.value.code == "bad_url"


def test_a_name_that_resolves_elsewhere_by_delivery_time_is_not_posted_to(
    owner, receiver, settings, django_capture_on_commit_callbacks
):
    hook, _ = webhook_create(owner=owner, url=receiver.url.replace("127.0.0.1", "localhost"))
    settings.DIPSERVER_WEBHOOKS_ALLOW_LOOPBACK = False  # what was allowed at creation is not any more
    others = [get_user_model().objects.create(username=f"p{i}") for i in range(6)]

    with django_capture_on_commit_callbacks(execute=True):
        started_game([owner, *others])

    assert receiver.received == []
    delivery = Delivery.objects.get(webhook=hook)
    assert delivery.status == "failed"
    assert "may not reach" in delivery.last_error
