"""The order parser: what players may type, what it means, and why an impossible order is refused."""

from __future__ import annotations

import pytest

from dipserver.engine.board import Board
from dipserver.engine.dislodged import Dislodged
from dipserver.engine.lateorders import Build, Disband, Retreat, Waive
from dipserver.engine.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove
from dipserver.engine.parse import OrderError, owned_centres, parse_order, parse_orders
from dipserver.engine.position import Position
from dipserver.engine.types import Phase, Unit, UnitType


def make_position(
    phase: str, units: str, owners: dict[str, str] | None = None, **dislodged: Dislodged
) -> Position:
    """``units`` as lines of ``POWER A LOC``."""
    placed = {}
    for line in units.strip().splitlines():
        power, kind, loc = line.split()
        unit = Unit(power, UnitType(kind), loc)
        placed[unit.province] = unit
    return Position(Phase.parse(phase), placed, owners or {}, dislodged)


MOVEMENT = make_position(
    "S1902M",
    """
    ENGLAND A LON
    ENGLAND F NTH
    ENGLAND F EDI
    ENGLAND A LVP
    FRANCE A PAR
    FRANCE F MAO
    FRANCE A MAR
    FRANCE F GAS
    GERMANY A MUN
    GERMANY A BER
    GERMANY F KIE
    GERMANY A SIL
    RUSSIA F STP/NC
    RUSSIA A RUM
    RUSSIA F SEV
    ITALY F ROM
    ITALY A VEN
    ITALY F ION
    TURKEY F CON
    TURKEY A BUL
    AUSTRIA A SER
    """,
)


def parse(board: Board, power: str, text: str, position: Position = MOVEMENT) -> Order:
    return parse_order(text, board, position, power)


def refusal(board: Board, power: str, text: str, position: Position = MOVEMENT) -> str:
    with pytest.raises(OrderError) as err:
        parse_order(text, board, position, power)
    return err.value.reason


