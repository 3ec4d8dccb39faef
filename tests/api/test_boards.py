"""The board as the API serves it beyond plain Diplomacy: conversion and module orders among the options,
phase pictures with the rule modules and the changes to come, the per-game timeline and geometry, and
who still has orders to give."""

from __future__ import annotations

import re

from dipserver.api import phases
from dipserver.api.phases import IMMUTABLE
from dipserver.games.changes import next_changes
from dipserver.games.models import Game, Phase
from dipserver.games.services.phases import phase_process
from tests.api.conftest import client_for, start_game, user_of

BLIZZARDS = {"blizzards": {"count": "1d6"}}


def process(game: Game) -> None:
    game.refresh_from_db()
    phase_process(phase_id=game.current_phase_id, force=True)


def options_of(game: Game, power: str) -> dict:
    answer = client_for(user_of(game, power)).get(f"/api/v1/games/{game.id}/options")
    assert answer.status_code == 200, answer.content[:300]
    return answer.json()


# --- options --------------------------------------------------------------------------------------------


def test_deluge_options_offer_army_to_fleet_conversions_the_server_accepts(players, master):
    game = start_game(players, master, variant="deluge")
    options = options_of(game, "FRANCE")
    [conversion] = options["conversions"]
    assert conversion == {
        "text": "A MAR becomes fleet",
        "kind": "convert_to_fleet",
        "unit": "MAR",
        "coast": None,
        "drawing": {
            "shape": "mark",
            "start": "MAR",
            "end": None,
            "via": None,
            "label": "ConvertToFleet",
            "dislodged": False,
            "unit": None,
            "words": "A→F",
        },
    }
    answer = client_for(user_of(game, "FRANCE")).put(
        f"/api/v1/games/{game.id}/orders",
        {"phase": "S1901M", "orders": ["A PAR H", conversion["text"]]},
        format="json",
    )
    assert answer.status_code == 200, answer.content[:300]
    assert [row["valid"] for row in answer.json()["orders"]] == [True, True]


def test_a_game_without_conversions_or_modules_lists_none(game):
    options = options_of(game, "FRANCE")
    assert options["conversions"] == [] and options["module_orders"] == []


def test_a_snowed_in_unit_is_offered_hold_only(players, master):
    game = start_game(players, master, variant="wall_of_ice", options=BLIZZARDS)
    snowed = set(game.current_phase.snapshot["modules"]["state"]["blizzards"])
    units = {u["location"]: u["power"] for u in game.current_phase.snapshot["units"]}
    inside = sorted(loc for loc in units if loc.split("/")[0] in snowed)
    outside = sorted(loc for loc in units if loc.split("/")[0] not in snowed)
    for location in inside:
        kinds = {o["kind"] for o in options_of(game, units[location])["units"][location]}
        assert kinds == {"hold"}, location
    for location in outside[:3]:
        assert len(options_of(game, units[location])["units"][location]) > 1, location


def test_supply_lines_offer_depot_orders_when_a_depot_may_be_founded(players, master):
    game = start_game(players, master, options={"supply_lines": True})
    offered = [
        o for power in ("FRANCE", "ENGLAND", "RUSSIA") for o in options_of(game, power)["module_orders"]
    ]
    for option in offered:
        assert option["kind"] == "establish_depot"
        assert re.fullmatch(r"establish depot [A-Z]{3}", option["text"]), option


# --- pictures -------------------------------------------------------------------------------------------


def test_a_blizzard_shows_on_the_map_and_the_ice_to_come_is_outlined(players, master):
    game = start_game(players, master, variant="wall_of_ice", options=BLIZZARDS)
    plain = start_game(players, master, variant="wall_of_ice", name="No snow")
    snowy = client_for().get(f"/api/v1/games/{game.id}/phases/0/map.svg").content.decode()
    clear = client_for().get(f"/api/v1/games/{plain.id}/phases/0/map.svg").content.decode()
    assert 'class="blizzard"' in snowy and 'class="blizzard"' not in clear
    assert next_changes(game, "S1901M") == []  # Wall of Ice first freezes after the Autumn 1903 retreats
    assert ("BAR", "impassable") in next_changes(game, "F1903M")


