"""The standard board derived from geometry must equal the rulebook adjacency, location by location.

The expected tables below are facts taken from the public rulebook map, written out independently of
``variants/standard/map.toml``: if the data or the derivation drifts, these tests say where.
"""

from __future__ import annotations

import pytest

from dipserver.engine.board import Board
from dipserver.engine.types import Terrain, UnitType


def _table(text: str) -> dict[str, frozenset[str]]:
    rows = (line.split(":") for line in text.strip().splitlines())
    return {src.strip(): frozenset(dests.split()) for src, dests in rows}


# Where an army in each land province can move.
ARMY = _table(
    """
ALB: GRE SER TRI
ANK: ARM CON SMY
APU: NAP ROM VEN
ARM: ANK SEV SMY SYR
BEL: BUR HOL PIC RUH
BER: KIE MUN PRU SIL
BOH: GAL MUN SIL TYR VIE
BRE: GAS PAR PIC
BUD: GAL RUM SER TRI VIE
BUL: CON GRE RUM SER
BUR: BEL GAS MAR MUN PAR PIC RUH
CLY: EDI LVP
CON: ANK BUL SMY
DEN: KIE SWE
EDI: CLY LVP YOR
FIN: NWY STP SWE
GAL: BOH BUD RUM SIL UKR VIE WAR
GAS: BRE BUR MAR PAR SPA
GRE: ALB BUL SER
HOL: BEL KIE RUH
KIE: BER DEN HOL MUN RUH
LON: WAL YOR
LVN: MOS PRU STP WAR
LVP: CLY EDI WAL YOR
MAR: BUR GAS PIE SPA
MOS: LVN SEV STP UKR WAR
MUN: BER BOH BUR KIE RUH SIL TYR
NAF: TUN
NAP: APU ROM
NWY: FIN STP SWE
PAR: BRE BUR GAS PIC
PIC: BEL BRE BUR PAR
PIE: MAR TUS TYR VEN
POR: SPA
PRU: BER LVN SIL WAR
ROM: APU NAP TUS VEN
RUH: BEL BUR HOL KIE MUN
RUM: BUD BUL GAL SER SEV UKR
SER: ALB BUD BUL GRE RUM TRI
SEV: ARM MOS RUM UKR
SIL: BER BOH GAL MUN PRU WAR
SMY: ANK ARM CON SYR
SPA: GAS MAR POR
STP: FIN LVN MOS NWY
SWE: DEN FIN NWY
SYR: ARM SMY
TRI: ALB BUD SER TYR VEN VIE
TUN: NAF
TUS: PIE ROM VEN
TYR: BOH MUN PIE TRI VEN VIE
UKR: GAL MOS RUM SEV WAR
VEN: APU PIE ROM TRI TUS TYR
VIE: BOH BUD GAL TRI TYR
WAL: LON LVP YOR
WAR: GAL LVN MOS PRU SIL UKR
YOR: EDI LON LVP WAL
"""
)

