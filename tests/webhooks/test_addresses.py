"""Webhooks reach only public http(s) addresses: checked when a hook is made and again at each delivery."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from dipserver.webhooks.errors import WebhookError
from dipserver.webhooks.models import Delivery
from dipserver.webhooks.services import webhook_create
from tests.server.conftest import started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner(db):
    return get_user_model().objects.create(username="owner")


@pytest.mark.parametrize(
    "url",
    [
        "http://10.1.2.3/hook",  # private
        "http://192.168.0.10/hook",
        "http://169.254.169.254/latest/meta-data",  # link-local: a cloud's metadata service
        "http://[fe80::1]/hook",
        "http://240.0.0.1/hook",  # reserved
        "http://0.0.0.0/hook",
        "http://[::ffff:10.0.0.1]/hook",  # a private address dressed as IPv6
    ],
)
def test_a_hook_to_a_private_or_reserved_address_is_refused(owner, url):
    with pytest.raises(WebhookError) as refused:
        webhook_create(owner=owner, url=url)
    assert refused.value.code == "address_refused"


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
