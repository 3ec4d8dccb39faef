"""HTTP behaviour every client relies on: one error body, conditional GETs, throttling, pagination."""

from __future__ import annotations

import pytest

from tests.api.conftest import client_for, start_game, user_of

pytestmark = pytest.mark.django_db


def test_malformed_json_gets_a_parse_error_body(game):
    answer = client_for(user_of(game, "FRANCE")).generic(
        "PUT", f"/api/v1/games/{game.id}/orders", "{not json", content_type="application/json"
    )
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "parse_error"
    assert "JSON parse error" in error["message"]


def test_missing_and_wrong_fields_are_named(game):
    answer = client_for(user_of(game, "FRANCE")).put(
        f"/api/v1/games/{game.id}/orders", {"orders": "A PAR H"}, format="json"
    )
    error = answer.json()["error"]
    assert answer.status_code == 400
    assert error["code"] == "invalid"
    assert error["fields"] == {
        "phase": "This field is required.",
        "orders": 'Expected a list of items but got type "str".',
    }


def test_unknown_units_and_other_powers_units_are_explained(game):
    answer = client_for(user_of(game, "FRANCE")).put(
        f"/api/v1/games/{game.id}/orders",
        {"phase": "S1901M", "orders": ["A BUR H", "F LON - ENG"]},
        format="json",
    )
    assert (answer.status_code, answer.json()["error"]["code"]) == (422, "invalid_orders")
    reasons = [o["reason"] for o in answer.json()["error"]["orders"]]
    assert all(reasons), reasons
    assert "2 of 2 orders were rejected" in answer.json()["error"]["message"]


def test_unknown_addresses_games_and_methods_answer_json(game):
    missing = client_for().get("/api/v1/nothing/here")
    assert (missing.status_code, missing.json()["error"]["code"]) == (404, "not_found")
    assert client_for().get("/api/v1/games/999999").json()["error"]["message"] == "There is no game 999999."
    wrong = client_for(user_of(game, "FRANCE")).patch(f"/api/v1/games/{game.id}/orders", {}, format="json")
    assert (wrong.status_code, wrong.json()["error"]["code"]) == (405, "method_not_allowed")