# --- movement: notation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("power", "text", "expected"),
    [
        ("ENGLAND", "A LON - NWY VIA", Move("LON", "NWY", via_convoy=True)),
        ("ENGLAND", "A LON-NWY via convoy", Move("LON", "NWY", via_convoy=True)),
        ("ENGLAND", "a lon -> nwy by convoy", Move("LON", "NWY", via_convoy=True)),
        ("ENGLAND", "A LON - NWY", Move("LON", "NWY")),  # a convoy is implied; legal, may fail
        ("ENGLAND", "Army London move to Yorkshire", Move("LON", "YOR")),
        ("ENGLAND", "LON - YOR", Move("LON", "YOR")),  # unit type optional
        ("ENGLAND", "F NTH C A LON - NWY", Convoy("NTH", "LON", "NWY")),
        ("ENGLAND", "North Sea convoys London to Norway", Convoy("NTH", "LON", "NWY")),
        ("FRANCE", "A PAR - BUR", Move("PAR", "BUR")),
        ("FRANCE", "a par - bur", Move("PAR", "BUR")),
        ("GERMANY", "A MUN S A PAR - BUR", SupportMove("MUN", "PAR", "BUR")),
        ("GERMANY", "Army Munich supports army Paris to Burgundy", SupportMove("MUN", "PAR", "BUR")),
        ("GERMANY", "A MUN S A BER", SupportHold("MUN", "BER")),
        ("GERMANY", "A MUN S BER", SupportHold("MUN", "BER")),
        ("GERMANY", "A MUN supports Berlin holds", SupportHold("MUN", "BER")),
        ("RUSSIA", "A RUM H", Hold("RUM")),
        ("RUSSIA", "A RUM holds", Hold("RUM")),
        ("RUSSIA", "Rumania", Hold("RUM")),
        ("RUSSIA", "F STP/NC - NWY", Move("STP/NC", "NWY")),
        ("RUSSIA", "F STP(nc) - BAR", Move("STP/NC", "BAR")),
        ("RUSSIA", "F stp nc - bar", Move("STP/NC", "BAR")),
        ("RUSSIA", "F St Petersburg north coast - Barents Sea", Move("STP/NC", "BAR")),
        ("RUSSIA", "F Saint Petersburg (north coast) -> BAR", Move("STP/NC", "BAR")),
        ("RUSSIA", "F St. Petersburg - Norway", Move("STP/NC", "NWY")),
        ("FRANCE", "F MAO - SPA/NC", Move("MAO", "SPA/NC")),
        ("FRANCE", "F MAO - SPA(sc)", Move("MAO", "SPA/SC")),
        ("FRANCE", "F MAO - spa nc", Move("MAO", "SPA/NC")),
        ("FRANCE", "F Mid-Atlantic Ocean - Spain south coast", Move("MAO", "SPA/SC")),
        ("FRANCE", "F MAO - SPA / n", Move("MAO", "SPA/NC")),
        ("FRANCE", "F GAS - SPA", Move("GAS", "SPA/NC")),  # the only coast a fleet in Gascony reaches
        ("FRANCE", "F MAT - NAT", Move("MAO", "NAO")),
        ("FRANCE", "F MAO - WMS", Move("MAO", "WES")),
        ("FRANCE", "F GAS S F MAO - SPA/NC", SupportMove("GAS", "MAO", "SPA/NC")),  # DATC 6.B.4
        ("FRANCE", "F GAS S F MAO - SPA", SupportMove("GAS", "MAO", "SPA")),
        ("ITALY", "F ION - EMS", Move("ION", "EAS")),
        ("ITALY", "F ION - Eastern Mediterranean", Move("ION", "EAS")),
        ("ENGLAND", "F NTH - NRG", Move("NTH", "NWG")),
        ("ENGLAND", "F NTH - ECH", Move("NTH", "ENG")),
        ("ENGLAND", "F NTH - Heligoland Bight", Move("NTH", "HEL")),
        ("TURKEY", "F CON - BUL/EC", Move("CON", "BUL/EC")),
        ("TURKEY", "F CON - BUL (south coast)", Move("CON", "BUL/SC")),
        ("ITALY", "A VEN - TUN", Move("VEN", "TUN")),
        ("ENGLAND", "A LON \u2192 BEL", Move("LON", "BEL")),
        ("ENGLAND", "England: A LON - BEL", Move("LON", "BEL")),
        ("ENGLAND", "A LON - BEL, via convoy", Move("LON", "BEL", via_convoy=True)),
        ("ENGLAND", "A LON - BEL ?", Move("LON", "BEL")),
        # Coasts with no purpose are ignored rather than refused (DATC 6.B.10, 6.B.12).
        ("FRANCE", "A MAR - SPA/NC", Move("MAR", "SPA")),
        ("RUSSIA", "F STP/SC - NWY", Move("STP/NC", "NWY")),
    ],
)
def test_movement_orders(board: Board, power: str, text: str, expected: Order) -> None:
    assert parse(board, power, text) == expected


@pytest.mark.parametrize(
    ("power", "text", "expected"),
    [
        # Support of a unit that is not there, or of an empty province, is legal but void (DATC).
        ("GERMANY", "A MUN S A BOH - TYR", SupportMove("MUN", "BOH", "TYR")),
        ("GERMANY", "A MUN S BUR", SupportHold("MUN", "BUR")),
        # A convoy of an army that is not there is kept; the adjudicator finds nothing to carry.
        ("ENGLAND", "F NTH C A YOR - NWY", Convoy("NTH", "YOR", "NWY")),
        # An army may name a distant coast if seas link them; whether fleets carry it is for later.
        ("ENGLAND", "A LVP - SPA", Move("LVP", "SPA")),
        # Support of a foreign unit, and of a move into one's own unit, are both legal.
        ("GERMANY", "A SIL S A MUN - BER", SupportMove("SIL", "MUN", "BER")),
    ],
)
def test_legal_orders_that_may_fail_are_kept(board: Board, power: str, text: str, expected: Order) -> None:
    assert parse(board, power, text) == expected


