"""The express lane of ``adjudicate``: the common request answered without building engine values.

Tools feed the command line thousands of movement phases of the standard map with orders in the notation
``format_order`` writes. For such a request the general path (``jsonio``: read the request into ``Unit``
and ``Order`` values, ``adjudicate``, build ``OrderResult`` values, turn them back into JSON) spends most of
its time making and unmaking objects. This lane goes from the decoded JSON to the answer's JSON directly,
through per-board tables and the units' province strings, and shares the rules themselves with
``movement.py``: the same reading of each text (``readings.read_plain``), the same resolver, convoy
routes, contested provinces and retreat options.

It takes a request only when it is sure to give the general path's answer: a movement phase on a map that
never changes, with the variant's own home centres, every field well formed, every order text canonical,
legal and the only order of its unit. Anything else — a retreat or adjustment phase, a timeline variant, an
order the parser must read or reject, a mistake in the request — returns ``None`` and goes the general way,
which has every check and message. ``tests/engine/test_express_lane.py`` holds the two to the same bytes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from operator import itemgetter
from typing import Any, cast

from dipserver.adjudicator.answers import _homes_data
from dipserver.adjudicator.request import _CHANGING, REQUEST_KEYS, RequestError, _phase, _variant
from dipserver.engine.board import Board, board_for
from dipserver.engine.convoys import (
    DISRUPTED,
    NOWHERE_TO_RETREAT,
    PARADOX,
    contested_provinces,
    convoy_route,
    necessary_fleets,
    place_name,
    retreat_options,
    sea_route,
    unit_name,
)
from dipserver.engine.readings import LOC as _LOC
from dipserver.engine.readings import PROV as _PROV
from dipserver.engine.readings import TYPES as _TYPES
from dipserver.engine.readings import read_plain as _read_plain
from dipserver.engine.resolver import CONVOY, HOLD, MOVE, SUPPORT, ConvoyRoute, OrderTable, resolve
from dipserver.engine.types import OWNED, Phase, PhaseType, Season, Terrain, UnitType, province_of
from dipserver.engine.variant import Variant

# What an order text means on a board: (kind, ordered unit's province, its text, a, b, c, the order text),
# or None when the text is not the lane's. Kinds and their a, b, c:
_HOLD = 0  # -
_MOVE = 1  # destination province, the unit there ("F STP/SC"), -  (a neighbour, by land or sea)
_BY_SEA = 2  # destination province, the unit there, via convoy?  (an army that needs a convoy)
_SUPPORT_HOLD = 3  # supported province, -, -
_SUPPORT_MOVE = 4  # supported province, destination as written, destination province
_CONVOY = 5  # army's province, destination province, -
_Reading = tuple[int, str, str, Any, Any, Any, str]
# What _Lane.quick_reading says of a text it leaves to the engine's reader (compared by identity only).
_UNSURE: _Reading = cast("_Reading", ("unsure",))
_MAX_READINGS = 200_000  # canonical texts on a map are finite; the cap only guards against odd input

_SUCCESS, _BOUNCE, _CUT, _DISLODGED = "success", "bounce", "cut", "dislodged"
_VOID, _NO_CONVOY, _INVALID = "void", "no_convoy", "invalid"
_Names = tuple[str, str, str, str, bool]


class _Lane:
    """One board's tables: the unit texts that may stand on it, the readings of order texts, names."""

    __slots__ = (
        "board",
        "buildable",
        "centres",
        "home_keys",
        "home_lists",
        "homes",
        "lands",
        "named",
        "occupiable",
        "owned_rule",
        "phases",
        "power_set",
        "powers",
        "reach",
        "readings",
        "seas",
        "sites",
        "slug",
        "supportable",
        "unit_province",
        "unmatched",
    )

    def __init__(self, variant: Variant, board: Board) -> None:
        self.board = board
        self.slug = variant.slug
        self.powers = tuple(variant.powers)
        self.power_set = frozenset(self.powers)
        self.homes = _homes_data(variant, board)
        self.centres = board.supply_centres
        self.buildable = frozenset(p for p in self.centres if board.terrain(p).passable)
        self.owned_rule = variant.build_rule == OWNED
        self.seas = frozenset(p for p in board.provinces if board.is_water(p))
        # Where each power may build when it has a centre to spare, by the variant's rule (the standard
        # rule: its own vacant home centres; "owned": any vacant centre it owns).
        self.sites = {
            power: None if self.owned_rule else [p for p, home in board.homes.items() if home == power]
            for power in self.powers
        }
        # unit text -> its province: exactly the texts request.py's unit reader accepts on this board
        found = {"A " + loc: loc for loc in board.army_locations}
        found.update(("F " + loc, province_of(loc)) for loc in board.fleet_positions)
        self.unit_province = found
        # unit text -> where it can move: provinces for an army, locations for a fleet (what a support
        # of its move names)
        self.reach = {
            text: board.army_moves(text[2:]) if text[0] == "A" else board.fleet_moves(text[2:])
            for text in found
        }
        # For quick_reading: what readings.py checks, as tables of the names its pattern admits.
        loc_form, prov_form = re.compile(_LOC).fullmatch, re.compile(_PROV).fullmatch
        self.occupiable = {
            text: prov
            for text, prov in found.items()
            if loc_form(text[2:]) and board.can_occupy(_TYPES[text[0]], text[2:])
        }
        self.named = frozenset(
            loc
            for p in board.provinces
            if board.terrain(p) is not Terrain.ABSENT
            for loc in (p, *(f"{p}/{coast}" for coast in board.coasts(p)))
            if loc_form(loc)
        )
        self.lands = frozenset(p for p in board.provinces if board.is_land(p) and prov_form(p))
        # unit text -> the provinces it could move into: where it may support
        self.supportable = {
            text: board.army_moves(text[2:]) if text[0] == "A" else board.fleet_move_provinces(text[2:])
            for text in found
        }
        self.home_keys = tuple(self.homes)
        self.home_lists = tuple(self.homes.values())
        self.readings: dict[str, _Reading | None] = {}
        self.phases: dict[str, _Names] = {}
        # (supported unit's text, destination as written or None for a hold) -> a support's void result
        self.unmatched: dict[tuple[str, str | None], tuple[str, str]] = {}

    def reading(self, raw: Any) -> _Reading | None:
        if type(raw) is not str:
            return None
        reading: _Reading | None = self.quick_reading(raw)
        if reading is _UNSURE:
            reading = self._read(raw)
        if len(self.readings) < _MAX_READINGS:
            self.readings[raw] = reading
        return reading

    def quick_reading(self, text: str) -> _Reading:
        """The reading of a text in the notation ``format_order`` writes, from this board's tables: what
        ``_read`` gives, a few times quicker (a batch of positions meets thousands of texts once each).
        ``_UNSURE`` for anything else, and for any text it would not read: ``_read`` decides those."""
        parts = text.split(" ")
        count = len(parts)
        if count < 3:
            return _UNSURE
        unit = parts[0] + " " + parts[1]
        prov = self.occupiable.get(unit)
        if prov is None:
            return _UNSURE
        word = parts[2]
        if count == 3:
            return (_HOLD, prov, unit, None, None, None, text) if word == "H" else _UNSURE
        if word == "-":
            dest = parts[3]
            if count != 4 or dest not in self.reach[unit] or dest not in self.named:
                return _UNSURE  # (a move by sea: _read)
            into = dest.partition("/")[0]
            return (_MOVE, prov, unit, into, unit[:2] + dest, None, text)
        if word == "S":
            target = parts[4] if count in (5, 7) and parts[3] in _TYPES else ""
            if target not in self.named:
                return _UNSURE
            supported = target.partition("/")[0]
            reach = self.supportable[unit]
            if supported == prov:
                return _UNSURE
            if count == 5:
                if supported not in reach:
                    return _UNSURE
                return (_SUPPORT_HOLD, prov, unit, supported, None, None, text)
            dest = parts[6]
            into = dest.partition("/")[0]
            if parts[5] != "-" or dest not in self.named or into in (supported, prov) or into not in reach:
                return _UNSURE
            return (_SUPPORT_MOVE, prov, unit, supported, dest, into, text)
        if word == "C" and count == 7 and unit[0] == "F" and parts[3] == "A" and parts[5] == "-":
            army, into = parts[4], parts[6]
            if prov in self.seas and army in self.lands and into in self.lands and army != into:
                return (_CONVOY, prov, unit, army, into, None, text)
        return _UNSURE

    def _read(self, raw: str) -> _Reading | None:
        """A text's reading through the engine's canonical reader (``readings.read_plain``)."""
        order, unit_type, loc, prov, _carried = _read_plain(raw.strip(), self.board)
        if order is None or unit_type is None:
            return None
        unit = f"{unit_type.value} {loc}"
        reading: _Reading | None = None
        kind = order[0]
        if kind == "Hold":
            reading = (_HOLD, prov, unit, None, None, None, raw)
        elif kind == "Move":
            _, _, dest, via_convoy = order
            into = province_of(dest)
            if unit_type is UnitType.FLEET or (not via_convoy and dest in self.board.army_moves(prov)):
                reading = (_MOVE, prov, unit, into, unit[:2] + dest, None, raw)
            else:
                reading = (_BY_SEA, prov, unit, into, unit[:2] + into, via_convoy, raw)
        elif kind == "SupportHold":
            reading = (_SUPPORT_HOLD, prov, unit, order[2], None, None, raw)
        elif kind == "SupportMove":
            _, _, target, dest = order
            into = province_of(dest)
            if into != prov:  # never read so (a unit cannot reach its own province), but cheap to be sure
                reading = (_SUPPORT_MOVE, prov, unit, target, dest, into, raw)
        elif kind == "Convoy":
            reading = (_CONVOY, prov, unit, order[2], order[3], None, raw)
        return reading

    def name(self, loc: str) -> str:
        return place_name(self.board, loc)

    def unit_name(self, text: str) -> str:
        return unit_name(self.board, text)

    def phase_names(self, text: Any) -> _Names | None:
        """For a movement phase's name as requested: its own name, its season's retreats, the phase after
        the season (Fall or Winter), the next Spring, and whether it is Spring. ``None`` for anything else."""
        names = self.phases.get(text) if type(text) is str else None
        if names is not None:
            return names
        try:
            phase = _phase(text)
        except RequestError:
            return None
        if phase.type is not PhaseType.MOVEMENT:
            return None
        year, season = phase.year, phase.season
        after = (
            Phase(year, Season.FALL, PhaseType.MOVEMENT)
            if season is Season.SPRING
            else Phase(year, Season.WINTER, PhaseType.ADJUSTMENTS)
        )
        names = (
            str(phase),
            str(Phase(year, season, PhaseType.RETREATS)),
            str(after),
            str(Phase(year + 1, Season.SPRING, PhaseType.MOVEMENT)),
            season is Season.SPRING,
        )
        if len(self.phases) < 10_000:
            self.phases[text] = names
        return names