# Where a fleet at each location (seas, coastal provinces, named coasts) can move.
FLEET = _table(
    """
ADR: ALB APU ION TRI VEN
AEG: BUL/SC CON EAS GRE ION SMY
ALB: ADR GRE ION TRI
ANK: ARM BLA CON
APU: ADR ION NAP VEN
ARM: ANK BLA SEV
BAL: BER BOT DEN KIE LVN PRU SWE
BAR: NWG NWY STP/NC
BEL: ENG HOL NTH PIC
BER: BAL KIE PRU
BLA: ANK ARM BUL/EC CON RUM SEV
BOT: BAL FIN LVN STP/SC SWE
BRE: ENG GAS MAO PIC
BUL/EC: BLA CON RUM
BUL/SC: AEG CON GRE
CLY: EDI LVP NAO NWG
CON: AEG ANK BLA BUL/EC BUL/SC SMY
DEN: BAL HEL KIE NTH SKA SWE
EAS: AEG ION SMY SYR
EDI: CLY NTH NWG YOR
ENG: BEL BRE IRI LON MAO NTH PIC WAL
FIN: BOT STP/SC SWE
GAS: BRE MAO SPA/NC
GRE: AEG ALB BUL/SC ION
HEL: DEN HOL KIE NTH
HOL: BEL HEL KIE NTH
ION: ADR AEG ALB APU EAS GRE NAP TUN TYS
IRI: ENG LVP MAO NAO WAL
KIE: BAL BER DEN HEL HOL
LON: ENG NTH WAL YOR
LVN: BAL BOT PRU STP/SC
LVP: CLY IRI NAO WAL
LYO: MAR PIE SPA/SC TUS TYS WES
MAO: BRE ENG GAS IRI NAF NAO POR SPA/NC SPA/SC WES
MAR: LYO PIE SPA/SC
NAF: MAO TUN WES
NAO: CLY IRI LVP MAO NWG
NAP: APU ION ROM TYS
NTH: BEL DEN EDI ENG HEL HOL LON NWG NWY SKA YOR
NWG: BAR CLY EDI NAO NTH NWY
NWY: BAR NTH NWG SKA STP/NC SWE
PIC: BEL BRE ENG
PIE: LYO MAR TUS
POR: MAO SPA/NC SPA/SC
PRU: BAL BER LVN
ROM: NAP TUS TYS
RUM: BLA BUL/EC SEV
SEV: ARM BLA RUM
SKA: DEN NTH NWY SWE
SMY: AEG CON EAS SYR
SPA/NC: GAS MAO POR
SPA/SC: LYO MAO MAR POR WES
STP/NC: BAR NWY
STP/SC: BOT FIN LVN
SWE: BAL BOT DEN FIN NWY SKA
SYR: EAS SMY
TRI: ADR ALB VEN
TUN: ION NAF TYS WES
TUS: LYO PIE ROM TYS
TYS: ION LYO NAP ROM TUN TUS WES
VEN: ADR APU TRI
WAL: ENG IRI LON LVP
WES: LYO MAO NAF SPA/SC TUN TYS
YOR: EDI LON NTH
"""
)


def _codes(text: str) -> frozenset[str]:
    return frozenset(text.split())


SUPPLY_CENTRES = _codes(
    "ANK BEL BER BRE BUD BUL CON DEN EDI GRE HOL KIE LON LVP MAR MOS MUN NAP NWY PAR POR ROM RUM SER "
    "SEV SMY SPA STP SWE TRI TUN VEN VIE WAR"
)
SEAS = _codes("ADR AEG BAL BAR BLA BOT EAS ENG HEL ION IRI LYO MAO NAO NTH NWG SKA TYS WES")
INLAND = _codes("BOH BUD BUR GAL MOS MUN PAR RUH SER SIL TYR UKR VIE WAR")


def test_the_board_has_75_provinces_19_seas_and_34_centres(board: Board) -> None:
    assert len(board.provinces) == 75
    assert {p for p in board.provinces if board.terrain(p) is Terrain.SEA} == SEAS
    assert board.supply_centres == SUPPLY_CENTRES


def test_coastal_and_inland_provinces(board: Board) -> None:
    land = board.provinces - SEAS
    assert {p for p in land if not board.is_coastal(p)} == INLAND
    assert len(land - INLAND) == 42


def test_named_coasts(board: Board) -> None:
    assert {p: board.coasts(p) for p in board.provinces if board.coasts(p)} == {
        "STP": ("NC", "SC"),
        "SPA": ("NC", "SC"),
        "BUL": ("EC", "SC"),
    }
    assert board.coasts("LON") == ()
    assert board.fleet_locations("STP") == ("STP/NC", "STP/SC")
    assert board.fleet_locations("MOS") == ()


@pytest.mark.parametrize("province", sorted(ARMY))
def test_army_adjacency_matches_the_rulebook(board: Board, province: str) -> None:
    assert board.army_moves(province) == ARMY[province]


@pytest.mark.parametrize("location", sorted(FLEET))
def test_fleet_adjacency_matches_the_rulebook(board: Board, location: str) -> None:
    assert board.fleet_moves(location) == FLEET[location]


def test_every_unit_location_is_covered(board: Board) -> None:
    assert board.army_locations == set(ARMY)
    assert board.fleet_positions == set(FLEET)
    assert len(ARMY) == 56 and len(FLEET) == 64


