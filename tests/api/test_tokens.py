"""Personal API tokens: several per user, shown once, listed without secrets, revoked, rotated, expiring."""

from __future__ import annotations

import datetime as dt
import hashlib

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from dipserver.accounts.models import ApiToken
from dipserver.accounts.tokens import MAX_ACTIVE_TOKENS, token_create
from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db


def bearer(secret: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {secret}")
    return client


def test_a_created_token_is_shown_once_and_works(outsider):
    made = client_for(outsider).post("/api/v1/accounts/tokens", {"name": "my bot"}, format="json")
    assert made.status_code == 201
    assert made.json()["name"] == "my bot" and made.json()["expires_at"] is None
    assert bearer(made.json()["token"]).get("/api/v1/accounts/me").json()["username"] == "outsider"


def test_only_the_hash_of_a_secret_is_stored(outsider):
    token, secret = token_create(user=outsider, name="bot")
    token.refresh_from_db()
    assert token.key_hash == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in str(list(ApiToken.objects.values()))


def test_the_list_shows_my_tokens_without_their_secrets(outsider, master):
    _, secret = token_create(user=outsider, name="bot")
    token_create(user=master, name="someone else's")
    listed = bearer(secret).get("/api/v1/accounts/tokens")
    assert listed.status_code == 200
    assert [t["name"] for t in listed.json()] == ["bot"]
    assert set(listed.json()[0]) == {"id", "name", "created_at", "last_used_at", "expires_at"}
    assert secret not in listed.content.decode()


def test_a_revoked_token_is_refused_at_once_with_a_clear_message(outsider):
    keep, keep_secret = token_create(user=outsider, name="keep")
    gone, gone_secret = token_create(user=outsider, name="old bot")
    victim = bearer(gone_secret)
    assert victim.get("/api/v1/accounts/me").status_code == 200  # remembered by this process from now on
    assert bearer(keep_secret).delete(f"/api/v1/accounts/tokens/{gone.id}").status_code == 204
    answer = victim.get("/api/v1/accounts/me")
    assert answer.status_code == 401
    assert answer.json()["error"]["code"] == "not_authenticated"
    assert "revoked" in answer.json()["error"]["message"]
    assert [t["id"] for t in bearer(keep_secret).get("/api/v1/accounts/tokens").json()] == [keep.id]


def test_another_users_token_is_not_found(outsider, master):
    theirs, their_secret = token_create(user=master, name="theirs")
    mine = client_for(outsider)
    for answer in (
        mine.delete(f"/api/v1/accounts/tokens/{theirs.id}"),
        mine.post(f"/api/v1/accounts/tokens/{theirs.id}/rotate"),
    ):
        assert answer.status_code == 404
        assert answer.json()["error"]["code"] == "not_found"
    assert bearer(their_secret).get("/api/v1/accounts/me").status_code == 200


def test_rotation_gives_a_new_secret_and_retires_the_old_one(outsider):
    old, old_secret = token_create(user=outsider, name="bot", expires_in_days=30)
    rotated = bearer(old_secret).post(f"/api/v1/accounts/tokens/{old.id}/rotate")
    assert rotated.status_code == 201
    new = rotated.json()
    assert new["name"] == "bot" and new["id"] != old.id and new["token"] != old_secret
    assert dt.datetime.fromisoformat(new["expires_at"]) == old.expires_at
    assert bearer(old_secret).get("/api/v1/accounts/me").status_code == 401
    assert bearer(new["token"]).get("/api/v1/accounts/me").status_code == 200


def test_rotating_the_token_a_request_carries(outsider):
    _, secret = token_create(user=outsider, name="bot")
    rotated = bearer(secret).post("/api/v1/accounts/token/rotate")
    assert rotated.status_code == 201
    assert bearer(secret).get("/api/v1/accounts/me").status_code == 401
    assert bearer(rotated.json()["token"]).get("/api/v1/accounts/me").status_code == 200


def test_an_expired_token_is_refused_with_a_clear_message(outsider, monkeypatch):
    token, secret = token_create(user=outsider, name="short", expires_in_days=1)
    client = bearer(secret)
    assert client.get("/api/v1/accounts/me").status_code == 200  # remembered from now on
    after = token.expires_at + dt.timedelta(seconds=1)
    monkeypatch.setattr("django.utils.timezone.now", lambda: after)
    answer = client.get("/api/v1/accounts/me")
    assert answer.status_code == 401
    assert answer.json()["error"]["code"] == "not_authenticated"
    assert "expired" in answer.json()["error"]["message"]


def test_an_expired_token_is_not_listed(outsider, monkeypatch):
    token, _ = token_create(user=outsider, name="short", expires_in_days=1)
    _, secret = token_create(user=outsider, name="long")
    monkeypatch.setattr("django.utils.timezone.now", lambda: token.expires_at + dt.timedelta(seconds=1))
    assert [t["name"] for t in bearer(secret).get("/api/v1/accounts/tokens").json()] == ["long"]


def test_logout_revokes_the_token_it_was_called_with_only(outsider):
    _, secret = token_create(user=outsider, name="laptop")
    _, other = token_create(user=outsider, name="bot")
    assert bearer(secret).post("/api/v1/accounts/logout").status_code == 204
    assert bearer(secret).get("/api/v1/accounts/me").status_code == 401
    assert bearer(other).get("/api/v1/accounts/me").status_code == 200


def test_logout_with_a_session_is_refused(outsider):
    client = APIClient()
    client.force_login(outsider)
    answer = client.post("/api/v1/accounts/logout")
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == "no_token"


def test_last_use_is_written_at_most_once_a_minute(outsider, monkeypatch):
    token, secret = token_create(user=outsider, name="bot")
    client = bearer(secret)
    client.get("/api/v1/accounts/me")
    first = ApiToken.objects.get(pk=token.pk).last_used_at
    assert first is not None
    with CaptureQueriesContext(connection) as queries:
        client.get("/api/v1/accounts/me")
    assert not [q for q in queries.captured_queries if q["sql"].startswith("UPDATE")]
    later = first + dt.timedelta(minutes=1, seconds=1)
    monkeypatch.setattr("django.utils.timezone.now", lambda: later)
    client.get("/api/v1/accounts/me")
    assert ApiToken.objects.get(pk=token.pk).last_used_at == later


def test_signing_in_with_a_password_answers_a_new_working_token_each_time(outsider):
    body = {"username": "outsider", "password": "a long passphrase 1"}
    first = APIClient().post("/api/v1/accounts/token", body, format="json").json()["token"]
    second = APIClient().post("/api/v1/accounts/token", body, format="json").json()["token"]
    assert first != second
    assert all(bearer(s).get("/api/v1/accounts/me").status_code == 200 for s in (first, second))


def test_too_many_tokens_are_refused_but_sign_in_makes_room(outsider):
    for i in range(MAX_ACTIVE_TOKENS):
        _, secret = token_create(user=outsider, name="sign-in" if i == 0 else f"bot {i}")
    refused = bearer(secret).post("/api/v1/accounts/tokens", {"name": "one more"}, format="json")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "too_many_tokens"
    body = {"username": "outsider", "password": "a long passphrase 1"}
    assert APIClient().post("/api/v1/accounts/token", body, format="json").status_code == 200
    assert ApiToken.objects.filter(user=outsider, revoked_at__isnull=True).count() == MAX_ACTIVE_TOKENS


def test_sign_in_makes_room_by_revoking_the_least_recently_used_sign_in_token(outsider):
    _, used_secret = token_create(user=outsider, name="sign-in")
    never, _ = token_create(user=outsider, name="sign-in")
    bearer(used_secret).get("/api/v1/accounts/me")  # gives it a last use; the other has none
    for i in range(MAX_ACTIVE_TOKENS - 2):
        token_create(user=outsider, name=f"bot {i}")
    body = {"username": "outsider", "password": "a long passphrase 1"}
    assert APIClient().post("/api/v1/accounts/token", body, format="json").status_code == 200
    revoked = ApiToken.objects.filter(user=outsider, revoked_at__isnull=False)
    assert list(revoked.values_list("id", flat=True)) == [never.id]
