"""Ruling E17 (corrected): a game ends, or a power is out, only when it is final.

A power is in play while it has a unit on the board, a dislodged unit with somewhere to retreat, or a
centre it owns on which it may build. Each case is played through ``turn.play_phase`` (the path of the
server and the command line) on Deluge, whose survivor after W1908 wins: a power left alone before then is
not yet the winner, since the rising sea may still drown it (issue 31); the last case is the issue's own
request to ``python -m dipserver.engine adjudicate``.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from dipserver.adjudicator.jsonio import adjudicate_request
from dipserver.engine.position import Position
from dipserver.engine.turn import Turn, play_phase
from dipserver.engine.types import Phase, Unit, UnitType
from dipserver.engine.variant import Variant, load_variant
from dipserver.engine.victory import powers_in_play


@pytest.fixture(scope="module")
def deluge() -> Variant:
    return load_variant("deluge")


def position(phase: str, *units: str, owners: Mapping[str, list[str]]) -> Position:
    """Units written ``"FRANCE A BRE"``; every centre not listed in ``owners`` is neutral."""
    placed = {}
    for spec in units:
        power, kind, loc = spec.split()
        unit = Unit(power, UnitType(kind), loc)
        placed[unit.province] = unit
    owned = {prov: power for power, provs in owners.items() for prov in provs}
    return Position(Phase.parse(phase), placed, owned)


def play(variant: Variant, pos: Position, orders: Mapping[str, list[str]] | None = None) -> Turn:
    return play_phase(variant, variant.map_state, pos, orders or {})


ATTACK_ON_BREST = {"ENGLAND": ["F ENG - BRE", "F MAO S F ENG - BRE"]}


def test_e17_a_power_whose_dislodged_unit_can_retreat_is_still_in_play(deluge: Variant) -> None:
    spring = position("S1901M", "FRANCE A BRE", "ENGLAND F ENG", "ENGLAND F MAO", owners={"ENGLAND": ["EDI"]})

    turn = play(deluge, spring, ATTACK_ON_BREST)

    assert str(turn.next_phase) == "S1901R"
    assert turn.outcome is None
    assert powers_in_play(deluge, turn.map_state, turn.position) == ["ENGLAND", "FRANCE"]


def test_e17_a_power_dislodged_with_nowhere_to_retreat_and_no_centre_is_out(deluge: Variant) -> None:
    spring = position(
        "S1901M",
        "FRANCE A BRE",
        *("ENGLAND F ENG", "ENGLAND F MAO", "ENGLAND A PIC", "ENGLAND A PAR", "ENGLAND A GAS"),
        owners={"ENGLAND": ["EDI"]},
    )

    turn = play(deluge, spring, ATTACK_ON_BREST)

    assert powers_in_play(deluge, turn.map_state, turn.position) == ["ENGLAND"]
    assert turn.outcome is None  # England is alone, but not yet the survivor after W1908


def test_e17_a_power_with_no_unit_but_a_centre_to_build_on_plays_its_winter(deluge: Variant) -> None:
    fall = position(
        "F1901M",
        "FRANCE A BRE",
        *("ENGLAND F ENG", "ENGLAND F MAO", "ENGLAND A PIC", "ENGLAND A PAR", "ENGLAND A GAS"),
        owners={"ENGLAND": ["EDI"], "FRANCE": ["MAR"]},
    )

    turn = play(deluge, fall, ATTACK_ON_BREST)

    assert "FRANCE" not in {u.power for u in turn.position.units.values()}
    assert str(turn.next_phase) == "W1901A"
    assert turn.outcome is None
    winter = play_phase(deluge, turn.map_state, turn.position, {"FRANCE": ["A MAR B"]})
    assert winter.outcome is None
    assert winter.position.units["MAR"] == Unit("FRANCE", UnitType.ARMY, "MAR")


def test_e17_a_centre_occupied_by_an_enemy_still_keeps_its_owner_in_play(deluge: Variant) -> None:
    """The occupier may leave before the next Winter, when the owner would build there."""
    winter = position("W1901A", "ENGLAND A MAR", owners={"ENGLAND": ["EDI"], "FRANCE": ["MAR"]})

    assert powers_in_play(deluge, deluge.map_state, winter) == ["ENGLAND", "FRANCE"]


def test_e17_survivors_are_decided_after_the_winter_adjustments(deluge: Variant) -> None:
    fall = position("F1901M", "FRANCE A BUR", "ENGLAND F NTH", owners={"ENGLAND": ["EDI"]})

    after_fall = play(deluge, fall)
    assert str(after_fall.next_phase) == "W1901A"
    assert after_fall.outcome is None  # France's army is on the board until the Winter removes it

    winter = play_phase(deluge, after_fall.map_state, after_fall.position, {})
    assert powers_in_play(deluge, winter.map_state, winter.position) == ["ENGLAND"]
    assert winter.outcome is None  # alone in 1901: the sea may still drown it


def test_e17_the_sole_survivor_wins_only_after_the_last_rivals_winter(deluge: Variant) -> None:
    """England's last centre, London, sinks after the Winter 1901 adjustments: England is out only then,
    and only if it built nothing there (a unit built in London floats on as a fleet, E7)."""
    fall = position("F1901M", "FRANCE A PAR", owners={"FRANCE": ["PAR"], "ENGLAND": ["LON"]})

    after_fall = play(deluge, fall)
    assert str(after_fall.next_phase) == "W1901A"
    assert after_fall.outcome is None

    idle = play_phase(deluge, after_fall.map_state, after_fall.position, {})
    assert powers_in_play(deluge, idle.map_state, idle.position) == ["FRANCE"]

    built = play_phase(deluge, after_fall.map_state, after_fall.position, {"ENGLAND": ["A LON B"]})
    assert powers_in_play(deluge, built.map_state, built.position) == ["ENGLAND", "FRANCE"]
    assert built.position.units["LON"] == Unit("ENGLAND", UnitType.FLEET, "LON")


def test_e17_the_issues_request_does_not_end_the_game_while_france_can_retreat() -> None:
    answer = adjudicate_request(
        {
            "variant": "deluge",
            "phase": "S1901M",
            "units": {"FRANCE": ["A BRE"], "ENGLAND": ["F ENG", "F MAO"]},
            "centers": {"FRANCE": ["BRE", "PAR", "MAR"], "ENGLAND": ["LON", "EDI", "LVP"]},
            "orders": ATTACK_ON_BREST,
        }
    )

    assert answer["outcome"] is None
    assert answer["next"]["phase"] == "S1901R"
    assert answer["next"]["dislodged"]["FRANCE"] == [{"unit": "A BRE", "retreats": ["GAS", "PAR", "PIC"]}]
