"""Tokens are remembered briefly, so polling costs no token query; unknown tokens are always refused."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from dipserver.accounts.models import ApiToken
from dipserver.api import authentication
from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db


def test_a_known_token_is_looked_up_once_then_remembered(outsider):
    client = client_for(outsider)
    client.get("/api/v1/accounts/me")
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/api/v1/accounts/me").status_code == 200
    assert not [q for q in queries.captured_queries if "accounts_apitoken" in q["sql"]]


def test_a_revoked_token_stops_working_once_its_memory_expires(outsider, monkeypatch):
    client = client_for(outsider)
    assert client.get("/api/v1/accounts/me").status_code == 200
    ApiToken.objects.filter(user=outsider).delete()  # behind the API's back: no revocation mark
    assert client.get("/api/v1/accounts/me").status_code == 200  # still remembered: the documented delay
    later = time.monotonic() + authentication.TOKEN_CACHE_SECONDS + 1
    monkeypatch.setattr(authentication, "time", SimpleNamespace(monotonic=lambda: later))
    answer = client.get("/api/v1/accounts/me")
    assert answer.status_code == 401
    assert answer.json()["error"] == {
        "code": "authentication_failed",
        "message": "Invalid token.",
        "fields": {},
    }