# --- movement: refusals ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("power", "text", "reason"),
    [
        ("FRANCE", "A BUR - PAR", "There is no unit in Burgundy"),
        ("GERMANY", "A PAR - BUR", "The army in Paris belongs to France"),
        ("GERMANY", "F KIE - MUN", "A fleet in Kiel cannot reach Munich"),
        ("ENGLAND", "A LVP - IRI", "An army in Liverpool cannot reach Irish Sea"),
        ("FRANCE", "F MAO - SPA", "Say which coast of Spain the fleet goes to: SPA/NC or SPA/SC"),
        ("FRANCE", "F GAS - SPA/SC", "A fleet in Gascony cannot reach Spain (south coast)"),
        ("FRANCE", "F MAO - SPA/EC", "Spain has no EC coast"),
        ("ENGLAND", "F NTH - LON/NC", "London has no NC coast"),
        (
            "ENGLAND",
            "F EDI C A LON - NWY",
            "Only a fleet at sea can convoy; the fleet in Edinburgh is not at sea",
        ),
        ("ENGLAND", "F NTH C F EDI - NWY", "Only armies can be convoyed"),
        ("ENGLAND", "F NTH C EDI - NWY", "Only armies can be convoyed"),
        ("ENGLAND", "F NTH C A LON - NTH", "A convoy carries an army from one land province to another"),
        ("ENGLAND", "F NTH C A LON", "A convoy names the army and where it goes"),
        ("ENGLAND", "F NTH - NWY VIA", "Only armies travel by convoy"),
        ("ITALY", "F ROM - VEN", "A fleet in Rome cannot reach Venice"),
        ("ITALY", "F ROM S A VEN - APU", "The fleet in Rome cannot support a move to Apulia"),
        ("GERMANY", "A MUN S A PAR", "The army in Munich cannot support Paris"),
        ("GERMANY", "A MUN S A MUN", "The army in Munich cannot support itself"),
        ("FRANCE", "A PAR - PAR", "The army in Paris cannot move to where it already is"),
        ("ENGLAND", "A LON - LON VIA", "The army in London cannot move to where it already is"),
        (
            "AUSTRIA",
            "A SER - MOS",
            "An army in Serbia cannot reach Moscow: it is not adjacent and no convoy route",
        ),
        ("FRANCE", "A PAR - LON", "An army in Paris cannot reach London"),
        ("FRANCE", "F MAO - NTH", "A fleet in Mid-Atlantic Ocean cannot reach North Sea"),
        ("FRANCE", "F PAR - BUR", "The unit in Paris is an army, not a fleet"),
        # The ordered unit's wrong coast is ignored, so this is the north-coast fleet's move (DATC 6.B.11).
        ("RUSSIA", "F STP/SC - BOT", "A fleet in St Petersburg (north coast) cannot reach Gulf of Bothnia"),
        ("FRANCE", "A MAR R SPA", "This is a movement phase: retreat orders come later"),
        ("FRANCE", "A PAR D", "This is a movement phase: disband orders come later"),
        ("FRANCE", "A PAR - Atlantis", "'atlantis' is not a place or an order word I know"),
        ("FRANCE", "A PAR BUR", "Did not understand the end of 'A PAR BUR'"),
        ("FRANCE", "A PAR -", "Expected where the unit goes"),
        ("FRANCE", "", "Empty order"),
        ("FRANCE", "England: A LON H", "These are orders for England, not France"),
        ("FRANCE", "Prussia: A PAR H", "'Prussia' is not a power in this game"),
        ("PRUSSIA", "A PAR H", "PRUSSIA is not a power in this game"),
        ("FRANCE", "A PAR * BUR", "'*' is not a place or an order word I know"),
    ],
)
def test_impossible_movement_orders_are_refused(board: Board, power: str, text: str, reason: str) -> None:
    assert refusal(board, power, text).startswith(reason)


