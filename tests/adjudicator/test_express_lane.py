"""The express lane (``express.answer``) held to the general path (``adjudicate_request(express=False)``).

Wherever the lane answers a request, its answer is the general path's, equal as data and byte for byte once
encoded (key order included: the command line's output must not change); where it declines (``None``), the
general path's answer or error stands, and ``adjudicate_request``'s default, which tries the lane first,
answers or fails exactly as the general path does. Positions come from seeded random games played through
the JSON contract itself, from the DATC cases, and from Hypothesis (odd positions, odd and illegal texts).
"""

from __future__ import annotations

import copy
import io
import json
import os
import random
import subprocess
import sys
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from dipserver.adjudicator import cli, codec, express
from dipserver.adjudicator.jsonio import RequestError, adjudicate_request, read_request
from dipserver.engine.board import board_for
from dipserver.engine.options import legal_options
from dipserver.engine.orders import Build
from dipserver.engine.position import Position
from dipserver.engine.types import Unit, UnitType, province_of
from dipserver.engine.variant import load_variant
from tests.adjudicator.test_cli import python

ROOT = Path(__file__).resolve().parents[2]
DATC_JSON = Path(os.environ["DATC_DIR"]) / "datc_v3_0_cases.json"
STANDARD = load_variant("standard")
BOARD = board_for(STANDARD, STANDARD.map_state)
POWERS = tuple(STANDARD.powers)
SEEDS, YEARS = 8, 20  # about 320 movement phases

# --- the comparison -------------------------------------------------------------------------------------

Outcome = dict[str, Any] | RequestError


def general(data: Any) -> Outcome:
    """The general path's answer, or its error (on a copy: the request is not the test's to lose)."""
    try:
        return adjudicate_request(copy.deepcopy(data), express=False)
    except RequestError as exc:
        return exc


def _by_default(data: Any) -> Outcome:
    try:
        return adjudicate_request(copy.deepcopy(data))
    except RequestError as exc:
        return exc


def _same(got: Outcome, want: Outcome, data: Any) -> None:
    request = json.dumps(data)
    if isinstance(want, RequestError):
        assert isinstance(got, RequestError), f"answered a request the general path refuses: {request}"
        assert str(got) == str(want), request
        return
    assert not isinstance(got, RequestError), f"refused ({got}) a request the general path answers: {request}"
    assert json.dumps(got) == json.dumps(want), request
    assert got == want, request  # lists stay lists, not tuples


def lane_agrees(data: Any, want: Outcome | None = None) -> bool:
    """Whether the lane took ``data``; fails where it answers otherwise than the general path, changes the
    request, raises, or where ``adjudicate_request``'s default differs from the general path."""
    want = general(data) if want is None else want
    before = json.dumps(data)
    got = express.answer(data)
    assert json.dumps(data) == before, "the lane changed the request it was given"
    if got is not None:
        _same(got, want, data)
    _same(_by_default(data), want, data)
    return got is not None


# --- seeded random games, played through the JSON contract ------------------------------------------------


def random_orders(data: dict[str, Any], rng: random.Random) -> dict[str, list[str]]:
    """Random legal orders, in canonical notation, for the units of a request, the power order and each
    power's order of texts shuffled (the answer keeps them as given)."""
    position = read_request(data).position
    if position.phase.type.value == "M":
        picked = _movement_orders(position.units, rng)
    else:  # retreats and adjustments have few options: the engine's own list of them is quick
        picked = _other_orders(position, rng)
    texts: dict[str, list[str]] = {}
    for power, text in picked:
        texts.setdefault(power, []).append(text)
    for listed in texts.values():
        rng.shuffle(listed)
    powers = list(texts)
    rng.shuffle(powers)
    return {power: texts[power] for power in powers}


