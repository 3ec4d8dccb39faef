"""The account page lists my API tokens (made there with the secret shown once, revoked there) and the
vacation left in each game I play."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from dipserver.accounts.models import ApiToken
from dipserver.accounts.tokens import token_create
from tests.server.conftest import seat, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner(client):
    user = get_user_model().objects.create_user(username="owner", password="a long passphrase 1")
    client.force_login(user)
    return user


def test_a_token_made_on_the_page_shows_its_secret_once(client, owner):
    page = client.post("/accounts/tokens/", {"name": "my bot"}, follow=True).content.decode()
    assert "my bot" in page and "dip_" in page
    assert "dip_" not in client.get("/accounts/settings/").content.decode()


def test_a_token_revoked_on_the_page_works_no_more(client, owner):
    token, _ = token_create(user=owner, name="old bot")
    assert "old bot" in client.get("/accounts/settings/").content.decode()
    client.post(f"/accounts/tokens/{token.id}/revoke/")
    assert ApiToken.objects.get(id=token.id).revoked_at is not None
    assert "old bot" not in client.get("/accounts/settings/").content.decode()


def test_someone_elses_token_cannot_be_revoked_from_my_page(client, owner):
    other = get_user_model().objects.create(username="other")
    token, _ = token_create(user=other, name="theirs")
    client.post(f"/accounts/tokens/{token.id}/revoke/")
    assert ApiToken.objects.get(id=token.id).revoked_at is None


def test_the_page_shows_the_vacation_left_in_each_game(client, owner):
    others = [get_user_model().objects.create(username=f"p{i}") for i in range(6)]
    game = started_game([owner, *others], vacation_days=7)
    power = next(p for p in game.powers.all() if p.user_id == owner.id)
    page = client.get("/accounts/settings/").content.decode()
    assert "Test game" in page and power.name.title() in page
    assert f"<td>{seat(game, power.name).vacation_days_left}</td>" in page
