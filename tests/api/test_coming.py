"""``GET .../timeline``'s ``mine``: what the coming map changes do to the viewer's own units and centres,
computed by the engine from the real variants' timelines on a set-up position."""

from __future__ import annotations

from dipserver.engine.position import Position
from dipserver.engine.timeline import hooks_between, walk
from dipserver.engine.types import Phase as EnginePhase
from dipserver.engine.types import Unit, UnitType
from dipserver.games.mappers import snapshot_from
from dipserver.games.models import Game
from dipserver.games.variants import game_variant, timeline_options
from tests.api.conftest import client_for, start_game, user_of


def set_up(game: Game, phase: str, *units: str, owners: dict[str, list[str]]) -> None:
    """The open phase becomes ``phase`` on the map the timeline has made by then, with exactly ``units``
    ("ITALY F ADR") and ``owners``."""
    variant = game_variant(game)
    target = EnginePhase.parse(phase)
    ran = set(hooks_between(variant.start.phase, target))
    map_state = variant.map_state
    for year, hook, step in walk(variant, timeline_options(game), game.secret or None):
        if (year, hook) not in ran:
            break
        map_state = step.map_state
    placed = {}
    for spec in units:
        power, kind, loc = spec.split()
        placed[loc.split("/")[0]] = Unit(power, UnitType(kind), loc)
    owned = {prov: power for power, provs in owners.items() for prov in provs}
    current = game.current_phase
    current.name = phase
    current.snapshot = snapshot_from(map_state, Position(target, placed, owned))
    current.save(update_fields=["name", "snapshot"])


def mine(game: Game, power: str | None) -> list[dict] | None:
    viewer = user_of(game, power) if power else None
    answer = client_for(viewer).get(f"/api/v1/games/{game.id}/timeline")
    assert answer.status_code == 200, answer.content[:300]
    return answer.json().get("mine")


def test_sahara_a_stranded_fleet_becomes_an_army_unless_told_to_stay_a_fleet(players, master):
    game = start_game(players, master, variant="sahara")
    set_up(game, "F1903M", "ITALY F ADR", "ITALY A ROM", "AUSTRIA F ALB", owners={"ITALY": ["ROM"]})
    rows = [r for r in mine(game, "ITALY") if r["unit"]]
    assert rows == [
        {
            "year": 1903,
            "hook": "after_fall_retreats",
            "province": "ADR",
            "change": "land",
            "kind": "converted",
            "unit": "F ADR",
            "to": "A ADR",
            "order": {"text": "F ADR stays fleet", "then": "removed"},
        }
    ]
    options = client_for(user_of(game, "ITALY")).get(f"/api/v1/games/{game.id}/options").json()
    assert "F ADR stays fleet" in [c["text"] for c in options["conversions"]]


def test_deluge_an_army_in_a_sinking_province_becomes_a_fleet(players, master):
    game = start_game(players, master, variant="deluge")
    set_up(game, "F1903M", "GERMANY A KIE", "GERMANY A MUN", owners={"GERMANY": ["KIE", "MUN"]})
    rows = [r for r in mine(game, "GERMANY") if r["unit"]]
    assert rows == [
        {
            "year": 1903,
            "hook": "after_winter_adjustments",
            "province": "KIE",
            "change": "sea",
            "kind": "converted",
            "unit": "A KIE",
            "to": "F KIE",
            "order": None,
        }
    ]


def test_wall_of_ice_a_fleet_on_a_freezing_sea_is_removed_and_a_centre_is_lost(players, master):
    game = start_game(players, master, variant="wall_of_ice")
    set_up(game, "F1903M", "RUSSIA F BAR", "ENGLAND F NTH", owners={"RUSSIA": ["NWY", "MOS"]})
    rows = mine(game, "RUSSIA")
    assert {"kind": "removed", "unit": "F BAR", "change": "impassable", "order": None} in [
        {k: r[k] for k in ("kind", "unit", "change", "order")} for r in rows
    ]
    lost = [r for r in rows if r["kind"] == "centre_lost"]
    assert [(r["province"], r["change"], r["year"], r["unit"]) for r in lost] == [
        ("NWY", "sc_loss", 1903, None)
    ]
    assert all(r["unit"] != "F NTH" for r in rows)  # England's fleet is not Russia's business


def test_spectators_get_no_mine_and_an_untouched_power_gets_an_empty_list(players, master):
    game = start_game(players, master, variant="wall_of_ice")
    set_up(game, "F1903M", "RUSSIA F BAR", "TURKEY A ANK", owners={"RUSSIA": ["NWY"]})
    assert mine(game, None) is None
    assert mine(game, "TURKEY") == []


def test_a_random_game_tells_nothing_while_a_draw_is_still_secret(players, master):
    exact = start_game(players, master, variant="wall_of_ice", name="Exact")
    game = start_game(players, master, variant="wall_of_ice", options={"mode": "random"})
    for each in (exact, game):
        set_up(each, "F1903M", "RUSSIA F BAR", owners={"RUSSIA": ["NWY"]})
    assert mine(exact, "RUSSIA")  # the same position in exact mode has rows
    assert mine(game, "RUSSIA") == []


def test_deluge_ii_an_army_in_a_sinking_province_drowns(players, master):
    game = start_game(players, master, variant="deluge", options={"drowning_armies": True})
    set_up(game, "F1903M", "GERMANY A KIE", owners={"GERMANY": ["KIE"]})
    rows = [(r["kind"], r["unit"], r["change"]) for r in mine(game, "GERMANY") if r["unit"]]
    assert rows == [("removed", "A KIE", "sea")]