def _movement_orders(units: Mapping[str, Unit], rng: random.Random) -> list[tuple[str, str]]:
    """Half the units move (some by convoy, VIA), some hold, the rest support or convoy a move or support
    a unit in place, mostly what another unit was ordered to do: so that the resolver meets real contests,
    dislodgements and convoys, not only void supports."""

    def name(unit: Unit) -> str:
        return f"{unit.type.value} {unit.location}"

    fleet_seas = frozenset(p for p, u in units.items() if u.type is UnitType.FLEET and BOARD.is_water(p))

    def by_sea(prov: str, seas: frozenset[str]) -> frozenset[str]:
        """Where an army in ``prov`` can go by convoy through the fleets in ``seas`` (options.py's rule)."""
        return BOARD.convoy_landings(BOARD.water_neighbours(prov) & seas, seas) - {prov}

    moves: dict[str, tuple[str, bool]] = {}  # province -> (destination, by convoy)
    staying: list[str] = []
    for prov, unit in units.items():
        roll = rng.random()
        if unit.type is UnitType.ARMY:
            land, sea = sorted(BOARD.army_moves(prov)), sorted(by_sea(prov, fleet_seas))
        else:
            land, sea = sorted(BOARD.fleet_moves(unit.location)), []
        if roll < 0.5 and land:
            moves[prov] = (rng.choice(land), False)
        elif roll < 0.6 and sea:
            moves[prov] = (rng.choice(sea), True)
        else:
            staying.append(prov)
    picked = [
        (units[prov].power, f"{name(units[prov])} - {dest}" + (" VIA" if via else ""))
        for prov, (dest, via) in moves.items()
    ]
    for prov in staying:
        unit = units[prov]
        me = name(unit)
        # A fleet cannot both carry a convoyed move and support it.
        others = fleet_seas - {prov}
        helping = [
            f"{me} S {name(units[other])} - {province_of(dest)}"
            for other, (dest, via) in moves.items()
            if other != prov
            and province_of(dest) != prov
            and BOARD.can_reach_province(unit.type, unit.location, province_of(dest))
            and (not via or dest in by_sea(other, others))
        ]
        if prov in fleet_seas:
            reach = BOARD.convoy_landings({prov}, fleet_seas)
            helping += [
                f"{me} C A {other} - {dest}"
                for other, (dest, _) in moves.items()
                if units[other].type is UnitType.ARMY and other in reach and dest in reach
            ]
        holding = [
            f"{me} S {name(units[other])}"
            for other in units
            if other != prov and BOARD.can_reach_province(unit.type, unit.location, other)
        ]
        roll = rng.random()
        if helping and roll < 0.7:
            picked.append((unit.power, rng.choice(helping)))
        elif holding and roll < 0.85:
            picked.append((unit.power, rng.choice(holding)))
        else:
            picked.append((unit.power, f"{me} H"))
    return picked


def _other_orders(position: Position, rng: random.Random) -> list[tuple[str, str]]:
    """A retreat or disband for each dislodged unit; in Winter the disbands due and random builds."""
    picked: dict[str, tuple[str, str]] = {}  # unit or build site -> (power, text)
    for power in POWERS:
        opts = legal_options(BOARD, position, power)
        if position.phase.type.value == "R":
            for loc, options in opts.units.items():
                picked[loc] = (power, rng.choice(options).text)
            continue
        if opts.adjustment < 0:
            for loc in rng.sample(sorted(opts.units), -opts.adjustment):
                picked[loc] = (power, opts.units[loc][0].text)
        builds = [(o.text, o.order.location) for o in opts.builds if isinstance(o.order, Build)]
        rng.shuffle(builds)
        for text, location in builds[: max(opts.adjustment, 0)]:
            picked.setdefault(province_of(location), (power, text))
    return list(picked.values())


Played = tuple[tuple[dict[str, Any], dict[str, Any]], ...]


@cache
def games() -> Played:
    """Every phase of seeded random games, orders included, with the general path's answer: each phase
    is the previous answer's ``next`` with new orders, as a tool would play."""
    played = []
    for seed in range(SEEDS):
        rng = random.Random(seed)
        data = _start()
        while int(data["phase"][1:-1]) < 1901 + YEARS:
            data["orders"] = random_orders(data, rng)
            answer = answered(data)
            played.append((data, answer))
            data = copy.deepcopy(answer["next"])
    return tuple(played)