_LANES: dict[Variant, _Lane | None] = {}


def _lane(slug: Any) -> _Lane | None:
    try:
        variant = _variant(slug)
    except RequestError:
        return None
    lane = _LANES.get(variant, False)
    if lane is False:
        # A map that changes is turnio's business.
        lane = None if _CHANGING[variant] else _Lane(variant, board_for(variant, variant.map_state))
        _LANES[variant] = lane
    return lane  # type: ignore[return-value]


def answer(data: Any) -> dict[str, Any] | None:
    """The answer ``jsonio.adjudicate_request(data)`` gives, or ``None`` when this lane does not take the
    request (it is then answered the general way). Never raises for a bad request."""
    if type(data) is not dict or not data.keys() <= REQUEST_KEYS:
        return None
    lane = _lane(data.get("variant"))
    if lane is None:
        return None
    names = lane.phase_names(data.get("phase"))
    if names is None:
        return None
    homes = data.get("homes")
    if homes is not None and homes != lane.homes:
        return None
    dislodged = data.get("dislodged")
    if dislodged is not None and (
        type(dislodged) is not dict or not dislodged.keys() <= lane.power_set or any(dislodged.values())
    ):
        return None
    try:
        return _adjudicate(lane, names, data.get("units"), data.get("centers"), data.get("orders"))
    except (KeyError, TypeError):
        # A unit text not on this board, a list holding something other than strings: the general path
        # says what is wrong.
        return None


