"""Accounts 0003 moves each old single authtoken key into the new token table, hashed, so it keeps working."""

from __future__ import annotations

import hashlib

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from rest_framework.test import APIClient

from tests.server.test_migrations_round_trip import migrated

BEFORE = [("accounts", "0002_email_pending_time_zone_preferences")]
AFTER = [("accounts", "0003_api_tokens")]
OLD_KEY = "0123456789abcdef0123456789abcdef01234567"


@pytest.fixture
def latest_after(transactional_db):
    yield
    migrated(MigrationExecutor(connection).loader.graph.leaf_nodes())


def test_an_old_token_keeps_working_and_only_its_hash_is_kept(latest_after):
    apps = migrated(BEFORE)
    user = apps.get_model("accounts", "User").objects.create(username="old-bot", password="!")
    apps.get_model("authtoken", "Token").objects.create(key=OLD_KEY, user=user)
    apps = migrated(AFTER)
    stored = apps.get_model("accounts", "ApiToken").objects.get()
    assert (stored.user_id, stored.key_hash) == (user.id, hashlib.sha256(OLD_KEY.encode()).hexdigest())
    assert not apps.get_model("authtoken", "Token").objects.exists()
    migrated(MigrationExecutor(connection).loader.graph.leaf_nodes())
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {OLD_KEY}")
    assert client.get("/api/v1/accounts/me").json()["username"] == "old-bot"