def _start() -> dict[str, Any]:
    start = STANDARD.start
    units: dict[str, list[str]] = {power: [] for power in POWERS}
    for unit in start.units.values():
        units[unit.power].append(f"{unit.type.value} {unit.location}")
    centres: dict[str, list[str]] = {power: [] for power in POWERS}
    for prov, owner in start.owners.items():
        centres[owner].append(prov)
    return {"variant": "standard", "phase": str(start.phase), "units": units, "centers": centres}


def answered(data: dict[str, Any]) -> dict[str, Any]:
    """The general path's answer to a request it must answer."""
    answer = general(data)
    assert not isinstance(answer, RequestError), (answer, data)
    return answer


def _movement(played: Played) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return [(data, answer) for data, answer in played if data["phase"].endswith("M")]


def test_the_lane_answers_95_percent_of_random_game_movement_phases_as_the_general_path_does() -> None:
    played = games()
    movement = _movement(played)
    assert len(movement) >= 300
    taken = sum(lane_agrees(data, answer) for data, answer in movement)
    assert taken >= 0.95 * len(movement), f"the lane took {taken} of {len(movement)} movement phases"


def test_the_random_games_reach_retreats_skipped_winters_and_adjustments() -> None:
    """So that the comparison above meets every way a movement phase can end."""
    answers = [answer for _, answer in _movement(games())]
    ends = {answer["next"]["phase"][0] + answer["next"]["phase"][-1] for answer in answers}
    assert {"FM", "SR", "FR", "WA", "SM"} <= ends
    assert any("W" in " ".join(a["skipped"]) for a in answers)
    assert any(
        "nowhere to retreat" in why for a in answers for r in a["reasons"].values() for why in r.values()
    )
    convoyed = [t for a in answers for r in a["results"].values() for t, got in r.items() if got == "success"]
    assert any(t.endswith(" VIA") for t in convoyed)


def test_the_lane_declines_or_agrees_on_retreat_and_adjustment_phases_of_random_games() -> None:
    others = [(data, answer) for data, answer in games() if not data["phase"].endswith("M")]
    assert len(others) >= 50
    for data, answer in others:
        lane_agrees(data, answer)


# --- the DATC ---------------------------------------------------------------------------------------------


@cache
def datc_cases() -> list[dict[str, Any]]:
    return list(json.loads(DATC_JSON.read_text())["cases"])


def _datc_request(case: dict[str, Any], phase: str) -> dict[str, Any]:
    pre = case["prestate"]
    units: dict[str, list[str]] = {}
    for row in pre["units"]:
        units.setdefault(row["power"].upper(), []).append(f"{row['type']} {row['loc']}")
    return {
        "variant": "standard",
        "phase": phase,
        "units": units,
        "centers": {power.upper(): owned for power, owned in pre["sc_owners"].items()},
        "orders": {power.upper(): texts for power, texts in case["orders_mila"].items()},
    }


def test_the_lane_agrees_on_every_datc_movement_case_in_spring_and_in_fall() -> None:
    movement = [case for case in datc_cases() if case["prestate"]["phase"] == "M"]
    assert len(movement) == 145
    for case in movement:
        for phase in ("S1901M", "F1901M"):
            data = _datc_request(case, phase)
            answer = answered(data)
            lane_agrees(data, answer)
            if answer["next"]["phase"].endswith("R") and case.get("retreat_orders_mila"):
                retreat = {
                    **answer["next"],
                    "orders": {p.upper(): t for p, t in case["retreat_orders_mila"].items()},
                }
                lane_agrees(retreat)


def test_the_lane_declines_or_agrees_on_the_datc_adjustment_cases() -> None:
    adjustments = [case for case in datc_cases() if case["prestate"]["phase"] == "A"]
    assert adjustments
    for case in adjustments:
        lane_agrees(_datc_request(case, "W1901A"))


# --- Hypothesis: odd positions, odd texts ------------------------------------------------------------------

