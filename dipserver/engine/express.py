"""The express lane of ``adjudicate``: the common request answered without building engine values.

Tools feed the command line thousands of movement phases of the standard map with orders in the notation
``format_order`` writes. For such a request the general path (``jsonio``: read the request into ``Unit``
and ``Order`` values, ``adjudicate``, build ``OrderResult`` values, turn them back into JSON) spends most of
its time making and unmaking objects. This lane goes from the decoded JSON to the answer's JSON directly,
through per-board tables and the units' province strings, and shares the rules themselves with
``movement.py``: the same reading of each text (``jsonio._read_canonical``), the same resolver, convoy
routes, contested provinces and retreat options.

It takes a request only when it is sure to give the general path's answer: a movement phase on a map that
never changes, with the variant's own home centres, every field well formed, every order text canonical,
legal and the only order of its unit. Anything else — a retreat or adjustment phase, a timeline variant, an
order the parser must read or reject, a mistake in the request — returns ``None`` and goes the general way,
which has every check and message. ``tests/engine/test_express_lane.py`` holds the two to the same bytes.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from dipserver.engine.adjustments import OWNED
from dipserver.engine.board import Board, board_for
from dipserver.engine.jsonio import (
    _CHANGING,
    REQUEST_KEYS,
    RequestError,
    _homes_data,
    _phase,
    _read_canonical,
    _variant,
)
from dipserver.engine.movement import (
    _names_on,
    contested_provinces,
    convoy_route,
    necessary_fleets,
    retreat_options,
    sea_route,
)
from dipserver.engine.orders import Convoy, Hold, Move, SupportHold, SupportMove
from dipserver.engine.resolver import CONVOY, HOLD, MOVE, SUPPORT, ConvoyRoute, OrderTable, resolve
from dipserver.engine.types import Phase, PhaseType, Season, UnitType, province_of
from dipserver.engine.variant import Variant

# What an order text means on a board: (kind, province, location, fleet?, a, b, c), or None when the text is
# not the lane's. Kinds and their a, b, c:
_HOLD = 0  # -
_MOVE = 1  # destination province, destination location, -          (a neighbour, by land or sea)
_BY_SEA = 2  # destination province, via convoy?, -                            (an army that needs a convoy)
_SUPPORT_HOLD = 3  # supported province, -, -
_SUPPORT_MOVE = 4  # supported province, destination as written, destination province
_CONVOY = 5  # army's province, destination province, -
_Reading = tuple[int, str, str, bool, Any, Any, Any]
_MAX_READINGS = 200_000  # canonical texts on a map are finite; the cap only guards against odd input

_SUCCESS, _BOUNCE, _CUT, _DISLODGED = "success", "bounce", "cut", "dislodged"
_VOID, _NO_CONVOY, _INVALID = "void", "no_convoy", "invalid"
_DISRUPTED = "The convoy was disrupted"
_PARADOX = "Convoy paradox: by the Szykman rule this fleet does not convoy"
_NOWHERE = "Dislodged with nowhere to retreat to"


class _Lane:
    """One board's tables: the unit texts that may stand on it, the readings of order texts, names."""

    __slots__ = (
        "board",
        "buildable",
        "centres",
        "home_of",
        "homes",
        "names",
        "owned_rule",
        "phases",
        "power_set",
        "powers",
        "readings",
        "slug",
        "unit_texts",
    )

    def __init__(self, variant: Variant, board: Board) -> None:
        self.board = board
        self.slug = variant.slug
        self.powers = tuple(variant.powers)
        self.power_set = frozenset(self.powers)
        self.homes = _homes_data(variant, board)
        self.home_of = dict(board.homes)
        self.centres = board.supply_centres
        self.buildable = frozenset(p for p in self.centres if board.terrain(p).passable)
        self.owned_rule = variant.build_rule == OWNED
        # text -> (province, location, fleet?): exactly the texts jsonio's unit reader accepts on this board
        texts: dict[str, tuple[str, str, bool]] = {}
        for loc in board.army_locations:
            texts["A " + loc] = (loc, loc, False)
        for loc in board.fleet_positions:
            texts["F " + loc] = (province_of(loc), loc, True)
        self.unit_texts = texts
        self.readings: dict[str, _Reading | None] = {}
        self.names = _names_on(board)
        self.phases: dict[str, tuple[str, str, str, str, bool]] = {}

    def reading(self, raw: str) -> _Reading | None:
        text = raw.strip()
        order, unit_type, loc, prov, _carried = _read_canonical(text, self.board)
        reading: _Reading | None = None
        fleet = unit_type is UnitType.FLEET
        if order is None:
            pass
        elif type(order) is Hold:
            reading = (_HOLD, prov, loc, fleet, None, None, None)
        elif type(order) is Move:
            dest = order.dest
            into = province_of(dest)
            if fleet or (not order.via_convoy and dest in self.board.army_moves(prov)):
                reading = (_MOVE, prov, loc, fleet, into, dest, None)
            else:
                reading = (_BY_SEA, prov, loc, fleet, into, order.via_convoy, None)
        elif type(order) is SupportHold:
            reading = (_SUPPORT_HOLD, prov, loc, fleet, order.target, None, None)
        elif type(order) is SupportMove:
            into = province_of(order.dest)
            if into != prov:  # never read so (a unit cannot reach its own province), but cheap to be sure
                reading = (_SUPPORT_MOVE, prov, loc, fleet, order.target, order.dest, into)
        elif type(order) is Convoy:
            reading = (_CONVOY, prov, loc, fleet, order.target, order.dest, None)
        if len(self.readings) < _MAX_READINGS:
            self.readings[raw] = reading
        return reading

    def name(self, loc: str) -> str:
        name = self.names.get(loc)
        if name is None:
            name = self.board.location_name(loc)
            if len(self.names) < 4096:
                self.names[loc] = name
        return name

    def unit_name(self, text: str) -> str:
        """ "The army in Paris", from the unit's text ("A PAR")."""
        name = self.names.get(text)
        if name is None:
            kind = "army" if text[0] == "A" else "fleet"
            name = self.names[text] = f"The {kind} in {self.board.location_name(text[2:])}"
        return name

    def phase_names(self, text: Any) -> tuple[str, str, str, str, bool] | None:
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


