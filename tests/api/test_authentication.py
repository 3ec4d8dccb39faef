"""A token is read with its owner on every request, in one query: whatever changes about either (a
revocation, a deletion, a right taken away, a setting) counts from the next request, in every process."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext

from dipserver.accounts.models import ApiToken, User
from dipserver.accounts.roles import GAME_MASTERS_GROUP
from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db


def test_a_token_and_its_owner_cost_one_query(outsider):
    client = client_for(outsider)
    client.get("/api/v1/accounts/me")  # the token's first use is written once
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/api/v1/accounts/me").status_code == 200
    token_queries = [q["sql"] for q in queries.captured_queries if "accounts_apitoken" in q["sql"]]
    assert len(token_queries) == 1
    assert "accounts_user" in token_queries[0]  # the owner comes with it


def test_a_token_deleted_behind_the_apis_back_is_refused_at_once(outsider):
    client = client_for(outsider)
    assert client.get("/api/v1/accounts/me").status_code == 200
    ApiToken.objects.filter(user=outsider).delete()
    answer = client.get("/api/v1/accounts/me")
    assert answer.status_code == 401
    assert answer.json()["error"] == {
        "code": "authentication_failed",
        "message": "Invalid token.",
        "fields": {},
    }


def test_a_token_revoked_behind_the_apis_back_is_refused_at_once(outsider):
    client = client_for(outsider)
    assert client.get("/api/v1/accounts/me").status_code == 200
    ApiToken.objects.filter(user=outsider).update(revoked_at="2020-01-01T00:00:00Z")
    assert client.get("/api/v1/accounts/me").json()["error"]["code"] == "not_authenticated"


def test_a_deactivated_user_is_refused_at_once(outsider):
    client = client_for(outsider)
    assert client.get("/api/v1/accounts/me").status_code == 200
    User.objects.filter(pk=outsider.pk).update(is_active=False)
    assert client.get("/api/v1/accounts/me").status_code == 401


def test_a_superuser_right_taken_away_stops_working_at_once(game, admin):
    client = client_for(admin)  # no master of the game: a superuser may pause it all the same
    assert client.post(f"/api/v1/games/{game.id}/pause").status_code == 200
    User.objects.filter(pk=admin.pk).update(is_superuser=False)
    assert client.post(f"/api/v1/games/{game.id}/resume").status_code == 403


def test_a_group_taken_away_stops_counting_at_once(outsider):
    masters, _ = Group.objects.get_or_create(name=GAME_MASTERS_GROUP)
    outsider.groups.add(masters)
    client = client_for(outsider)
    assert client.get("/api/v1/accounts/me").json()["is_game_master"] is True
    outsider.groups.remove(masters)
    assert client.get("/api/v1/accounts/me").json()["is_game_master"] is False


def test_a_setting_changed_elsewhere_reads_back_at_once(outsider):
    client = client_for(outsider)
    assert client.get("/api/v1/accounts/settings").json()["time_zone"] == outsider.time_zone
    other_client = client_for(outsider)  # another token, e.g. another process or the web page
    other_client.patch("/api/v1/accounts/settings", {"time_zone": "Asia/Tokyo"}, format="json")
    assert client.get("/api/v1/accounts/settings").json()["time_zone"] == "Asia/Tokyo"
    assert client.get("/api/v1/accounts/me").json()["time_zone"] == "Asia/Tokyo"