PLACES = [(UnitType.ARMY, loc) for loc in sorted(BOARD.army_locations)]
PLACES += [(UnitType.FLEET, loc) for loc in sorted(BOARD.fleet_positions)]
LOCATIONS = sorted({loc for _, loc in PLACES} | set(BOARD.provinces))
CENTRES = sorted(BOARD.supply_centres)
SPACES = (" ", "  ", "\t", "\n", " \n", "\r\n", "\u00a0")
# Texts the parser reads or refuses, never the lane's canonical ones ({u}: the unit, {d}: anywhere).
ODD = (
    "{u} HOLD",
    "{u}",
    "{u} -",
    "{u}-{d}",
    "{u} -> {d}",
    "{u} - {d} via",
    "{u}  - {d}",
    "{u} R {d}",
    "{u} D",
    "{u} B",
    "{u} S {d}",
    "{u} C {d}",
    "{l} - {d}",
    "{u} - {d} - {d}",
    "{u} - {d} VIA VIA",
    "{u} S A {d} - {d} VIA",
    "{u} C F {d} - {d}",
    "{u} H H",
    "WAIVE",
    "",
    "army {l} holds",
)


@st.composite
def movement_requests(draw: st.DrawFn) -> dict[str, Any]:
    """A random position (units of random powers where they may stand, random centres) in Spring or Fall,
    with random texts: legal canonical orders that make contests and dislodgements (the random games'
    generator), then, as much as the drawn noise says, illegal ones (wrong neighbour or unit type, no such
    unit, a convoy off every route, a support of oneself), orders for other powers' units, repeated and
    conflicting orders, texts padded with white space or in other notations. Hypothesis draws the shape
    (how many units, how much noise, which optional fields and how written), a seed the details."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    units: dict[str, Unit] = {}
    for unit_type, loc in rng.sample(PLACES, draw(st.integers(1, 40))):
        units.setdefault(province_of(loc), Unit(rng.choice(POWERS), unit_type, loc))
    season = draw(st.sampled_from("SF"))
    data: dict[str, Any] = {"variant": "standard", "phase": f"{season}{rng.randint(1901, 1930)}M"}
    listed = draw(st.booleans())  # powers without units or centres listed with [] or left out
    data["units"] = _shuffled(
        rng, [(u.power, f"{u.type.value} {u.location}") for u in units.values()], POWERS if listed else ()
    )
    data["centers"] = _centres(
        draw(st.sampled_from(("random", "one each", "homes", "none"))), units, rng, listed
    )
    homes = draw(st.sampled_from(("absent", "default", "null")))
    if homes != "absent":
        data["homes"] = None if homes == "null" else _homes()
    dislodged = draw(st.sampled_from(("absent", "empty", "empty list", "null")))
    if dislodged != "absent":
        data["dislodged"] = {"empty": {}, "empty list": {rng.choice(POWERS): []}, "null": None}[dislodged]
    noise = draw(st.sampled_from((0.0, 0.0, 0.02, 0.1, 0.4)))  # the share of orders made odd
    orders = []
    for power, text in _movement_orders(units, rng):
        unit = units[province_of(text.split()[1])]
        if rng.random() < noise:
            text = _odd_text(rng, units, unit)
        if rng.random() < noise / 2:
            power = rng.choice(POWERS)  # someone else's unit
        if rng.random() < noise / 2:
            text = rng.choice(SPACES) + text + rng.choice(("", *SPACES))
        if rng.random() < 0.1:
            continue  # unordered: it holds
        orders.append((power, text))
        if rng.random() < noise / 4:
            orders.append((power, text))  # the same text twice
        if rng.random() < noise / 4:
            orders.append((power, _odd_text(rng, units, unit)))  # a second order for the unit
        if rng.random() < noise / 4:
            orders.append((rng.choice(POWERS), text))  # the same text from another power
    if rng.random() < noise:
        unit_type, loc = rng.choice(PLACES)  # an order for a unit that may not be there
        orders.append((rng.choice(POWERS), f"{unit_type.value} {loc} H"))
    absent, listed = draw(st.booleans()), draw(st.booleans())
    if orders or not absent:
        data["orders"] = _shuffled(rng, orders, POWERS if listed else ())
    return data


def _shuffled(
    rng: random.Random, pairs: list[tuple[str, str]], listed: tuple[str, ...]
) -> dict[str, list[str]]:
    """``{power: [text, ...]}`` in a random power order, ``listed`` powers present even without texts."""
    table: dict[str, list[str]] = {p: [] for p in listed}
    for power, text in pairs:
        table.setdefault(power, []).append(text)
    powers = list(table)
    rng.shuffle(powers)
    return {p: table[p] for p in powers}


def _centres(mode: str, units: dict[str, Unit], rng: random.Random, listed: bool) -> dict[str, list[str]]:
    """Random owners; or a centre for each unit, so that a Fall may end with nobody to adjust; or the home
    centres and those the units stand on, so that builds are due and sites free or taken; or none."""
    owners: dict[str, str] = {}
    if mode == "random":
        for prov in rng.sample(CENTRES, rng.randint(0, 34)):
            owners[prov] = rng.choice(POWERS)
    elif mode == "one each":
        free = [c for c in CENTRES if c not in units]
        rng.shuffle(free)
        for prov, unit in units.items():
            if prov in BOARD.supply_centres:
                owners[prov] = unit.power
            elif free:
                owners[free.pop()] = unit.power
    elif mode == "homes":
        owners = dict(BOARD.homes)
        owners.update((prov, unit.power) for prov, unit in units.items() if prov in BOARD.supply_centres)
    return _shuffled(rng, [(power, prov) for prov, power in owners.items()], POWERS if listed else ())


def _homes() -> dict[str, list[str]]:
    table: dict[str, list[str]] = {p: [] for p in POWERS}
    for prov, power in BOARD.homes.items():
        table[power].append(prov)
    return {p: sorted(c) for p, c in table.items()}


def _odd_text(rng: random.Random, units: dict[str, Unit], unit: Unit) -> str:
    """An order for ``unit`` that is probably illegal, or canonical but odd, or not canonical at all."""
    kind, loc, prov = unit.type.value, unit.location, unit.province
    if rng.random() < 0.1:
        kind = "F" if kind == "A" else "A"  # the wrong unit type
    if rng.random() < 0.1:
        # The coast left out, or the other coast, or a unit that is not there.
        loc = rng.choice([prov, *BOARD.fleet_locations(prov)] if loc != prov else LOCATIONS)
    me, anywhere = f"{kind} {loc}", rng.choice(LOCATIONS)
    other = rng.choice(list(units.values()))
    them = f"{other.type.value} {other.location}"
    choice = rng.randrange(8)
    if choice == 0:
        return f"{me} - {anywhere}" + rng.choice(("", " VIA"))
    if choice == 1:
        near = sorted(BOARD.army_moves(prov) if kind == "A" else BOARD.fleet_moves(loc)) or [anywhere]
        return f"{me} - {rng.choice(near)} VIA"  # a convoy asked for to a neighbour, perhaps by a fleet
    if choice == 2:
        return f"{me} S {rng.choice((them, me, 'A ' + anywhere))}"
    if choice == 3:
        return f"{me} S {them} - {rng.choice((anywhere, province_of(anywhere), other.province))}"
    if choice == 4:
        return f"{me} C A {other.province} - {province_of(anywhere)}"
    if choice == 5:
        return f"{me} - {prov}"
    text = rng.choice(ODD).format(u=me, l=loc, d=anywhere)
    return text.lower() if rng.random() < 0.2 else text


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=movement_requests())
def test_the_lane_never_crashes_and_agrees_on_random_positions_and_texts(data: dict[str, Any]) -> None:
    answer = general(data)
    took = lane_agrees(data, answer)
    event("lane took it" if took else "lane declined")
    if isinstance(answer, RequestError):
        event("error: " + str(answer)[:40])
        return
    nxt = answer["next"]
    event("next " + nxt["phase"][0] + nxt["phase"][-1])
    event("skipped " + " ".join(p[0] for p in answer["skipped"]))
    if any("nowhere to retreat" in why for r in answer["reasons"].values() for why in r.values()):
        event("a unit dislodged with nowhere to go")
    if nxt["phase"].endswith("R"):
        # The retreat phase that follows, with an order for each dislodged unit: not the lane's to take.
        nxt["orders"] = {
            power: [
                f"{d['unit']} R {d['retreats'][0]}" if d["retreats"] else f"{d['unit']} D" for d in entries
            ]
            for power, entries in nxt["dislodged"].items()
        }
        lane_agrees(nxt)


def test_the_lane_answers_afresh_sharing_nothing_with_the_request_or_its_tables() -> None:
    """A tool may change an answer's ``next`` (add orders, move units) and send it back, or change its
    request after sending it: no later answer may feel either."""
    data, want = _movement(games())[5]
    data = copy.deepcopy(data)
    first = express.answer(data)
    assert first is not None
    for power in POWERS:
        data["units"].get(power, []).clear()
        data["orders"].get(power, []).clear()
    assert first == want
    for field in ("units", "centers", "homes"):
        for listed in first["next"][field].values():
            listed.append("X")
    first["results"].clear()
    first["next"]["dislodged"]["ENGLAND"] = []
    data, want = _movement(games())[5]
    assert express.answer(data) == want


# --- request shapes ---------------------------------------------------------------------------------------

OPENING = {
    "AUSTRIA": ["A VIE - GAL", "A BUD - SER", "F TRI - ALB"],
    "ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
    "FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"],
    "GERMANY": ["A BER - KIE", "A MUN - RUH", "F KIE - DEN"],
    "ITALY": ["A VEN H", "A ROM - APU", "F NAP - ION"],
    "RUSSIA": ["A WAR - UKR", "A MOS - SEV", "F SEV - BLA", "F STP/SC - BOT"],
    "TURKEY": ["F ANK - BLA", "A CON - BUL", "A SMY - ARM"],
}


def _base(**changes: Any) -> dict[str, Any]:
    """The opening position with every power's usual first orders, changed as told (``None`` removes)."""
    data = {**_start(), "orders": copy.deepcopy(OPENING)}
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return data