def _strings(value: Any) -> bool:
    """A list of strings (``str.join`` refuses anything else, and checks in C)."""
    if type(value) is not list:
        return False
    try:
        "".join(value)
    except TypeError:
        return False
    return True


def answer(data: Any) -> dict[str, Any] | None:
    """The answer ``jsonio.adjudicate_request(data)`` gives, or ``None`` when this lane does not take the
    request (it is then answered the general way). Never raises for a bad request."""
    if type(data) is not dict or not data.keys() <= REQUEST_KEYS:
        return None
    lane = _lane(data.get("variant"))
    if lane is None:
        return None
    phase = lane.phase_names(data.get("phase"))
    if phase is None:
        return None
    homes = data.get("homes")
    if homes is not None and homes != lane.homes:
        return None
    powers = lane.power_set

    # The units, in the order given: unit i stands in provs[i].
    table = data.get("units")
    if type(table) is not dict or not table.keys() <= powers:
        return None
    unit_texts = lane.unit_texts
    provs: list[str] = []
    owner: list[str] = []
    texts: list[str] = []  # "A PAR", as the answer writes units
    index: dict[str, int] = {}
    for power, listed in table.items():
        if not _strings(listed):
            return None
        for text in listed:
            found = unit_texts.get(text)
            if found is None:
                return None
            prov = found[0]
            if prov in index:
                return None
            index[prov] = len(provs)
            provs.append(prov)
            owner.append(power)
            texts.append(text)

    table = data.get("centers")
    if type(table) is not dict or not table.keys() <= powers:
        return None
    centres = lane.centres
    owners: dict[str, str] = {}
    for power, listed in table.items():
        if not _strings(listed):
            return None
        for prov in listed:
            if prov not in centres or prov in owners:
                return None
            owners[prov] = power

    table = data.get("dislodged")
    if table is not None and (type(table) is not dict or not table.keys() <= powers or any(table.values())):
        return None

    table = data.get("orders")
    if table is None:
        table = {}
    elif type(table) is not dict or not table.keys() <= powers:
        return None
    return _adjudicate(lane, phase, table, provs, owner, texts, index, owners)


