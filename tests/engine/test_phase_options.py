"""Every power's options at once (``phase_options``): what asking power by power gives, with each unit's
moves worked out once for them all."""

from __future__ import annotations

import pytest

from dipserver.engine.board import Board
from dipserver.engine.kinds.registry import Kind, offered, register, unregister
from dipserver.engine.modules import Modules
from dipserver.engine.modules.blizzard import BlizzardOptions
from dipserver.engine.modules.dice import Dice
from dipserver.engine.modules.phase import InPlay, ModuleState
from dipserver.engine.modules.supply import SupplyOptions
from dipserver.engine.options import legal_options, phase_options
from dipserver.engine.position import Position
from dipserver.engine.types import Phase, PhaseType, Unit, UnitType
from dipserver.engine.variant import Variant
from tests.engine.test_parse import MOVEMENT, RETREATS, WINTER

ARMY, FLEET = UnitType.ARMY, UnitType.FLEET

# Fleets of three powers at sea beside armies of their own and of others: convoys, and supports a fleet
# may not give of a move it would have to carry (DATC 6.D.31), for more than one power in one phase.
CONVOYS = Position(
    Phase.parse("F1903M"),
    {
        "NTH": Unit("ENGLAND", FLEET, "NTH"),
        "ENG": Unit("ENGLAND", FLEET, "ENG"),
        "LON": Unit("ENGLAND", ARMY, "LON"),
        "BEL": Unit("FRANCE", ARMY, "BEL"),
        "MAO": Unit("FRANCE", FLEET, "MAO"),
        "BRE": Unit("FRANCE", ARMY, "BRE"),
        "HEL": Unit("GERMANY", FLEET, "HEL"),
        "HOL": Unit("GERMANY", ARMY, "HOL"),
        "BLA": Unit("TURKEY", FLEET, "BLA"),
        "CON": Unit("TURKEY", ARMY, "CON"),
        "SEV": Unit("RUSSIA", ARMY, "SEV"),
    },
    {},
)


def each_power(board: Board, position: Position) -> dict[str, object]:
    return {power: legal_options(board, position, power) for power in board.variant.powers}


@pytest.mark.parametrize("name", ["opening", "movement", "convoys", "retreats", "winter"])
def test_every_powers_options_are_its_legal_options(standard: Variant, board: Board, name: str) -> None:
    position = {
        "opening": standard.start,
        "movement": MOVEMENT,
        "convoys": CONVOYS,
        "retreats": RETREATS,
        "winter": WINTER,
    }[name]
    assert phase_options(board, position) == each_power(board, position)


def test_a_fleet_shares_no_support_of_a_move_it_would_carry_with_another_power(board: Board) -> None:
    # The Black Sea's fleet may not back A CON - SEV (only it could carry the army): worked out for Turkey,
    # the restriction must not leak into Russia's options, whose army in Sevastopol any fleet may back.
    found = phase_options(board, CONVOYS)
    black_sea = {o.text for o in found["TURKEY"].units["BLA"]}
    assert "F BLA C A CON - SEV" in black_sea
    assert "F BLA S A CON - SEV" not in black_sea
    assert "F BLA S A SEV - ARM" in black_sea
    assert found == each_power(board, CONVOYS)


@pytest.mark.parametrize(
    "modules",
    [
        InPlay(Modules(supply=SupplyOptions())),
        InPlay(Modules(blizzards=BlizzardOptions(Dice(0, 0, 0), snow_storm_tokens=1))),
        InPlay(
            Modules(blizzards=BlizzardOptions(Dice(0, 0, 0), snow_storm_tokens=1)),
            ModuleState(blizzards=frozenset({"BUR", "NTH"})),
        ),
    ],
    ids=["supply", "storms", "blizzards"],
)
def test_rule_modules_leave_each_power_what_they_leave_it_alone(board: Board, modules: InPlay) -> None:
    asked = {power: legal_options(board, CONVOYS, power, modules=modules) for power in board.variant.powers}
    assert phase_options(board, CONVOYS, modules=modules) == asked


class _Kind(Kind):
    name = "test_offered_kind"
    order_class = type("TestOfferedOrder", (), {})
    offered_in = (PhaseType.MOVEMENT,)
    position = 99


def test_the_kinds_offered_follow_the_registry() -> None:
    before = offered(PhaseType.MOVEMENT)  # asked first: the answer is kept
    kind = register(_Kind())
    try:
        assert offered(PhaseType.MOVEMENT) == [*before, kind]
    finally:
        unregister(kind)
    assert offered(PhaseType.MOVEMENT) == before