def _with(field: str, power: str, value: Any) -> dict[str, Any]:
    data = _base()
    data[field] = {**data.get(field, {}), power: value}
    return data


_HOMES = _homes()
SHAPES: dict[str, Any] = {
    "as a tool sends it": _base(),
    "homes equal to the default": _base(homes=_HOMES),
    "homes equal to the default, powers and lists in another order": _base(
        homes={p: sorted(c, reverse=True) for p, c in reversed(list(_HOMES.items()))}
    ),
    "homes null": {**_base(), "homes": None},
    "homes {}": _base(homes={}),
    "homes different": _base(homes={**_HOMES, "ENGLAND": ["BEL", "EDI", "LON", "LVP"]}),
    "homes moved from one power to another": _base(
        homes={**_HOMES, "ENGLAND": ["EDI", "LON"], "FRANCE": ["BRE", "LVP", "MAR", "PAR"]}
    ),
    "homes without a power": _base(homes={p: c for p, c in _HOMES.items() if p != "RUSSIA"}),
    "homes of an unknown power": _base(homes={**_HOMES, "SPAIN": ["MAD"]}),
    "homes naming a non-centre": _base(homes={**_HOMES, "ENGLAND": ["EDI", "LON", "YOR"]}),
    "homes naming a centre twice": _base(homes={**_HOMES, "ENGLAND": ["EDI", "LON", "LVP", "PAR"]}),
    "homes a list": _base(homes=["LON"]),
    "homes of a power not a list": _base(homes={**_HOMES, "ENGLAND": "LON"}),
    "dislodged {}": _base(dislodged={}),
    'dislodged {"ENGLAND": []}': _base(dislodged={"ENGLAND": []}),
    "dislodged null": {**_base(), "dislodged": None},
    "dislodged of a power {}, null, 0 or false": _base(
        dislodged={"ENGLAND": {}, "FRANCE": None, "ITALY": 0, "RUSSIA": False}
    ),
    "dislodged of a power a string": _base(dislodged={"ENGLAND": "A LON"}),
    "dislodged units in a movement phase": _base(dislodged={"ENGLAND": [{"unit": "A WAL", "retreats": []}]}),
    "dislodged a list": _base(dislodged=[]),
    "an unknown key": {**_base(), "comment": "hello"},
    "a timeline key on a map that never changes": {**_base(), "map": {}},
    "an unknown power's units": _with("units", "SPAIN", ["A MAD"]),
    "an unknown power's centres": _with("centers", "SPAIN", ["POR"]),
    "an unknown power's orders": _with("orders", "SPAIN", ["A MAD H"]),
    "a lower-case power": _with("orders", "england", ["F LON H"]),
    "a unit in no province": _with("units", "ENGLAND", ["F LON", "F EDI", "A XYZ"]),
    "a unit in lower case": _with("units", "ENGLAND", ["F LON", "F EDI", "a lvp"]),
    "a unit with two spaces": _with("units", "ENGLAND", ["F LON", "F EDI", "A  LVP"]),
    "a unit text padded": _with("units", "ENGLAND", ["F LON", "F EDI", " A LVP"]),
    "an army at sea": _with("units", "ENGLAND", ["F LON", "F EDI", "A NTH"]),
    "an army on a coast": _with("units", "ENGLAND", ["F LON", "F EDI", "A SPA/NC"]),
    "a fleet inland": _with("units", "ENGLAND", ["F LON", "F EDI", "F MUN"]),
    "a fleet without its coast": _with("units", "RUSSIA", ["A WAR", "A MOS", "F SEV", "F STP"]),
    "a fleet on a coast that is not there": _with("units", "RUSSIA", ["A WAR", "A MOS", "F SEV", "F STP/EC"]),
    "a unit that is a number": _with("units", "ENGLAND", ["F LON", "F EDI", 7]),
    "a unit that is null": _with("units", "ENGLAND", ["F LON", "F EDI", None]),
    "units of a power not a list": _with("units", "ENGLAND", "F LON"),
    "units null for a power": _with("units", "ENGLAND", None),
    "units a list": _base(units=["F LON"]),
    "units missing": _base(units=None),
    "no units at all": _base(units={}, orders={}),
    "a unit listed twice": _with("units", "ENGLAND", ["F LON", "F EDI", "A LVP", "A LVP"]),
    "two units in one province, two powers": _with("units", "FRANCE", ["A PAR", "A MAR", "F BRE", "F LVP"]),
    "two units in one province, two coasts": _with(
        "units", "RUSSIA", ["A WAR", "A MOS", "F SEV", "F STP/SC", "F STP/NC"]
    ),
    "a centre listed twice": _with("centers", "ENGLAND", ["EDI", "LON", "LVP", "LON"]),
    "a centre of two powers": _with("centers", "FRANCE", ["BRE", "MAR", "PAR", "LON"]),
    "a centre that is not one": _with("centers", "ENGLAND", ["EDI", "LON", "LVP", "YOR"]),
    "a centre in lower case": _with("centers", "ENGLAND", ["EDI", "LON", "lvp"]),
    "centres of a power not a list": _with("centers", "ENGLAND", {"LON": True}),
    "centers missing": _base(centers=None),
    "centers a string": _base(centers="LON"),
    "orders of a power a string": _with("orders", "ENGLAND", "F LON - NTH"),
    "orders of a power an object": _with("orders", "ENGLAND", {"F LON": "NTH"}),
    "orders of a power null": _with("orders", "ENGLAND", None),
    "an order that is a number": _with("orders", "ENGLAND", ["F LON - NTH", 3]),
    "an order that is a list": _with("orders", "ENGLAND", [["F LON - NTH"]]),
    "an order that is true": _with("orders", "ENGLAND", [True]),
    "orders a list": _base(orders=["F LON - NTH"]),
    "orders a string": _base(orders="F LON - NTH"),
    "orders null": {**_base(), "orders": None},
    "orders missing": _base(orders=None),
    "orders {}": _base(orders={}),
    "orders of a power []": _with("orders", "ENGLAND", []),
    "orders of a power without units": _base(orders={"ENGLAND": ["F LON - NTH"]}, units={"ENGLAND": []}),
    "phase in lower case": _base(phase="s1901m"),
    "phase padded": _base(phase=" S1901M "),
    "phase a retreat phase": _base(phase="S1901R"),
    "phase an adjustment phase": _base(phase="W1901A", orders={}),
    "phase adjustments out of Winter": _base(phase="F1901A"),
    "phase without its type": _base(phase="S1901"),
    "phase a number": _base(phase=1901),
    "phase missing": _base(phase=None),
    "phase of a far year": _base(phase="F9999M"),
    "phase of an early year, zeros before": _base(phase="F0999M"),
    "variant missing": _base(variant=None),
    "variant empty": _base(variant=""),
    "variant unknown": _base(variant="nope"),
    "variant in capitals": _base(variant="STANDARD"),
    "variant a number": _base(variant=1),
    "variant a list": _base(variant=["standard"]),
    "variant an object": _base(variant={"standard": True}),
    "phase a list": _base(phase=["S1901M"]),
    "homes a string": _base(homes="default"),
    "variant a path": _base(variant="../variants/standard"),
    "variant whose map changes": _base(variant="wall_of_ice"),
    "a list, not an object": [_base()],
    "a string, not an object": "standard",
    "null, not an object": None,
    "a number, not an object": 1901,
}