def _adjudicate(
    lane: _Lane,
    names: tuple[str, str, str, str, bool],
    orders: dict[str, list[str]],
    provs: list[str],
    owner: list[str],
    texts: list[str],
    index: dict[str, int],
    owners: dict[str, str],
) -> dict[str, Any] | None:
    board = lane.board
    readings = lane.readings
    n = len(provs)
    kind = [HOLD] * n
    dest: list[str | None] = [None] * n
    dest_loc: list[str | None] = [None] * n
    route: list[ConvoyRoute | None] = [None] * n
    supports: list[list[int]] = [[] for _ in range(n)]
    void: dict[int, tuple[str, str]] = {}
    movers_to: dict[str, list[int]] = {}
    seen = [False] * n  # units given a legal order
    invalid: dict[int, str] = {}  # slot of an illegal order -> why
    ordered: list[int] = []  # unit of each order given, in the order given (every one is legal here)
    given: list[tuple[str, str]] = []  # (power, text as given)
    others: list[tuple[int, _Reading]] = []  # supports and convoys, in the order given
    moves: list[tuple[int, str, str]] = []  # (unit, destination province, location)
    by_sea: set[int] = set()
    fleet_seas: frozenset[str] | None = None
    needed: dict[tuple[str, str], set[str]] = {}

    # Step 1: each text read and checked against the units, as movement._legal_orders does (checked=True).
    for power, listed in orders.items():
        if not _strings(listed):
            return None
        for raw in listed:
            reading = readings.get(raw, False)
            if reading is False:
                reading = lane.reading(raw)
            if reading is None:
                return None
            what, prov, loc, fleet, a, b, c = reading  # type: ignore[misc]
            i = index.get(prov)
            if i is None or owner[i] != power or seen[i]:
                return None  # not this power's unit, or a second order for it: the general path decides
            unit = texts[i]
            if (unit[0] == "F") is not fleet or unit[2:] != loc:
                return None
            problem = ""
            if what == _MOVE:
                kind[i] = MOVE
                moves.append((i, a, b))
            elif what == _HOLD:
                pass
            elif what == _BY_SEA:
                if fleet_seas is None:
                    fleet_seas = _fleet_seas(board, provs, texts)
                if board.is_coastal(a) and sea_route(board, prov, a, fleet_seas):
                    kind[i] = MOVE
                    by_sea.add(i)
                    moves.append((i, a, a))
                elif not board.terrain(a).passable:
                    problem = f"{lane.name(a)} cannot be entered"
                else:
                    verb = "be convoyed to" if b else "reach"
                    problem = f"{lane.unit_name(unit)} cannot {verb} {lane.name(a)}"
            elif what == _SUPPORT_HOLD:
                if a in index:
                    others.append((i, reading))  # type: ignore[arg-type]
                else:
                    problem = f"There is no unit in {lane.name(a)} to support"
            elif what == _SUPPORT_MOVE:
                j = index.get(a)
                if j is None:
                    problem = f"There is no unit in {lane.name(a)} to support"
                else:
                    problem = _support_move_problem(lane, texts[j], a, b, c, prov, provs, texts)
                    if not problem:
                        others.append((i, reading))  # type: ignore[arg-type]
            else:  # _CONVOY
                j = index.get(a)
                if j is None:
                    problem = f"There is no unit in {lane.name(a)} to convoy"
                elif texts[j][0] != "A":
                    return None  # the parser's to read (jsonio._read_known leaves it)
                else:
                    key = (a, b)
                    need = needed.get(key)
                    if need is None:
                        if fleet_seas is None:
                            fleet_seas = _fleet_seas(board, provs, texts)
                        need = needed[key] = (
                            necessary_fleets(board, a, b, fleet_seas) if board.is_coastal(b) else set()
                        )
                    if prov in need:
                        others.append((i, reading))  # type: ignore[arg-type]
                    else:
                        problem = (
                            f"{lane.unit_name(unit)} is on no sea route from {lane.name(a)} to {lane.name(b)}"
                        )
            given.append((power, raw))
            if problem:
                # Illegal: ignored, the unit holds (or obeys another order given it).
                invalid[len(ordered)] = problem
                ordered.append(-1)
            else:
                seen[i] = True
                ordered.append(i)

    # Step 2: orders matched against each other, as movement._Phase._validate does.
    convoys: dict[tuple[str, str], list[str]] = {}
    for i, reading in others:
        if reading[0] == _CONVOY:
            key = (reading[4], reading[5])
            if key in convoys:
                convoys[key].append(provs[i])
            else:
                convoys[key] = [provs[i]]
    carried: set[str] = set()
    for i, into, target in moves:
        dest[i] = into
        dest_loc[i] = target
        if into in movers_to:
            movers_to[into].append(i)
        else:
            movers_to[into] = [i]
        fleets = convoys.get((provs[i], into)) if convoys else None
        # A move to a neighbour goes by sea only if a fleet of the army's own power convoys it.
        if i not in by_sea and (
            not fleets or texts[i][0] == "F" or all(owner[index[f]] != owner[i] for f in fleets)
        ):
            continue
        r = route[i] = convoy_route(board, provs[i], into, fleets or [], index)
        if r.links:
            carried.update(f for f in fleets or () if index[f] in r.links)
        else:
            void[i] = (_NO_CONVOY, f"No fleets were ordered to convoy it to {lane.name(into)}")
    opponent = [-1] * n
    for i, into, _ in moves:
        j = index.get(into, -1)
        # Two units swapping by land meet on the border; a convoyed unit passes it by (DATC 4.A.7).
        if j >= 0 and kind[j] == MOVE and dest[j] == provs[i] and route[i] is None and route[j] is None:
            opponent[i] = j
    for i, reading in others:
        what = reading[0]
        if what == _CONVOY:
            if provs[i] in carried:
                kind[i] = CONVOY
            else:
                them = lane.unit_name(texts[index[reading[4]]])
                void[i] = (_VOID, f"{them} was not convoyed to {lane.name(reading[5])}")
            continue
        j = index[reading[4]]
        if what == _SUPPORT_MOVE:
            goes = reading[6]
            matched = kind[j] == MOVE and dest[j] == goes
            written = reading[5]
            if matched and "/" in written:
                # A coast named in a support must be the one moved to (DATC 6.B.7-9) unless the province
                # has no such coast (ignored, 4.B.6).
                named = written.partition("/")[2]
                moved = dest_loc[j].partition("/")[2]  # type: ignore[union-attr]
                matched = named not in board.coasts(goes) or moved in (named, "")
        else:
            goes = None
            matched = kind[j] != MOVE
        if matched:
            kind[i] = SUPPORT
            dest[i] = goes
            supports[j].append(i)
        else:
            what_for = "hold" if goes is None else f"move to {lane.name(reading[5])}"
            void[i] = (_VOID, f"{lane.unit_name(texts[j])} did not {what_for}")

    # Step 3: the resolver.
    table = OrderTable(provs, owner, kind, dest, route, supports, index, movers_to, opponent)
    decisions = resolve(table)
    success, path, paradox = decisions.success, decisions.path, decisions.paradox

    # Step 4: where everyone ends up.
    moved_in = {dest[i]: i for i in range(n) if kind[i] == MOVE and success[i]}
    after: dict[str, int] = {}  # province -> unit now there
    at: list[str] = texts[:]  # each unit's text where it ends up
    dislodged_by: dict[int, int] = {}
    for i in range(n):
        if kind[i] == MOVE and success[i]:
            after[dest[i]] = i  # type: ignore[index]
            at[i] = texts[i][:2] + dest_loc[i]  # type: ignore[operator]
        elif provs[i] in moved_in:
            dislodged_by[i] = moved_in[provs[i]]
        else:
            after[provs[i]] = i

    # Step 5: the answer.
    results: dict[str, dict[str, str]] = {}
    reasons: dict[str, dict[str, str]] = {}
    for slot, i in enumerate(ordered):
        power, raw = given[slot]
        reason = ""
        k = kind[i]
        if i < 0:
            outcome, reason = _INVALID, invalid[slot]
        elif i in void:
            outcome, reason = void[i]
        elif k == MOVE:
            if success[i]:
                outcome = _SUCCESS
            elif path[i]:
                outcome = _BOUNCE
            else:
                outcome, reason = _NO_CONVOY, _DISRUPTED
        elif k == SUPPORT:
            outcome = _SUCCESS if success[i] else _CUT
        elif k == HOLD:
            outcome = _DISLODGED if i in dislodged_by else _SUCCESS
        elif i in paradox:
            outcome, reason = _VOID, _PARADOX
        else:
            outcome = _SUCCESS if success[i] else _DISLODGED
        mine = results.get(power)
        if mine is None:
            mine = results[power] = {}
        elif raw in mine:
            continue  # the same text again: only the first is reported
        mine[raw] = outcome
        if reason:
            if power in reasons:
                reasons[power][raw] = reason
            else:
                reasons[power] = {raw: reason}

    waiting: list[tuple[str, str, list[str]]] = []  # (power, unit, retreats) of units that may retreat
    if dislodged_by:
        contested = contested_provinces(movers_to, after, decisions, opponent)
        for i, m in dislodged_by.items():
            loc = texts[i][2:]
            closed = provs[m] if route[m] is None else None  # open to a retreat if the attacker came by sea
            moves_from = board.fleet_moves(loc) if texts[i][0] == "F" else None
            options = retreat_options(board, loc, moves_from, after, contested, closed)
            if options:
                waiting.append((owner[i], texts[i], list(options)))
            else:
                power = owner[i]
                mine = results.get(power)
                if mine is None:
                    mine = results[power] = {}
                text = texts[i] + " D"
                if text not in mine:
                    mine[text] = _SUCCESS
                    if power in reasons:
                        reasons[power][text] = _NOWHERE
                    else:
                        reasons[power] = {text: _NOWHERE}

    if waiting:
        skipped: list[str] = []
        next_phase = names[1]
    elif names[4]:  # Spring
        skipped = [names[1]]
        next_phase = names[2]
    else:
        skipped = [names[1]]
        centres = lane.centres
        for prov, i in after.items():
            if prov in centres:
                owners[prov] = owner[i]
        if _has_adjustments(lane, after, owner, owners):
            next_phase = names[2]
        else:
            skipped.append(names[2])
            next_phase = names[3]

    units: dict[str, list[str]] = {power: [] for power in lane.powers}
    for i in after.values():
        units[owner[i]].append(at[i])
    for listed in units.values():
        listed.sort()
    centre_lists: dict[str, list[str]] = {power: [] for power in lane.powers}
    for prov, power in owners.items():
        centre_lists[power].append(prov)
    for listed in centre_lists.values():
        listed.sort()
    dislodged: dict[str, list[dict[str, Any]]] = {}
    for power, unit, options in sorted(waiting, key=_by_location):
        entry = {"unit": unit, "retreats": options}
        if power in dislodged:
            dislodged[power].append(entry)
        else:
            dislodged[power] = [entry]
    return {
        "phase": names[0],
        "results": results,
        "reasons": reasons,
        "skipped": skipped,
        "next": {
            "variant": lane.slug,
            "phase": next_phase,
            "units": units,
            "centers": centre_lists,
            "homes": {power: list(provinces) for power, provinces in lane.homes.items()},
            "dislodged": dislodged,
        },
    }


