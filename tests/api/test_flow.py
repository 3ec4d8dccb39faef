"""The API as a client uses it: register, log in, create and join a game, order, read the result."""

from __future__ import annotations

import pytest

from dipserver.games.models import Game, Phase
from tests.api.conftest import client_for, user_of

pytestmark = pytest.mark.django_db


def test_register_then_log_in_with_a_token_then_ask_who_i_am():
    anonymous = client_for()
    made = anonymous.post("/api/v1/accounts/register", {"username": "newbie", "password": "correct horse 9"})
    assert made.status_code == 201, made.json()
    got = anonymous.post("/api/v1/accounts/token", {"username": "newbie", "password": "correct horse 9"})
    assert got.status_code == 200
    # Each sign-in makes a token of its own (only hashes are stored); the one from registering still works.
    for token in (made.json()["token"], got.json()["token"]):
        anonymous.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        me = anonymous.get("/api/v1/accounts/me").json()
        assert (me["username"], me["is_admin"]) == ("newbie", False)


def test_a_weak_password_or_a_taken_name_is_refused_with_the_field_named(players):
    weak = client_for().post("/api/v1/accounts/register", {"username": "x1", "password": "123"})
    assert weak.status_code == 400
    assert "password" in weak.json()["error"]["fields"]
    taken = client_for().post(
        "/api/v1/accounts/register", {"username": "PLAYER0", "password": "correct horse 9"}
    )
    assert taken.status_code == 400
    assert taken.json()["error"]["fields"]["username"] == "That username is taken."


def test_a_wrong_password_gets_a_clear_refusal(players):
    answer = client_for().post("/api/v1/accounts/token", {"username": "player0", "password": "nope"})
    assert answer.status_code == 422
    assert answer.json()["error"] == {
        "code": "bad_credentials",
        "message": "Wrong username or password.",
        "fields": {},
    }


def test_create_join_and_start_a_game(players, outsider):
    creator = client_for(outsider)
    made = creator.post("/api/v1/games", {"name": "Open", "variant": "standard"}, format="json")
    assert made.status_code == 201, made.json()
    game_id = made.json()["id"]
    assert made.json()["me"]["is_master"] is True

    listed = client_for().get("/api/v1/games", {"open": "true"}).json()
    assert [g["id"] for g in listed["results"]] == [game_id]

    for user in players:
        assert client_for(user).post(f"/api/v1/games/{game_id}/join", {}, format="json").status_code == 200
    detail = client_for(players[0]).get(f"/api/v1/games/{game_id}").json()
    assert detail["status"] == "active"
    assert detail["current_phase"]["name"] == "S1901M"
    assert detail["me"]["power"] in {p["power"] for p in detail["powers"]}
    assert client_for().get("/api/v1/games", {"open": "true"}).json()["results"] == []
    mine = client_for(players[3]).get("/api/v1/games", {"mine": "true"}).json()
    assert [g["id"] for g in mine["results"]] == [game_id]


def test_leave_before_the_start_and_not_after(players, outsider, master):
    game_id = client_for(master).post("/api/v1/games", {"name": "G", "variant": "standard"}).json()["id"]
    client_for(outsider).post(f"/api/v1/games/{game_id}/join")
    assert client_for(outsider).post(f"/api/v1/games/{game_id}/leave").status_code == 204
    assert client_for(outsider).post(f"/api/v1/games/{game_id}/leave").status_code == 403


def test_orders_are_validated_one_by_one_and_the_valid_ones_stored(game):
    france = client_for(user_of(game, "FRANCE"))
    sent = france.put(
        f"/api/v1/games/{game.id}/orders",
        {"phase": "S1901M", "orders": ["A PAR - BUR", "A MUN - RUH", "F BRE - XYZ"]},
        format="json",
    )
    assert sent.status_code == 422
    body = sent.json()
    assert body["error"]["code"] == "invalid_orders"
    assert [o["valid"] for o in body["error"]["orders"]] == [True, False, False]
    assert set(body["error"]["fields"]["orders"]) == {"1", "2"}
    assert all(o["reason"] for o in body["error"]["orders"][1:])

    stored = france.get(f"/api/v1/games/{game.id}/orders").json()
    assert stored == {
        "phase": "S1901M",
        "orders": [
            {
                "text": "A PAR - BUR",
                "valid": True,
                "normalised": "A PAR - BUR",
                "reason": None,
                "drawing": {
                    "shape": "arrow",
                    "start": "PAR",
                    "end": "BUR",
                    "via": None,
                    "label": "move",
                    "dislodged": False,
                    "unit": None,
                    "words": None,
                },
            }
        ],
    }

    good = france.put(
        f"/api/v1/games/{game.id}/orders", {"phase": "S1901M", "orders": ["A Paris - Picardy"]}, format="json"
    )
    assert good.status_code == 200
    assert good.json()["orders"][0]["normalised"] == "A PAR - PIC"

    assert france.delete(f"/api/v1/games/{game.id}/orders?phase=S1901M").status_code == 204
    assert france.get(f"/api/v1/games/{game.id}/orders").json()["orders"] == []