def test_a_processed_phase_picture_is_immutable_and_drawn_once(game, monkeypatch):
    real, drawn = phases.render_svg, []

    def counted(**args):
        drawn.append(args["map_state"])
        return real(**args)

    monkeypatch.setattr(phases, "render_svg", counted)
    process(game)
    url = f"/api/v1/games/{game.id}/phases/0/map.svg"
    first = client_for().get(url)
    assert first["Cache-Control"] == IMMUTABLE and first["ETag"]
    again = client_for().get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again["Cache-Control"] == IMMUTABLE
    open_phase = client_for().get(f"/api/v1/games/{game.id}/phases/1/map.svg")
    assert "immutable" not in open_phase["Cache-Control"]
    assert len(drawn) == 2
    assert client_for().get(url).content == first.content
    assert len(drawn) == 2  # served from the cache, not drawn again


def test_an_ice_lords_game_is_drawn_on_its_own_grid(players, master):
    game = start_game(players[:3], master, variant="ice_lords", powers=3)
    svg = client_for().get(f"/api/v1/games/{game.id}/phases/0/map.svg")
    assert svg.status_code == 200, svg.content[:300]
    geometry = client_for().get(f"/api/v1/games/{game.id}/geometry").json()
    assert geometry["variant"] == "ice_lords" and len(geometry["provinces"]) == 81
    assert {p["tile"] for p in geometry["provinces"].values()} >= {"village"}
    other = start_game(players[3:6], master, variant="ice_lords", powers=3, name="Another")
    tiles = client_for().get(f"/api/v1/games/{other.id}/geometry").json()["provinces"]
    assert tiles != geometry["provinces"]  # each game deals its own board
    options = options_of(game, game.powers.exclude(name="").first().name)
    assert options["units"]


def test_a_standard_game_serves_its_variants_geometry(game):
    answer = client_for().get(f"/api/v1/games/{game.id}/geometry")
    assert answer.status_code == 200 and answer.json()["variant"] == "standard"


# --- timeline -------------------------------------------------------------------------------------------


def test_the_timeline_lists_the_changes_season_by_season_with_the_blizzards_announced(players, master):
    game = start_game(players, master, variant="wall_of_ice", options=BLIZZARDS)
    answer = client_for().get(f"/api/v1/games/{game.id}/timeline").json()
    assert answer["mode"] == "exact" and answer["phase"] == "S1901M" and answer["undrawn"] == 0
    first = answer["entries"][0]
    assert first == {
        "year": 1903,
        "hook": "after_fall_retreats",
        "change": "impassable",
        "province": "BAR",
        "keep": [],
        "happened": False,
    }
    assert [e["year"] for e in answer["entries"]] == sorted(e["year"] for e in answer["entries"])
    snowed = game.current_phase.snapshot["modules"]["state"]["blizzards"]
    assert answer["blizzards"] == {"phase": "S1901M", "provinces": sorted(snowed)}


def test_a_random_timeline_never_shows_a_draw_before_it_happens(players, master, outsider):
    game = start_game(players, master, variant="wall_of_ice", options={"mode": "random"})
    exact = start_game(players, master, variant="wall_of_ice", name="Exact")
    everyone = len(client_for().get(f"/api/v1/games/{exact.id}/timeline").json()["entries"])
    for viewer in (None, outsider, user_of(game, "ENGLAND"), master):
        answer = client_for(viewer).get(f"/api/v1/games/{game.id}/timeline").json()
        assert answer["mode"] == "random"
        assert answer["entries"] == [] and answer["undrawn"] == everyone
    assert next_changes(game, "F1903M") == [] and next_changes(game, "F1910M") == []
    body = client_for().get(f"/api/v1/games/{game.id}/phases/0/map.svg").content.decode()
    assert "next-change" not in body and "Changes next" not in body

    game.status = Game.Status.FINISHED  # at the end the secret is out, and so are its draws
    game.save(update_fields=["status"])
    assert len(client_for().get(f"/api/v1/games/{game.id}/timeline").json()["entries"]) == everyone


def test_a_random_draw_is_listed_once_it_has_happened(players, master):
    game = start_game(players, master, variant="wall_of_ice", options={"mode": "random"})
    game.current_phase.name = "S1915M"  # stand-in for a game played on past every random window
    game.current_phase.save(update_fields=["name"])
    answer = client_for().get(f"/api/v1/games/{game.id}/timeline").json()
    assert answer["undrawn"] == 0 and answer["entries"]
    assert all(e["happened"] for e in answer["entries"])


def test_the_timeline_of_an_unknown_game_is_404(db):
    answer = client_for().get("/api/v1/games/999999/timeline")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"


# --- who still has orders to give ------------------------------------------------------------------------