def _adjudicate(lane: _Lane, names: _Names, units: Any, centers: Any, orders: Any) -> dict[str, Any] | None:
    powers = lane.power_set
    board = lane.board

    # The units, in the order given: unit i stands in provs[i], belongs to owner[i] and is written texts[i].
    # The list operations run in C; a text not in the table raises KeyError (caught by ``answer``).
    if type(units) is not dict or not units.keys() <= powers:
        return None
    owner: list[str] = []
    texts: list[str] = []
    spans: list[tuple[str, int, int]] = []  # (power, its first unit, the unit after its last)
    for power, listed in units.items():
        if type(listed) is not list:
            return None
        start = len(texts)
        texts += listed
        owner += [power] * len(listed)
        spans.append((power, start, len(texts)))
    n = len(texts)
    if n < 2:
        return None  # (itemgetter of one item is not a tuple) the general path answers such odd positions
    provs: tuple[str, ...] = itemgetter(*texts)(lane.unit_province)
    index = dict(zip(provs, range(n), strict=True))
    if len(index) != n:
        return None  # two units in one province

    if type(centers) is not dict or not centers.keys() <= powers:
        return None
    centres = lane.centres
    held: list[str] = []
    holders: list[str] = []
    for power, listed in centers.items():
        if type(listed) is not list:
            return None
        held += listed
        holders += [power] * len(listed)
    if not centres.issuperset(held) or len(set(held)) != len(held):
        return None  # not a centre of this map, or a centre owned twice

    if orders is None:
        orders = {}
    elif type(orders) is not dict or not orders.keys() <= powers:
        return None

    # Step 1: each text read and checked against the units, as movement._legal_orders does (checked=True);
    # moves are indexed as they come.
    readings, reach = lane.readings, lane.reach
    kind = [HOLD] * n
    dest: list[str | None] = [None] * n
    read_of: list[Any] = [None] * n  # the reading of each unit's legal order
    # Each power's texts in the order given, every one a success until found otherwise (an illegal order
    # here, the rest in step 5); and why, where the answer says why (put in the order given at the end).
    results: dict[str, dict[str, str]] = {}
    why: dict[str, dict[str, str]] = {}
    moves: list[int] = []
    opponent = [-1] * n  # a move's head-to-head opponent
    movers_to: dict[str, list[int]] = {}
    others: list[tuple[int, _Reading]] = []  # supports and convoys, in the order given
    by_sea: set[int] = set()
    fleet_seas: frozenset[str] | None = None
    needed: dict[tuple[str, str], set[str]] = {}
    convoys: dict[tuple[str, str], list[str]] = {}  # (army's province, destination) -> the convoying fleets
    for power, listed in orders.items():
        if type(listed) is not list:
            return None
        if not listed:
            continue
        # A text given twice is reported once, where it first stood: only an illegal text can come twice
        # here (a unit's second legal order goes the general way), and it gets the same answer both times.
        mine = results[power] = dict.fromkeys(listed, _SUCCESS)
        found: Any  # the readings; None for a text not the lane's, a TypeError below: the general way
        try:  # every text read before: looked up in one C call
            found = itemgetter(*listed)(readings) if len(listed) > 1 else (readings[listed[0]],)
        except KeyError:
            found = [readings.get(raw) or lane.reading(raw) for raw in listed]
        for reading in found:
            what, prov, unit, a, b, c, raw = reading
            i = index[prov]  # no unit there: KeyError, the general way
            if texts[i] != unit or owner[i] != power or read_of[i]:
                return None  # not this power's unit as written, or a second order for it: the general way
            if what == _MOVE:
                kind[i] = MOVE
                dest[i] = a
                moves.append(i)
                if a in movers_to:
                    movers_to[a].append(i)
                else:
                    movers_to[a] = [i]
                j = index.get(a)
                if j is not None and dest[j] == prov:  # (so far only moves have a destination)
                    # Two units swapping meet on the border (unless one goes by sea: see step 2).
                    opponent[i] = j
                    opponent[j] = i
            elif what in (_SUPPORT_MOVE, _SUPPORT_HOLD):
                j = index.get(a)
                if j is None:
                    mine[raw] = _INVALID
                    _note(why, power, raw, f"There is no unit in {lane.name(a)} to support")
                    continue
                if what == _SUPPORT_MOVE:
                    them = texts[j]
                    if (c if them[0] == "A" else b) not in reach[them]:
                        if fleet_seas is None:
                            fleet_seas = lane.seas.intersection(provs)  # a unit at sea is a fleet
                        problem = _support_move_problem(lane, them, a, b, c, prov, fleet_seas)
                        if problem:
                            mine[raw] = _INVALID
                            _note(why, power, raw, problem)
                            continue
                others.append((i, reading))
            elif what == _HOLD:
                pass
            else:
                if fleet_seas is None:
                    fleet_seas = lane.seas.intersection(provs)  # a unit at sea is a fleet
                if what == _BY_SEA:
                    problem = _by_sea_problem(lane, unit, prov, a, c, fleet_seas)
                    if not problem:
                        kind[i] = MOVE
                        dest[i] = a
                        by_sea.add(i)
                        moves.append(i)
                        if a in movers_to:
                            movers_to[a].append(i)
                        else:
                            movers_to[a] = [i]
                else:  # _CONVOY
                    j = index.get(a)
                    if j is not None and texts[j][0] != "A":
                        return None  # the parser's to read (readings.movement_order leaves it)
                    problem = _convoy_problem(lane, unit, prov, a, b, j is not None, fleet_seas, needed)
                    if not problem:
                        others.append((i, reading))
                        if (a, b) in convoys:
                            convoys[a, b].append(prov)
                        else:
                            convoys[a, b] = [prov]
                if problem:
                    mine[raw] = _INVALID
                    _note(why, power, raw, problem)
                    continue
            read_of[i] = reading

    # Step 2: orders matched against each other, as movement._Phase._validate does.
    void: dict[int, tuple[str, str]] = {}
    route: list[ConvoyRoute | None] = [None] * n
    if convoys or by_sea:
        _routes(lane, provs, owner, texts, index, dest, moves, by_sea, convoys, route, void)
        # A convoyed unit passes the border by (DATC 4.A.7): it has no head-to-head opponent.
        for i in moves:
            j = opponent[i]
            if j >= 0 and (route[i] is not None or route[j] is not None):
                opponent[i] = opponent[j] = -1
    supports: list[Any] = [()] * n  # a list once a unit has a support (the resolver only reads them)
    for i, reading in others:
        what = reading[0]
        if what == _CONVOY:
            if _route_carries(route, index, provs[i], reading):
                kind[i] = CONVOY
            else:
                them = lane.unit_name(texts[index[reading[3]]])
                void[i] = (_VOID, f"{them} was not convoyed to {lane.name(reading[4])}")
            continue
        j = index[reading[3]]
        if what == _SUPPORT_MOVE:
            goes = reading[5]
            matched = kind[j] == MOVE and dest[j] == goes
            written = reading[4]
            if matched and "/" in written:
                # A coast named in a support must be the one moved to (DATC 6.B.7-9) unless the province
                # has no such coast (ignored, 4.B.6).
                named = written.partition("/")[2]
                moved = read_of[j][4].partition("/")[2]
                matched = named not in board.coasts(goes) or moved in (named, "")
        else:
            goes = None
            matched = kind[j] != MOVE
        if matched:
            kind[i] = SUPPORT
            dest[i] = goes
            if supports[j]:
                supports[j].append(i)
            else:
                supports[j] = [i]
        else:
            # Random games void a few supports every phase: each reason is written once per board.
            key = (texts[j], None if goes is None else reading[4])
            unmatched = lane.unmatched.get(key)
            if unmatched is None:
                what_for = "hold" if goes is None else f"move to {lane.name(reading[4])}"
                unmatched = (_VOID, f"{lane.unit_name(texts[j])} did not {what_for}")
                if len(lane.unmatched) < _MAX_READINGS:
                    lane.unmatched[key] = unmatched
            void[i] = unmatched

    # Step 3: the resolver.
    table = OrderTable(provs, owner, kind, dest, route, supports, index, movers_to, opponent)
    decisions = resolve(table)
    success, path, paradox = decisions.success, decisions.path, decisions.paradox

    # Steps 4 and 5, moves: where everyone ends up, and what each move did. A successful move dislodges the
    # unit at its destination unless that unit left; ``after`` takes each arrival and loses each leaver
    # whichever of the two comes first (a leaver is taken off only while the province is still its own).
    after = dict(index)  # province -> unit there now
    at = texts[:]  # each unit's text where it ends up, "" for a dislodged one
    dislodged_by: dict[int, int] = {}
    for i in moves:
        if success[i]:
            into: str = dest[i]  # type: ignore[assignment]
            j = index.get(into)
            if j is not None and not (kind[j] == MOVE and success[j]):
                dislodged_by[j] = i
                at[j] = ""
                if kind[j] == HOLD and read_of[j]:
                    results[owner[j]][read_of[j][6]] = _DISLODGED
            if after.get(provs[i]) == i:
                del after[provs[i]]
            after[into] = i
            at[i] = read_of[i][4]
        else:
            raw = read_of[i][6]
            if path[i]:
                results[owner[i]][raw] = _BOUNCE
            else:
                results[owner[i]][raw] = _NO_CONVOY
                _note(why, owner[i], raw, DISRUPTED)

    # Step 5: the answer. Each order did what its kind and decision say; a void one holds, and says why.
    for i, reading in others:
        k = kind[i]
        if k == SUPPORT:
            if not success[i]:
                results[owner[i]][reading[6]] = _CUT
        elif k == CONVOY:
            if i in paradox:
                results[owner[i]][reading[6]] = _VOID
                _note(why, owner[i], reading[6], PARADOX)
            elif not success[i]:
                results[owner[i]][reading[6]] = _DISLODGED
    for i, (outcome, reason) in void.items():
        raw = read_of[i][6]
        results[owner[i]][raw] = outcome
        _note(why, owner[i], raw, reason)
    reasons: dict[str, dict[str, str]] = {}
    if why:
        for power, listed in orders.items():
            told = why.get(power)
            if told:
                reasons[power] = {raw: told[raw] for raw in listed if raw in told}

    waiting: list[tuple[str, str, str, list[str]]] = []  # (location, power, unit, retreats): may retreat
    if dislodged_by:
        contested = contested_provinces(movers_to, after, decisions, opponent)
        for i in sorted(dislodged_by):
            m = dislodged_by[i]
            loc = texts[i][2:]
            closed = provs[m] if route[m] is None else None  # open to a retreat if the attacker came by sea
            moves_from = board.fleet_moves(loc) if texts[i][0] == "F" else None
            options = retreat_options(board, loc, moves_from, after, contested, closed)
            if options:
                waiting.append((loc, owner[i], texts[i], list(options)))
                continue
            power, text = owner[i], texts[i] + " D"
            theirs = results.get(power)
            if theirs is None:
                theirs = results[power] = {}
            if text not in theirs:
                theirs[text] = _SUCCESS
                if power in reasons:
                    reasons[power][text] = NOWHERE_TO_RETREAT
                else:
                    reasons[power] = {text: NOWHERE_TO_RETREAT}

    changed = False
    owners: dict[str, str] = {}
    if waiting:
        skipped: list[str] = []
        next_phase = names[1]
    elif names[4]:  # Spring
        skipped = [names[1]]
        next_phase = names[2]
    else:
        skipped = [names[1]]
        owners.update(zip(held, holders, strict=True))
        for prov, i in after.items():
            if prov in centres and owners.get(prov) != owner[i]:
                owners[prov] = owner[i]
                changed = True
        if _has_adjustments(lane, after, owner, owners):
            next_phase = names[2]
        else:
            skipped.append(names[2])
            next_phase = names[3]

    # Each power's units are a run of the request's units: its run with the arrivals moved on and the
    # dislodged taken off, sorted.
    now: dict[str, list[str]] = {power: [] for power in lane.powers}
    for power, start, end in spans:
        run = at[start:end]
        if dislodged_by:
            run = [unit for unit in run if unit]
        run.sort()
        now[power] = run
    if changed:
        owned: dict[str, list[str]] = {power: [] for power in lane.powers}
        for prov, power in owners.items():
            owned[power].append(prov)
        for listed in owned.values():
            listed.sort()
    else:
        owned = {power: sorted(centers.get(power, ())) for power in lane.powers}
    retreating: dict[str, list[dict[str, Any]]] = {}
    for _, power, unit, retreats in sorted(waiting):
        entry = {"unit": unit, "retreats": retreats}
        if power in retreating:
            retreating[power].append(entry)
        else:
            retreating[power] = [entry]
    return {
        "phase": names[0],
        "results": results,
        "reasons": reasons,
        "skipped": skipped,
        "next": {
            "variant": lane.slug,
            "phase": next_phase,
            "units": now,
            "centers": owned,
            "homes": dict(zip(lane.home_keys, map(list.copy, lane.home_lists), strict=True)),
            "dislodged": retreating,
        },
    }