def test_orders_for_a_closed_phase_get_409_with_the_phase_named(game):
    france = client_for(user_of(game, "FRANCE"))
    late = france.put(
        f"/api/v1/games/{game.id}/orders", {"phase": "F1900M", "orders": ["A PAR H"]}, format="json"
    )
    assert late.status_code == 409
    assert late.json()["error"]["message"] == "Orders for F1900M are no longer taken: the game is in S1901M."

    Game.objects.filter(id=game.id).update(status=Game.Status.PAUSED)
    paused = france.put(
        f"/api/v1/games/{game.id}/orders", {"phase": "S1901M", "orders": ["A PAR H"]}, format="json"
    )
    assert paused.status_code == 409
    assert "paused" in paused.json()["error"]["message"]


def test_options_are_orders_the_server_accepts(game):
    england = client_for(user_of(game, "ENGLAND"))
    options = england.get(f"/api/v1/games/{game.id}/options").json()
    assert set(options["units"]) == {"EDI", "LON", "LVP"}
    texts = [o["text"] for o in options["units"]["LON"]]
    assert "F LON - ENG" in texts
    chosen = [opts[-1]["text"] for opts in options["units"].values()]
    sent = england.put(
        f"/api/v1/games/{game.id}/orders", {"phase": "S1901M", "orders": chosen}, format="json"
    )
    assert sent.status_code == 200, sent.json()


def test_everyone_ready_processes_the_phase_and_the_results_show_every_power(
    game, django_capture_on_commit_callbacks
):
    for power in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"):
        client = client_for(user_of(game, power))
        if power == "FRANCE":
            client.put(
                f"/api/v1/games/{game.id}/orders",
                {"phase": "S1901M", "orders": ["A PAR - BUR"]},
                format="json",
            )
        with django_capture_on_commit_callbacks(execute=True):  # processing is queued on commit
            answer = client.put(
                f"/api/v1/games/{game.id}/ready", {"phase": "S1901M", "ready": True}, format="json"
            )
        assert answer.status_code == 200
    assert answer.json() == {"ready": True, "phase_due": True}
    assert Phase.objects.get(game=game, index=0).status == Phase.Status.PROCESSED

    phase = client_for().get(f"/api/v1/games/{game.id}/phases/0").json()
    assert phase["orders"] == {"FRANCE": ["A PAR - BUR"]}
    assert phase["results"][0]["outcome"] == "success"
    listed = client_for().get(f"/api/v1/games/{game.id}/phases").json()
    assert [p["name"] for p in listed["results"]] == ["S1901M", "F1901M"]


def test_variants_list_and_detail_with_timeline_and_geometry():
    listed = client_for().get("/api/v1/variants").json()
    slugs = [v["slug"] for v in listed]
    assert {"standard", "wall_of_ice", "deluge", "sahara"} <= set(slugs)
    ice = client_for().get("/api/v1/variants/wall_of_ice").json()
    assert {p["name"] for p in ice["powers"]} == {
        "AUSTRIA",
        "ENGLAND",
        "FRANCE",
        "GERMANY",
        "ITALY",
        "RUSSIA",
        "TURKEY",
    }
    assert ice["timeline"] and {"year", "hook", "change", "province"} == set(ice["timeline"][0])
    assert ice["geometry"]["provinces"]["LON"]
    assert client_for().get("/api/v1/variants/nowhere").status_code == 404


def test_phase_maps_are_drawn(game):
    svg = client_for().get(f"/api/v1/games/{game.id}/phases/0/map.svg")
    assert svg.status_code == 200 and svg["Content-Type"] == "image/svg+xml"
    assert b"<svg" in svg.content
    png = client_for().get(f"/api/v1/games/{game.id}/phases/0/map.png", {"width": "300"})
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
    assert client_for().get(f"/api/v1/games/{game.id}/phases/0/map.png", {"width": "9"}).status_code == 400
