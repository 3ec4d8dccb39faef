"""The account page's webhooks: added with the secret shown once, listed with their delivery log, removed."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from dipserver.webhooks.models import Delivery, Webhook

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner(client):
    user = get_user_model().objects.create_user(username="owner", password="a long passphrase 1")
    client.force_login(user)
    return user


def test_a_webhook_added_on_the_page_shows_its_secret_once(client, owner):
    answer = client.post(
        "/accounts/webhooks/", {"url": "http://127.0.0.1:9/hook", "name": "my bot"}, follow=True
    )
    secret = Webhook.objects.get(owner=owner).secret
    assert secret in answer.content.decode()
    assert secret not in client.get("/accounts/settings/").content.decode()


def test_a_refused_webhook_says_why_on_the_page(client, owner):
    answer = client.post("/accounts/webhooks/", {"url": "http://10.0.0.1/"}, follow=True)
    assert "may not reach" in answer.content.decode()
    assert not Webhook.objects.exists()


def test_the_page_shows_each_webhooks_latest_deliveries_but_not_the_receivers_answer(client, owner):
    hook = Webhook.objects.create(owner=owner, name="my bot", url="http://127.0.0.1:9/", secret="s")
    Delivery.objects.create(
        webhook=hook,
        key="k",
        kind="press",
        payload={},
        status="failed",
        attempts=3,
        response_code=503,
        last_error="HTTP 503: busy",
    )
    page = client.get("/accounts/settings/").content.decode()
    assert "my bot" in page and "Given up" in page
    assert "503" not in page and "busy" not in page  # the answer would make webhooks a port scanner


def test_a_webhook_removed_on_the_page_is_gone(client, owner):
    hook = Webhook.objects.create(owner=owner, url="http://127.0.0.1:9/", secret="s")
    client.post(f"/accounts/webhooks/{hook.id}/remove/")
    assert not Webhook.objects.exists()
