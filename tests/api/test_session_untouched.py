"""A token client has no session: the site's middleware leaves the session store and the session user
alone for it (they cost an order PUT about 3 % of its CPU). A request that may have a session still
reads it, and its answer still varies on the cookie."""

from __future__ import annotations

from tests.api.conftest import client_for, user_of


def test_a_token_put_reads_no_session_and_no_session_user(game):
    france = user_of(game, "FRANCE")
    body = {"phase": "S1901M", "orders": ["A PAR - BUR"]}
    answer = client_for(france).put(f"/api/v1/games/{game.id}/orders", body, format="json")
    assert answer.status_code == 200, answer.content
    request = answer.wsgi_request
    assert request.session.accessed is False and request.session.modified is False
    assert "_cached_user" not in request.__dict__  # the session's user, never looked up
    assert "Cookie" not in answer.get("Vary", "") and not answer.cookies


def test_a_token_client_still_reads_times_in_its_accounts_zone(game):
    france = user_of(game, "FRANCE")
    france.time_zone = "Asia/Tokyo"
    france.save(update_fields=["time_zone"])
    answer = client_for(france).get(f"/api/v1/games/{game.id}")
    assert answer.status_code == 200
    assert answer.json()["created_at"].endswith("+09:00")  # the zone the token's authentication set


def test_a_browser_request_still_reads_its_session_and_zone(client, game):
    france = user_of(game, "FRANCE")
    france.time_zone = "Europe/Paris"
    france.save(update_fields=["time_zone"])
    client.force_login(france)
    answer = client.get(f"/api/v1/games/{game.id}")
    assert answer.status_code == 200 and answer.wsgi_request.session.accessed
    assert answer.wsgi_request.user == france and "Cookie" in answer["Vary"]
    assert answer.json()["created_at"][-6:] in ("+01:00", "+02:00")  # Paris, winter or summer


def test_an_anonymous_request_still_varies_on_the_cookie(client, game):
    answer = client.get(f"/api/v1/games/{game.id}")
    assert answer.status_code == 200 and "Cookie" in answer["Vary"]