# --- retreats ----------------------------------------------------------------------------------------

RETREATS = make_position(
    "F1902R",
    """
    GERMANY A BUR
    ENGLAND F MAO
    FRANCE A PAR
    """,
    BUR=Dislodged(Unit("FRANCE", UnitType.ARMY, "BUR"), "MUN", ("GAS", "MAR", "PIC")),
    MAO=Dislodged(Unit("FRANCE", UnitType.FLEET, "MAO"), "ENG", ("SPA/NC", "SPA/SC", "WES")),
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A BUR R PIC", Retreat("BUR", "PIC")),
        ("A BUR - MAR", Retreat("BUR", "MAR")),
        ("Army Burgundy retreats to Gascony", Retreat("BUR", "GAS")),
        ("A BUR D", Disband("BUR")),
        ("disband A BUR", Disband("BUR")),
        ("F MAO R SPA/NC", Retreat("MAO", "SPA/NC")),
        ("F MAO retreat Western Mediterranean", Retreat("MAO", "WES")),
    ],
)
def test_retreat_orders(board: Board, text: str, expected: Order) -> None:
    assert parse(board, "FRANCE", text, RETREATS) == expected


@pytest.mark.parametrize(
    ("power", "text", "reason"),
    [
        (
            "FRANCE",
            "A BUR R PAR",
            "The army in Burgundy cannot retreat to Paris; it may retreat to Gascony, ",
        ),
        ("FRANCE", "F MAO R SPA", "Say which coast of Spain: SPA/NC or SPA/SC"),
        ("FRANCE", "A PAR R PIC", "There is no dislodged unit in Paris"),
        ("GERMANY", "A BUR R PIC", "The army in Burgundy belongs to France"),
        ("FRANCE", "A BUR H", "This is a retreat phase"),
        ("FRANCE", "A BUR S A PAR", "This is a retreat phase"),
    ],
)
def test_impossible_retreats_are_refused(board: Board, power: str, text: str, reason: str) -> None:
    assert refusal(board, power, text, RETREATS).startswith(reason)


# --- adjustments -------------------------------------------------------------------------------------

OWNERS = {
    **dict.fromkeys(("BRE", "MAR", "PAR", "SPA", "POR"), "FRANCE"),
    **dict.fromkeys(("STP", "MOS", "SEV", "WAR", "RUM", "SWE"), "RUSSIA"),
    **dict.fromkeys(("BER", "KIE"), "GERMANY"),
    **dict.fromkeys(("LON", "EDI", "LVP"), "ENGLAND"),
}
WINTER = make_position(
    "W1902A",
    """
    FRANCE A PAR
    FRANCE A SPA
    RUSSIA F SWE
    RUSSIA A RUM
    GERMANY A MUN
    GERMANY A BER
    GERMANY A HOL
    ENGLAND F LON
    ENGLAND F NTH
    ENGLAND A YOR
    """,
    OWNERS,
)