def _note(why: dict[str, dict[str, str]], power: str, raw: str, reason: str) -> None:
    if power in why:
        why[power][raw] = reason
    else:
        why[power] = {raw: reason}


def _route_carries(
    route: list[ConvoyRoute | None], index: dict[str, int], fleet: str, reading: _Reading
) -> bool:
    """Whether the fleet in ``fleet`` lies on the route of the army its convoy order names."""
    r = route[index[reading[3]]]
    return r is not None and index[fleet] in r.links


def _routes(
    lane: _Lane,
    provs: Sequence[str],
    owner: list[str],
    texts: list[str],
    index: dict[str, int],
    dest: list[str | None],
    moves: list[int],
    by_sea: set[int],
    convoys: dict[tuple[str, str], list[str]],
    route: list[ConvoyRoute | None],
    void: dict[int, tuple[str, str]],
) -> None:
    """The convoy route of every move that goes by sea, as movement._Phase._validate finds them."""
    for i in moves:
        into: str = dest[i]  # type: ignore[assignment]
        fleets = convoys.get((provs[i], into)) if convoys else None
        # A move to a neighbour goes by sea only if a fleet of the army's own power convoys it.
        if i not in by_sea and (
            not fleets or texts[i][0] == "F" or all(owner[index[f]] != owner[i] for f in fleets)
        ):
            continue
        r = route[i] = convoy_route(lane.board, provs[i], into, fleets or [], index)
        if not r.links:
            # Still a move (it cannot receive hold support), but one that cannot arrive (DATC 6.D.8).
            void[i] = (_NO_CONVOY, f"No fleets were ordered to convoy it to {lane.name(into)}")


