"""Correct by construction: writes name the phase they are for, orders carry a version for If-Match, and
ETags change exactly when what that viewer can see changes (never with another power's private edits)."""

from __future__ import annotations

import pytest

from dipserver.games.models import Game, Power
from dipserver.games.services.phases import phase_process
from tests.api.conftest import client_for, user_of

pytestmark = pytest.mark.django_db


def _path(game: Game, tail: str = "") -> str:
    return f"/api/v1/games/{game.id}{tail}"


def _processed(game: Game) -> None:
    phase_process(phase_id=game.current_phase_id, force=True)
    game.refresh_from_db()


# --- phase binding ----------------------------------------------------------------------------------


def test_a_late_ready_for_a_processed_phase_is_refused_and_does_not_land_on_the_next(game):
    _processed(game)
    answer = client_for(user_of(game, "FRANCE")).put(
        _path(game, "/ready"), {"phase": "S1901M", "ready": True}, format="json"
    )
    assert (answer.status_code, answer.json()["error"]["code"]) == (409, "conflict")
    assert Power.objects.get(game=game, name="FRANCE").ready is False


def test_ready_names_the_phase_it_is_for(game):
    answer = client_for(user_of(game, "FRANCE")).put(_path(game, "/ready"), {"ready": True}, format="json")
    assert answer.status_code == 400
    assert answer.json()["error"]["fields"] == {"phase": "This field is required."}
    assert Power.objects.get(game=game, name="FRANCE").ready is False


def test_ready_for_the_open_phase_is_taken(game):
    answer = client_for(user_of(game, "FRANCE")).put(
        _path(game, "/ready"), {"phase": "s1901m", "ready": True}, format="json"
    )
    assert answer.status_code == 200
    assert Power.objects.get(game=game, name="FRANCE").ready is True


def test_a_late_draw_vote_for_a_processed_phase_is_refused(game):
    _processed(game)
    answer = client_for(user_of(game, "FRANCE")).put(
        _path(game, "/draw-vote"), {"phase": "S1901M", "vote": True}, format="json"
    )
    assert (answer.status_code, answer.json()["error"]["code"]) == (409, "conflict")
    assert Power.objects.get(game=game, name="FRANCE").draw_vote is False


def test_a_draw_vote_names_the_phase_it_is_for(game):
    answer = client_for(user_of(game, "FRANCE")).put(_path(game, "/draw-vote"), {"vote": True}, format="json")
    assert answer.status_code == 400
    assert "phase" in answer.json()["error"]["fields"]


def test_a_late_delete_of_orders_is_refused_and_keeps_the_new_phases_orders(game):
    france = client_for(user_of(game, "FRANCE"))
    _processed(game)
    put = france.put(_path(game, "/orders"), {"phase": "F1901M", "orders": ["A PAR H"]}, format="json")
    assert put.status_code == 200
    late = france.delete(_path(game, "/orders?phase=S1901M"))
    assert (late.status_code, late.json()["error"]["code"]) == (409, "conflict")
    assert [o["text"] for o in france.get(_path(game, "/orders")).json()["orders"]] == ["A PAR H"]


def test_a_delete_of_orders_names_the_phase_in_the_query_or_the_body(game):
    france = client_for(user_of(game, "FRANCE"))
    assert france.delete(_path(game, "/orders")).status_code == 400
    assert france.delete(_path(game, "/orders"), {"phase": "S1901M"}, format="json").status_code == 204


# --- optimistic concurrency on orders ---------------------------------------------------------------


def _put_orders(client, game, orders, **headers):
    return client.put(_path(game, "/orders"), {"phase": "S1901M", "orders": orders}, format="json", **headers)


def test_orders_carry_their_version_as_a_strong_etag(game):
    france = client_for(user_of(game, "FRANCE"))
    before = france.get(_path(game, "/orders"))["ETag"]
    written = _put_orders(france, game, ["A PAR H"])
    assert not before.startswith("W/") and written["ETag"] != before
    assert france.get(_path(game, "/orders"))["ETag"] == written["ETag"]


def test_a_write_with_a_stale_if_match_is_refused_with_412_and_changes_nothing(game):
    bot, browser = client_for(user_of(game, "FRANCE")), client_for(user_of(game, "FRANCE"))
    seen = browser.get(_path(game, "/orders"))["ETag"]
    assert _put_orders(bot, game, ["A PAR - BUR"]).status_code == 200
    stale = _put_orders(browser, game, ["A PAR H"], HTTP_IF_MATCH=seen)
    assert (stale.status_code, stale.json()["error"]["code"]) == (412, "precondition_failed")
    assert [o["text"] for o in bot.get(_path(game, "/orders")).json()["orders"]] == ["A PAR - BUR"]


def test_a_delete_with_a_stale_if_match_is_refused_with_412(game):
    france = client_for(user_of(game, "FRANCE"))
    seen = france.get(_path(game, "/orders"))["ETag"]
    _put_orders(france, game, ["A PAR H"])
    stale = france.delete(_path(game, "/orders?phase=S1901M"), HTTP_IF_MATCH=seen)
    assert stale.status_code == 412
    assert len(france.get(_path(game, "/orders")).json()["orders"]) == 1