@pytest.mark.parametrize(
    ("power", "text", "expected"),
    [
        ("FRANCE", "A MAR B", Build("FRANCE", UnitType.ARMY, "MAR")),
        ("FRANCE", "BUILD F BRE", Build("FRANCE", UnitType.FLEET, "BRE")),
        ("FRANCE", "build army marseilles", Build("FRANCE", UnitType.ARMY, "MAR")),
        ("FRANCE", "F MAR B", Build("FRANCE", UnitType.FLEET, "MAR")),
        ("FRANCE", "WAIVE", Waive("FRANCE")),
        ("RUSSIA", "F STP/NC B", Build("RUSSIA", UnitType.FLEET, "STP/NC")),
        ("RUSSIA", "BUILD F STP/NC", Build("RUSSIA", UnitType.FLEET, "STP/NC")),
        ("RUSSIA", "build fleet St Petersburg (south coast)", Build("RUSSIA", UnitType.FLEET, "STP/SC")),
        ("RUSSIA", "A STP B", Build("RUSSIA", UnitType.ARMY, "STP")),
        ("RUSSIA", "A MOS B", Build("RUSSIA", UnitType.ARMY, "MOS")),
        ("GERMANY", "A HOL D", Disband("HOL")),
        ("GERMANY", "disband A HOL", Disband("HOL")),
        ("GERMANY", "remove army Holland", Disband("HOL")),
    ],
)
def test_adjustment_orders(board: Board, power: str, text: str, expected: Order) -> None:
    assert parse(board, power, text, WINTER) == expected


@pytest.mark.parametrize(
    ("power", "text", "reason"),
    [
        ("FRANCE", "A PAR B", "Paris is occupied"),
        ("FRANCE", "A POR B", "France may not build in Portugal: it is not one of its home centres"),
        ("FRANCE", "A BUR B", "Burgundy is not a supply centre"),
        ("FRANCE", "A MUN B", "Munich is not owned by France"),
        ("RUSSIA", "F MOS B", "A fleet cannot be built in Moscow: it does not touch open sea"),
        ("RUSSIA", "F STP B", "Say which coast of St Petersburg to build the fleet on: NC or SC"),
        ("RUSSIA", "A STP/NC B", "An army is built in a province, not on a coast: say STP"),
        ("RUSSIA", "STP B", "Say what to build in St Petersburg: an army (A) or a fleet (F)"),
        ("ENGLAND", "A LVP B", "England has no builds this winter"),
        ("FRANCE", "A PAR D", "France has no units to disband this winter"),
        ("FRANCE", "A PAR - BUR", "This is an adjustment phase: build, disband or waive"),
        ("GERMANY", "A PAR D", "The army in Paris belongs to France"),
    ],
)
def test_impossible_adjustments_are_refused(board: Board, power: str, text: str, reason: str) -> None:
    assert refusal(board, power, text, WINTER).startswith(reason)


def test_build_rule_is_pluggable(board: Board) -> None:
    order = parse_order("A POR B", board, WINTER, "FRANCE", build_rule=owned_centres)
    assert order == Build("FRANCE", UnitType.ARMY, "POR")


# --- whole order sets --------------------------------------------------------------------------------


def test_parse_orders_reports_each_line(board: Board) -> None:
    text = "A PAR - BUR\n\n# France's spring\nF MAO - SPA\nA PAR H\nF GAS - SPA\nA MAR S A PAR - BUR\n"
    results = parse_orders(text, board, MOVEMENT, "france")
    assert [(r.number, r.ok) for r in results] == [(1, True), (4, False), (5, False), (6, True), (7, True)]
    assert results[1].error == "Say which coast of Spain the fleet goes to: SPA/NC or SPA/SC"
    assert results[2].error == "Paris already has an order on line 1"
    assert results[3].order == Move("GAS", "SPA/NC")


def test_parse_orders_limits_builds_and_disbands(board: Board) -> None:
    builds = parse_orders(["A MAR B", "F MAR B", "F BRE B", "A POR B", "WAIVE"], board, WINTER, "FRANCE")
    assert [r.ok for r in builds] == [True, False, True, False, True]
    assert builds[1].error == "Marseilles already has an order on line 1"
    disbands = parse_orders(["A HOL D", "A MUN D"], board, WINTER, "GERMANY")
    assert [r.error for r in disbands] == [None, "Only 1 disband is due this winter"]
    russia = parse_orders(["A STP B", "A MOS B", "A SEV B", "A WAR B", "F SEV B"], board, WINTER, "RUSSIA")
    assert [r.error for r in russia][-1] == "Sevastopol already has an order on line 3"