def _by_sea_problem(
    lane: _Lane, unit: str, here: str, into: str, via: bool, fleet_seas: frozenset[str]
) -> str:
    """Why an army cannot go to ``into`` by sea, or "" when fleets stand where they could carry it
    (movement._Phase._legal_move)."""
    board = lane.board
    if board.is_coastal(into) and sea_route(board, here, into, fleet_seas):
        return ""
    if not board.terrain(into).passable:
        return f"{lane.name(into)} cannot be entered"
    verb = "be convoyed to" if via else "reach"
    return f"{lane.unit_name(unit)} cannot {verb} {lane.name(into)}"


def _convoy_problem(
    lane: _Lane,
    unit: str,
    here: str,
    army: str,
    into: str,
    army_there: bool,
    fleet_seas: frozenset[str],
    needed: dict[tuple[str, str], set[str]],
) -> str:
    """Why the fleet in ``here`` cannot convoy the army in ``army`` to ``into``, or "" when some minimal
    route needs it (movement._Phase._legal_convoy, DATC 6.G.19)."""
    if not army_there:
        return f"There is no unit in {lane.name(army)} to convoy"
    key = (army, into)
    need = needed.get(key)
    if need is None:
        board = lane.board
        need = needed[key] = (
            necessary_fleets(board, army, into, fleet_seas) if board.is_coastal(into) else set()
        )
    if here in need:
        return ""
    return f"{lane.unit_name(unit)} is on no sea route from {lane.name(army)} to {lane.name(into)}"