def test_a_write_with_the_current_if_match_goes_through(game):
    france = client_for(user_of(game, "FRANCE"))
    first = _put_orders(france, game, ["A PAR H"])
    second = _put_orders(france, game, ["A PAR - BUR"], HTTP_IF_MATCH=first["ETag"])
    assert second.status_code == 200 and second["ETag"] != first["ETag"]


def test_a_weak_if_match_never_matches(game):
    france = client_for(user_of(game, "FRANCE"))
    current = france.get(_path(game, "/orders"))["ETag"]
    assert _put_orders(france, game, ["A PAR H"], HTTP_IF_MATCH=f"W/{current}").status_code == 412


def test_another_powers_orders_do_not_change_my_orders_version(game):
    france = client_for(user_of(game, "FRANCE"))
    seen = france.get(_path(game, "/orders"))["ETag"]
    _put_orders(client_for(user_of(game, "ENGLAND")), game, ["F LON H"])
    assert _put_orders(france, game, ["A PAR H"], HTTP_IF_MATCH=seen).status_code == 200


# --- ETags that neither leak nor go stale -----------------------------------------------------------


def test_revising_orders_already_given_changes_no_other_viewers_game_tag(game):
    england = client_for(user_of(game, "ENGLAND"))
    france = client_for(user_of(game, "FRANCE"))
    _put_orders(france, game, ["A PAR H"])
    tag = england.get(_path(game))["ETag"]
    _put_orders(france, game, ["A PAR - BUR"])
    assert england.get(_path(game), HTTP_IF_NONE_MATCH=tag).status_code == 304


def test_giving_the_first_orders_changes_everyones_game_tag_as_has_orders_is_public(game):
    england = client_for(user_of(game, "ENGLAND"))
    tag = england.get(_path(game))["ETag"]
    _put_orders(client_for(user_of(game, "FRANCE")), game, ["A PAR H"])
    changed = england.get(_path(game), HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200
    assert {p["power"]: p["has_orders"] for p in changed.json()["powers"]}["FRANCE"] is True


def test_another_powers_order_edits_change_neither_my_phase_tag_nor_the_map_tag(game):
    england = client_for(user_of(game, "ENGLAND"))
    phase, picture = _path(game, "/phases/0"), _path(game, "/phases/0/map.svg")
    phase_tag, map_tag = england.get(phase)["ETag"], client_for().get(picture)["ETag"]
    _put_orders(client_for(user_of(game, "FRANCE")), game, ["A PAR H"])
    assert england.get(phase, HTTP_IF_NONE_MATCH=phase_tag).status_code == 304
    assert client_for().get(picture, HTTP_IF_NONE_MATCH=map_tag).status_code == 304


def test_my_own_order_edits_change_my_phase_tag(game):
    france = client_for(user_of(game, "FRANCE"))
    tag = france.get(_path(game, "/phases/0"))["ETag"]
    _put_orders(france, game, ["A PAR H"])
    changed = france.get(_path(game, "/phases/0"), HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed.json()["orders"] == {"FRANCE": ["A PAR H"]}


@pytest.mark.parametrize(("field", "value"), [("grace_minutes", 30), ("end_year", 1905), ("name", "Renamed")])
def test_an_admin_edit_of_a_game_setting_changes_everyones_game_tag(game, field, value):
    england = client_for(user_of(game, "ENGLAND"))
    tag = england.get(_path(game))["ETag"]
    setattr(game, field, value)
    game.save()
    changed = england.get(_path(game), HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed.json()[field] == value


def test_an_admin_edit_of_a_game_setting_changes_the_phase_tag(game):
    england = client_for(user_of(game, "ENGLAND"))
    tag = england.get(_path(game, "/phases/0"))["ETag"]
    game.press = Game.Press.GUNBOAT
    game.save(update_fields=["press"])
    assert england.get(_path(game, "/phases/0"), HTTP_IF_NONE_MATCH=tag).status_code == 200


def test_a_game_save_limited_to_some_fields_still_bumps_its_version(game):
    before = Game.objects.get(id=game.id).version
    game.grace_minutes = 5
    game.save(update_fields=["grace_minutes"])
    assert Game.objects.get(id=game.id).version == before + 1


def test_a_conditional_get_of_unchanged_orders_is_304(game):
    france = client_for(user_of(game, "FRANCE"))
    tag = _put_orders(france, game, ["A PAR H"])["ETag"]
    assert france.get(_path(game, "/orders"), HTTP_IF_NONE_MATCH=tag).status_code == 304
    _put_orders(france, game, ["A PAR - BUR"])
    assert france.get(_path(game, "/orders"), HTTP_IF_NONE_MATCH=tag).status_code == 200


@pytest.mark.parametrize("body", ['"phase"', '["phase"]', "7"])
def test_a_delete_whose_body_is_not_an_object_is_told_to_name_the_phase(game, body):
    answer = client_for(user_of(game, "FRANCE")).generic(
        "DELETE", _path(game, "/orders"), body, content_type="application/json"
    )
    assert answer.status_code == 400 and answer.json()["error"]["fields"] == {
        "phase": "This field is required."
    }