def test_a_conditional_get_of_an_unchanged_game_is_304_and_a_change_is_seen(game):
    france = client_for(user_of(game, "FRANCE"))
    first = france.get(f"/api/v1/games/{game.id}")
    tag = first["ETag"]
    assert tag.startswith('W/"')
    again = france.get(f"/api/v1/games/{game.id}", HTTP_IF_NONE_MATCH=tag)
    assert (again.status_code, again.content, again["ETag"]) == (304, b"", tag)

    france.put(f"/api/v1/games/{game.id}/orders", {"phase": "S1901M", "orders": ["A PAR H"]}, format="json")
    changed = france.get(f"/api/v1/games/{game.id}", HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200
    assert changed["ETag"] != tag
    assert "FRANCE" not in changed.json()["waiting"]


def test_tags_differ_per_viewer_so_a_cached_answer_never_crosses_users(game):
    path = f"/api/v1/games/{game.id}"
    france = client_for(user_of(game, "FRANCE")).get(path)["ETag"]
    england = client_for(user_of(game, "ENGLAND")).get(path, HTTP_IF_NONE_MATCH=france)
    assert england.status_code == 200


def test_phase_reads_are_conditional_too(game):
    england = client_for(user_of(game, "ENGLAND"))
    path = f"/api/v1/games/{game.id}/phases/0"
    tag = england.get(path)["ETag"]
    assert england.get(path, HTTP_IF_NONE_MATCH=tag).status_code == 304
    england.put(f"/api/v1/games/{game.id}/orders", {"phase": "S1901M", "orders": ["F LON H"]}, format="json")
    assert england.get(path, HTTP_IF_NONE_MATCH=tag).status_code == 200
    svg = client_for().get(f"{path}/map.svg")
    assert client_for().get(f"{path}/map.svg", HTTP_IF_NONE_MATCH=svg["ETag"]).status_code == 304


def test_login_is_throttled(players, settings):
    settings.DIPSERVER_API_THROTTLES = {**settings.DIPSERVER_API_THROTTLES, "login": "3/min"}
    client = client_for()
    for _ in range(3):
        assert (
            client.post("/api/v1/accounts/token", {"username": "player0", "password": "x"}).status_code == 422
        )
    blocked = client.post(
        "/api/v1/accounts/token", {"username": "player0", "password": "a long passphrase 1"}
    )
    assert blocked.status_code == 429
    assert blocked.json()["error"]["code"] == "throttled"
    assert "Retry-After" in blocked


def test_registration_is_throttled(db, settings):
    settings.DIPSERVER_API_THROTTLES = {**settings.DIPSERVER_API_THROTTLES, "register": "1/hour"}
    client = client_for()
    assert (
        client.post(
            "/api/v1/accounts/register", {"username": "a1", "password": "correct horse 9"}
        ).status_code
        == 201
    )
    assert (
        client.post(
            "/api/v1/accounts/register", {"username": "a2", "password": "correct horse 9"}
        ).status_code
        == 429
    )


def test_writes_are_throttled_per_user_and_reads_are_not(game, settings):
    settings.DIPSERVER_API_THROTTLES = {**settings.DIPSERVER_API_THROTTLES, "writes": "2/min"}
    france = client_for(user_of(game, "FRANCE"))
    body = {"phase": "S1901M", "orders": ["A PAR H"]}
    codes = [france.put(f"/api/v1/games/{game.id}/orders", body, format="json").status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    assert france.get(f"/api/v1/games/{game.id}/orders").status_code == 200
    england = client_for(user_of(game, "ENGLAND"))
    assert (
        england.put(
            f"/api/v1/games/{game.id}/ready", {"phase": "S1901M", "ready": True}, format="json"
        ).status_code
        == 200
    )


def test_lists_are_paginated(players, master):
    for n in range(3):
        client_for(master).post("/api/v1/games", {"name": f"G{n}", "variant": "standard"})
    first = client_for().get("/api/v1/games", {"page_size": 2}).json()
    assert (first["count"], len(first["results"]), first["previous"]) == (3, 2, None)
    second = client_for().get(first["next"]).json()
    assert [g["name"] for g in second["results"]] == ["G0"]
    assert client_for().get("/api/v1/games", {"page": 9}).status_code == 404


def test_game_list_filters(players, master):
    start_game(players, master, name="Running")
    client_for(master).post("/api/v1/games", {"name": "Forming", "variant": "wall_of_ice"})
    names = lambda **q: [g["name"] for g in client_for().get("/api/v1/games", q).json()["results"]]  # noqa: E731
    assert names(status="active") == ["Running"]
    assert names(variant="wall_of_ice") == ["Forming"]
    bad = client_for().get("/api/v1/games", {"status": "sleeping"})
    assert bad.status_code == 400 and "status" in bad.json()["error"]["fields"]


def test_creating_a_game_explains_bad_settings(outsider):
    creator = client_for(outsider)
    unknown = creator.post("/api/v1/games", {"name": "X", "variant": "chess"}, format="json")
    assert "Unknown variant 'chess'" in unknown.json()["error"]["fields"]["variant"]
    option = creator.post(
        "/api/v1/games", {"name": "X", "variant": "standard", "options": {"fog": True}}, format="json"
    )
    assert (option.status_code, option.json()["error"]["code"]) == (422, "refused")
    assert "unknown option" in option.json()["error"]["message"]
    zone = creator.post(
        "/api/v1/games", {"name": "X", "variant": "standard", "deadline_zone": "Mars/Base"}, format="json"
    )
    assert zone.status_code == 422 and "time zone" in zone.json()["error"]["message"]


def test_a_secret_draw_vote_changes_only_the_voters_tag(game):
    path = f"/api/v1/games/{game.id}"
    england = client_for(user_of(game, "ENGLAND"))
    france = client_for(user_of(game, "FRANCE"))
    english, french = england.get(path)["ETag"], france.get(path)["ETag"]
    france.put(f"{path}/draw-vote", {"phase": "S1901M", "vote": True}, format="json")
    assert england.get(path, HTTP_IF_NONE_MATCH=english).status_code == 304  # nothing to infer
    assert france.get(path, HTTP_IF_NONE_MATCH=french).status_code == 200


def test_another_powers_ready_flag_or_a_replaced_player_changes_the_tag(game, outsider):
    from dipserver.games.services.powers import power_replace

    path = f"/api/v1/games/{game.id}"
    france = client_for(user_of(game, "FRANCE"))
    tag = france.get(path)["ETag"]
    client_for(user_of(game, "ENGLAND")).put(
        f"{path}/ready", {"phase": "S1901M", "ready": True}, format="json"
    )
    after_ready = france.get(path, HTTP_IF_NONE_MATCH=tag)
    assert after_ready.status_code == 200
    tag = after_ready["ETag"]
    power_replace(power_id=after_ready.json()["powers"][0]["seat"], user=outsider)
    assert france.get(path, HTTP_IF_NONE_MATCH=tag).status_code == 200