@pytest.mark.parametrize(
    ("src", "dst", "expected"),
    [
        ("STP/NC", "NWY", True),
        ("STP/SC", "NWY", False),
        ("SPA/SC", "GAS", False),
        ("GAS", "SPA/SC", False),
        ("SPA/NC", "GAS", True),
        ("BUL/EC", "CON", True),
        ("BUL/SC", "CON", True),
        ("BUL/EC", "GRE", False),
        ("KIE", "DEN", True),
        ("ROM", "VEN", False),
        ("ROM", "TUS", True),
        ("KIE", "MUN", False),
        ("MAO", "SPA", False),  # a fleet must say which coast
    ],
)
def test_fleet_moves_on_coasts(board: Board, src: str, dst: str, expected: bool) -> None:
    assert board.can_move(UnitType.FLEET, src, dst) is expected


def test_army_moves_ignore_coasts_and_water(board: Board) -> None:
    assert board.can_move(UnitType.ARMY, "GAS", "SPA")
    assert not board.can_move(UnitType.ARMY, "GAS", "SPA/NC")
    assert not board.can_move(UnitType.ARMY, "LON", "NTH")
    assert not board.can_move(UnitType.ARMY, "LON", "NWY")  # only by convoy


def test_reachable_coasts_drive_coast_inference(board: Board) -> None:
    assert board.fleet_reachable_coasts("MAO", "SPA") == ("SPA/NC", "SPA/SC")
    assert board.fleet_reachable_coasts("GAS", "SPA") == ("SPA/NC",)
    assert board.fleet_reachable_coasts("WES", "SPA") == ("SPA/SC",)
    assert board.fleet_reachable_coasts("BAR", "STP") == ("STP/NC",)
    assert board.fleet_reachable_coasts("CON", "BUL") == ("BUL/EC", "BUL/SC")
    assert board.fleet_reachable_coasts("KIE", "MUN") == ()


def test_support_reach_is_by_province(board: Board) -> None:
    # A fleet in Gascony can support into Spain: it could reach the north coast (DATC 6.B.4).
    assert board.can_reach_province(UnitType.FLEET, "GAS", "SPA")
    assert board.can_reach_province(UnitType.FLEET, "SPA/NC", "POR")
    assert not board.can_reach_province(UnitType.FLEET, "SPA/NC", "MAR")
    assert board.can_reach_province(UnitType.ARMY, "BUR", "MUN")


def test_can_occupy(board: Board) -> None:
    assert board.can_occupy(UnitType.ARMY, "PAR")
    assert not board.can_occupy(UnitType.ARMY, "NTH")
    assert not board.can_occupy(UnitType.ARMY, "STP/NC")
    assert board.can_occupy(UnitType.FLEET, "STP/NC")
    assert not board.can_occupy(UnitType.FLEET, "STP")
    assert not board.can_occupy(UnitType.FLEET, "PAR")


def test_names_for_players(board: Board) -> None:
    assert board.province_name("NAO") == "North Atlantic Ocean"
    assert board.location_name("STP/NC") == "St Petersburg (north coast)"
    assert board.homes["STP"] == "RUSSIA"
    assert len(board.homes) == 22


def test_water_neighbours_and_convoy_reach(board: Board) -> None:
    assert board.water_neighbours("SPA") == {"LYO", "MAO", "WES"}
    assert board.water_neighbours("MUN") == frozenset()
    assert board.neighbours("SWE") == {"BAL", "BOT", "DEN", "FIN", "NWY", "SKA"}
    # Through every sea, London's army could land anywhere on the open water's shores...
    assert {"NWY", "SPA", "TUN", "SMY", "STP"} <= board.convoy_destinations("LON")
    assert "SEV" not in board.convoy_destinations("LON")  # the Black Sea is not joined to the others
    assert board.convoy_destinations("PAR") == frozenset()  # inland
    # ...but through the North Sea alone only on its own shores.
    assert board.convoy_landings({"NTH"}, usable={"NTH"}) == {"BEL", "DEN", "EDI", "HOL", "LON", "NWY", "YOR"}