@pytest.mark.parametrize("data", SHAPES.values(), ids=SHAPES.keys())
def test_the_lane_declines_or_agrees_and_errors_stay_as_they_were_whatever_the_request_shape(
    data: Any,
) -> None:
    lane_agrees(data)


# --- the command line -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("workers", "source"), [(1, "pipe"), (2, "pipe"), (1, "file"), (2, "file")])
def test_the_command_line_writes_the_general_paths_answers_byte_for_byte(
    workers: int, source: str, tmp_path: Path
) -> None:
    """``adjudicate --jsonl`` over every phase of the random games (retreats and adjustments among them)
    and some bad requests: its output is the general path's answers, each encoded as the command line
    encodes them, one line each, in order; from a pipe (each answer flushed as it is done) and from a file
    (answers written in large pieces, the stream unbuffered as PYTHONUNBUFFERED leaves it)."""
    pairs: list[tuple[Any, Outcome]] = list(games())
    odd = [SHAPES[name] for name in ("homes different", "a unit listed twice", "variant whose map changes")]
    odd += [SHAPES[name] for name in ("an unknown key", "orders of a power a string", "phase padded")]
    for i, data in enumerate(odd):
        pairs.insert(7 + 50 * i, (data, general(data)))
    requests = [data for data, _ in pairs]
    assert len(requests) >= 300
    want = [
        codec._encode({"error": str(answer)} if isinstance(answer, RequestError) else answer) + b"\n"
        for _, answer in pairs
    ]
    lines = "".join(json.dumps(r) + "\n" for r in requests).encode()
    argv = ("-m", "dipserver.adjudicator", "adjudicate", "--jsonl", "--workers", str(workers))
    if source == "pipe":
        done = python(*argv, stdin=lines)
    else:
        path = tmp_path / "requests.jsonl"
        path.write_bytes(lines)
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
        with path.open("rb") as stdin:
            done = subprocess.run(
                [sys.executable, *argv], stdin=stdin, capture_output=True, cwd=ROOT, env=env, timeout=120
            )
        assert done.returncode == 0
    assert done.stderr == b""
    got = done.stdout.splitlines(keepends=True)
    assert len(got) == len(want)
    differ = [i for i, (line, expected) in enumerate(zip(got, want, strict=True)) if line != expected]
    assert not differ, f"{len(differ)} lines differ, the first for {json.dumps(requests[differ[0]])}"


def test_a_line_the_lane_fails_on_is_answered_by_the_general_path_and_the_batch_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The lane declines what it does not take and never raises; were it to, the batch's line loop must
    still answer that line (the general way) and go on to the next."""
    data, want = _movement(games())[3]
    calls = 0

    def failing(request: Any) -> None:
        nonlocal calls
        calls += 1
        raise RuntimeError("a bug in the lane")

    monkeypatch.setattr(express, "answer", failing)
    lines = (json.dumps(data) + "\n" + json.dumps(data) + "\n").encode()
    out = io.StringIO()
    assert cli.main(["adjudicate", "--jsonl"], io.BytesIO(lines), out) == 0
    assert calls == 2
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert answers == [want, want]