def seats(game: Game, viewer=None) -> dict[str, dict]:
    return {p["power"]: p for p in client_for(viewer).get(f"/api/v1/games/{game.id}").json()["powers"]}


def test_game_detail_says_who_must_order_and_who_has_without_saying_what(game, outsider):
    before = seats(game)
    assert all(p["needs_orders"] and not p["has_orders"] for p in before.values())
    client = client_for(user_of(game, "FRANCE"))
    tag = client_for(outsider).get(f"/api/v1/games/{game.id}")["ETag"]
    client.put(f"/api/v1/games/{game.id}/orders", {"phase": "S1901M", "orders": ["A PAR H"]}, format="json")
    after = client_for(outsider).get(f"/api/v1/games/{game.id}", HTTP_IF_NONE_MATCH=tag)
    assert after.status_code == 200  # the tag follows has_orders
    powers = {p["power"]: p for p in after.json()["powers"]}
    assert powers["FRANCE"]["has_orders"] and not powers["ENGLAND"]["has_orders"]
    assert "A PAR" not in after.content.decode()


def test_in_a_winter_without_builds_or_disbands_nobody_needs_to_order(game):
    phase = game.current_phase
    snapshot = {**phase.snapshot, "phase": "W1901A"}
    Phase.objects.filter(id=phase.id).update(name="W1901A", snapshot=snapshot)
    assert not any(p["needs_orders"] for p in seats(game).values())


def test_a_processed_phase_picture_shows_the_results(game):
    # France and Germany both order into Burgundy: the picture shows both moves failed, and the
    # unordered units' holds are not drawn as anything that failed.
    for power, orders in {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]}.items():
        answer = client_for(user_of(game, power)).put(
            f"/api/v1/games/{game.id}/orders", {"phase": "S1901M", "orders": orders}, format="json"
        )
        assert answer.status_code == 200, answer.content[:300]
    process(game)
    svg = client_for().get(f"/api/v1/games/{game.id}/phases/0/map.svg").content.decode()
    assert len(re.findall(r'class="order move failed"', svg)) == 2
    assert 'class="order move"' not in svg


def test_the_timeline_address_has_no_trailing_slash_like_every_other(game):
    assert client_for().get(f"/api/v1/games/{game.id}/timeline").status_code == 200


def test_the_old_timeline_address_redirects_permanently_keeping_the_query(game):
    answer = client_for().get(f"/api/v1/games/{game.id}/timeline/?since=3")
    assert answer.status_code == 308
    assert answer["Location"] == f"/api/v1/games/{game.id}/timeline?since=3"


def test_a_phase_shows_the_snow_storms_played_on_its_blizzard_draw(players, master):
    game = start_game(players, master, variant="wall_of_ice", options={"blizzards": {"snow_storm_tokens": 1}})
    occupied = {u["location"][:3] for u in game.current_phase.snapshot["units"]}
    target = next(p for p in ("BUR", "PIC", "RUH", "GAS", "BOH", "TYR") if p not in occupied)
    answer = client_for(user_of(game, "FRANCE")).put(
        f"/api/v1/games/{game.id}/orders",
        {"phase": "S1901M", "orders": [f"place blizzard {target}"]},
        format="json",
    )
    assert answer.status_code == 200, answer.content[:300]
    while True:
        process(game)
        game.refresh_from_db()
        if game.current_phase.name.endswith("M"):
            break
    shown = client_for().get(f"/api/v1/games/{game.id}/phases/{game.current_phase.index}").json()["modules"]
    [storm] = shown["storms"]
    assert storm["power"] == "FRANCE" and storm["province"] == target and storm["place"] is True
    assert target in shown["blizzards"]


def test_needs_orders_counts_a_winter_conversion_as_waiting_does(players, master):
    """Wall of Ice rule 4: a Winter in which England's fleet on a coast may become an army waits for
    England, with no build or removal due; game detail says so in both places."""
    from tests.server.conftest import set_up

    game = start_game(players, master, variant="wall_of_ice")
    set_up(
        game,
        "W1901A",
        *("ENGLAND F EDI", "ENGLAND A LON", "ENGLAND A LVP", "FRANCE A PAR"),
        owners={"ENGLAND": ["EDI", "LON", "LVP"], "FRANCE": ["PAR"]},
    )
    detail = client_for().get(f"/api/v1/games/{game.id}").json()
    assert detail["waiting"] == ["ENGLAND"]
    needing = sorted(p["power"] for p in detail["powers"] if p["needs_orders"])
    assert needing == detail["waiting"]