def _support_move_problem(
    lane: _Lane,
    them: str,
    target: str,
    written: str,
    into: str,
    here: str,
    fleet_seas: frozenset[str],
) -> str:
    """Why the unit ``them`` (its text) could not make the move a support asks of it while the supporter in
    ``here`` gives it (DATC 6.D.31), or "" when it could; movement._Phase._legal_support_move's reasons."""
    board = lane.board
    if them[0] == "F":
        if written in board.fleet_moves(them[2:]):
            return ""
        coast = written.partition("/")[2]
        if coast and coast in board.coasts(into):
            return f"{lane.unit_name(them)} cannot reach {lane.name(written)}"
        if board.fleet_reachable_coasts(them[2:], into):
            return ""
    elif into in board.army_moves(target) or (
        board.is_coastal(into) and sea_route(board, target, into, fleet_seas - {here})
    ):
        return ""
    return f"{lane.unit_name(them)} cannot reach {lane.name(into)}"


def _has_adjustments(lane: _Lane, after: dict[str, int], owner: list[str], owners: dict[str, str]) -> bool:
    """``adjustments.has_adjustments`` on the lane's values: some power must remove a unit, or may build."""
    holders = list(owners.values())
    units = list(map(owner.__getitem__, after.values()))
    buildable = lane.buildable
    for power in lane.powers:
        centres, count = holders.count(power), units.count(power)
        if count > centres:
            return True
        if centres > count:
            sites = lane.sites[power]
            if sites is None:
                sites = [prov for prov, holder in owners.items() if holder == power]
            for prov in sites:
                if owners.get(prov) == power and prov not in after and prov in buildable:
                    return True
    return False