def _support_move_problem(
    lane: _Lane,
    them: str,
    target: str,
    written: str,
    into: str,
    here: str,
    provs: list[str],
    texts: list[str],
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
        board.is_coastal(into) and sea_route(board, target, into, _fleet_seas(board, provs, texts) - {here})
    ):
        return ""
    return f"{lane.unit_name(them)} cannot reach {lane.name(into)}"


def _by_location(entry: tuple[str, str, list[str]]) -> str:
    return entry[1][2:]


def _fleet_seas(board: Board, provs: list[str], texts: list[str]) -> frozenset[str]:
    """Seas with a fleet in them: where convoys may run this phase."""
    return frozenset(p for p, t in zip(provs, texts, strict=True) if t[0] == "F" and board.is_water(p))


def _has_adjustments(lane: _Lane, after: dict[str, int], owner: list[str], owners: dict[str, str]) -> bool:
    """``adjustments.has_adjustments`` on the lane's values: some power must remove a unit, or may build."""
    counts = Counter(owners.values())
    for i in after.values():
        counts[owner[i]] -= 1
    for power, delta in counts.items():
        if delta < 0:
            return True
        if delta > 0:
            for prov, holder in owners.items():
                if (
                    holder == power
                    and prov not in after
                    and prov in lane.buildable
                    and (lane.owned_rule or lane.home_of.get(prov) == power)
                ):
                    return True
    return False
