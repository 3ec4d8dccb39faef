"""Reading orders as players type them, and checking them against the board and position.

Two kinds of answer, as the DATC requires:
- an order that cannot be understood, or that is impossible on this map (no such unit, not yours, a
  fleet sailing inland, a destination the unit can never reach) raises ``OrderError`` with a reason a
  player understands;
- an order that is legal but may fail (a move that needs a convoy nobody gives yet, support of a unit
  that is not there) is returned as an ``Order`` and left to the adjudicator.

Accepted notation, any case: ``A LON - NWY VIA``, ``A LON-NWY via convoy``, ``F NTH C A LON - NWY``,
``A MUN S A PAR - BUR``, ``A MUN S BER``, ``A RUM R SER``, ``A RUM D``, ``A PAR B``, ``BUILD F STP/NC``,
``WAIVE``, ``A RUM H``; full names and aliases (``Army Munich supports Paris to Burgundy``), coasts as
``/nc``, ``(nc)``, `` nc`` or ``north coast``; the unit type may be left out. A variant's conversion
orders (``conversions.py``) and, when the game's rule modules are given, their orders (``establish depot
PAR``, ``place blizzard MUN``: ``modules/orders.py``) are read too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dipserver.engine.adjustments import adjustment_counts, build_sites
from dipserver.engine.board import Board
from dipserver.engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)

# OrderError lives with the order values, so that the modules that read other kinds of order (conversions,
# rule modules) can raise it without importing this module, which imports them: no import cycle.
from dipserver.engine.orders import OrderError as OrderError
from dipserver.engine.position import Position
from dipserver.engine.readings import movement_order
from dipserver.engine.types import HOME, OWNED, PhaseType, Terrain, Unit, UnitType, coast_of, province_of
from dipserver.engine.variant import Variant, normalise_name

if TYPE_CHECKING:
    from dipserver.engine.modules.orders import InPlay


# --- build rules: where a power may place new units (variants differ) --------------------------------

BuildRule = Callable[[Board, Position, str], Collection[str]]  # -> vacant centres open to new units


def home_centres(board: Board, position: Position, power: str) -> list[str]:
    """Standard rule: the power's vacant home centres that it still owns."""
    return build_sites(board, position.units, position.owners, power, HOME)


def owned_centres(board: Board, position: Position, power: str) -> list[str]:
    """Build-anywhere rule (Wall of Ice, Sahara): any vacant centre the power owns."""
    return build_sites(board, position.units, position.owners, power, OWNED)


BUILD_RULES: dict[str, BuildRule] = {HOME: home_centres, OWNED: owned_centres}


def adjustment_due(position: Position, power: str) -> int:
    """Builds (positive) or disbands (negative) ``power`` owes this winter, as the adjudicator counts."""
    return adjustment_counts(position.units, position.owners).get(power, 0)


def build_rule_for(variant: Variant) -> BuildRule:
    return BUILD_RULES[variant.build_rule]


# --- tokens -----------------------------------------------------------------------------------------

_KEYWORDS = {
    **dict.fromkeys(("-", "->", "=>", "to", "move", "moves", "m"), "move"),
    **dict.fromkeys(("s", "sup", "support", "supports"), "support"),
    **dict.fromkeys(("c", "convoy", "convoys"), "convoy"),
    **dict.fromkeys(("h", "hold", "holds", "stand", "stands"), "hold"),
    **dict.fromkeys(("r", "retreat", "retreats"), "retreat"),
    **dict.fromkeys(("d", "disband", "disbands", "remove", "removes"), "disband"),
    **dict.fromkeys(("b", "build", "builds"), "build"),
    **dict.fromkeys(("waive", "waives"), "waive"),
    **dict.fromkeys(("via",), "via"),
}
_UNIT_WORDS = {"a": UnitType.ARMY, "army": UnitType.ARMY, "f": UnitType.FLEET, "fleet": UnitType.FLEET}
_COAST_WORDS = {
    "nc": "NC",
    "sc": "SC",
    "ec": "EC",
    "wc": "WC",
    "north": "NC",
    "south": "SC",
    "east": "EC",
    "west": "WC",
}
_SHORT_COAST_WORDS = {"n": "NC", "s": "SC", "e": "EC", "w": "WC"}  # only inside "/x" or "(x)"
_TOKEN_RE = re.compile(r"->|=>|[a-z0-9.']+|\S")
_IGNORED = frozenset(",:;?!")  # separators, and "?" for a unit type the writer did not know (DATC texts)
_MAX_NAME_WORDS = 4


@dataclass(frozen=True, slots=True)
class _Loc:
    province: str
    coast: str | None
    text: str  # as typed, for messages

    @property
    def location(self) -> str:
        return f"{self.province}/{self.coast}" if self.coast else self.province


_Item = tuple[str, object]  # ("kw", kind) | ("type", UnitType) | ("loc", _Loc)


def _is_word(token: str) -> bool:
    return token[0].isalnum()


def _word(token: str) -> str:
    return token.strip(".'")


def _tokens(text: str) -> list[str]:
    cleaned = text.lower().replace("\u2013", "-").replace("\u2014", "-").replace("\u2192", "->")
    return [t for t in _TOKEN_RE.findall(cleaned) if t not in _IGNORED]


def _match_name(variant: Variant, tokens: list[str], i: int) -> tuple[str, int] | None:
    """The longest province name starting at ``tokens[i]``: (code, tokens used)."""
    for length in range(min(_MAX_NAME_WORDS, len(tokens) - i), 0, -1):
        words = tokens[i : i + length]
        # A name is words, perhaps joined by hyphens ("Mid-Atlantic"); arrows and brackets end it.
        if not (_is_word(words[0]) and _is_word(words[-1]) and all(_is_word(w) or w == "-" for w in words)):
            continue
        if length == 1 and _word(words[0]) in _KEYWORDS | _UNIT_WORDS:
            return None
        code = variant.names.get(normalise_name(" ".join(words)))
        if code is not None:
            return code, length
    return None


def _match_coast(tokens: list[str], i: int) -> tuple[str, int] | None:
    """A coast written after a province: ``/nc``, ``(nc)``, ``nc``, ``north coast``, ``(north coast)``."""

    def bare(j: int, short_ok: bool) -> tuple[str, int] | None:
        if j >= len(tokens):
            return None
        word = _word(tokens[j]).replace(".", "")
        coast = _COAST_WORDS.get(word) or (_SHORT_COAST_WORDS.get(word) if short_ok else None)
        if coast is None:
            return None
        used = 1
        if j + 1 < len(tokens) and _word(tokens[j + 1]) == "coast":
            used = 2
        elif word in ("north", "south", "east", "west") and not short_ok:
            return None  # a lone direction word after a place is too easily something else
        return coast, used

    if i < len(tokens) and tokens[i] == "/":
        found = bare(i + 1, short_ok=True)
        return (found[0], found[1] + 1) if found else None
    if i < len(tokens) and tokens[i] == "(":
        found = bare(i + 1, short_ok=True)
        if found and i + 1 + found[1] < len(tokens) and tokens[i + 1 + found[1]] == ")":
            return found[0], found[1] + 2
        return None
    return bare(i, short_ok=False)


def _lex(variant: Variant, text: str) -> list[_Item]:
    tokens = _tokens(text)
    items: list[_Item] = []
    i = 0
    while i < len(tokens):
        name = _match_name(variant, tokens, i)
        if name is not None:
            code, used = name
            typed = " ".join(tokens[i : i + used])
            i += used
            coast = _match_coast(tokens, i)
            if coast is not None:
                i += coast[1]
            items.append(("loc", _Loc(code, coast[0] if coast else None, typed)))
            continue
        word = _word(tokens[i])
        if word in _UNIT_WORDS:
            items.append(("type", _UNIT_WORDS[word]))
        elif word in ("via", "by") and i + 1 < len(tokens) and _word(tokens[i + 1]) in ("convoy", "convoys"):
            items.append(("kw", "via"))
            i += 1
        elif word in _KEYWORDS:
            items.append(("kw", _KEYWORDS[word]))
        else:
            raise OrderError(f"'{tokens[i]}' is not a place or an order word I know")
        i += 1
    return items


# --- grammar: items -> what the player asked for -----------------------------------------------------


@dataclass(slots=True)
class _Intent:
    verb: str  # hold, move, support, convoy, retreat, disband, build, waive
    unit_type: UnitType | None = None
    unit: _Loc | None = None
    target_type: UnitType | None = None
    target: _Loc | None = None
    dest: _Loc | None = None
    via: bool = False


class _Reader:
    def __init__(self, items: list[_Item], text: str) -> None:
        self.items, self.i, self.text = items, 0, text

    def peek(self) -> _Item | None:
        return self.items[self.i] if self.i < len(self.items) else None

    def take_kw(self, *kinds: str) -> str | None:
        item = self.peek()
        if item is not None and item[0] == "kw" and item[1] in kinds:
            self.i += 1
            return str(item[1])
        return None

    def unit(self, role: str) -> tuple[UnitType | None, _Loc]:
        unit_type = None
        item = self.peek()
        if item is not None and item[0] == "type":
            unit_type = item[1]
            self.i += 1
            item = self.peek()
        if item is None or item[0] != "loc":
            raise OrderError(f"Expected the place of {role} in '{self.text}'")
        self.i += 1
        return unit_type, item[1]  # type: ignore[return-value]

    def place(self, role: str) -> _Loc:
        item = self.peek()
        if item is None or item[0] != "loc":
            raise OrderError(f"Expected {role} in '{self.text}'")
        self.i += 1
        return item[1]  # type: ignore[return-value]

    def done(self) -> None:
        if self.i < len(self.items):
            raise OrderError(f"Did not understand the end of '{self.text}'")


def _read(items: list[_Item], text: str) -> _Intent:
    r = _Reader(items, text)
    if not items:
        raise OrderError("Empty order")
    lead = r.take_kw("build", "disband", "waive", "retreat", "move", "support", "convoy", "hold")
    if lead == "waive":
        r.done()
        return _Intent("waive")
    if lead in ("build", "disband"):
        unit_type, loc = r.unit("the unit")
        r.done()
        return _Intent(lead, unit_type, loc)
    if lead is not None:
        raise OrderError(f"Start with the unit, as in 'A PAR - BUR', not with '{lead}'")
    unit_type, unit = r.unit("the ordered unit")
    intent = _Intent("hold", unit_type, unit)
    verb = r.take_kw("hold", "move", "support", "convoy", "retreat", "disband", "build", "waive")
    if verb in (None, "hold", "disband", "build"):
        intent.verb = verb or "hold"
    elif verb in ("move", "retreat"):
        intent.verb = verb
        r.take_kw("move")  # "R - SER", "retreats to SER"
        intent.dest = r.place("where the unit goes")
        intent.via = r.take_kw("via") is not None
    elif verb in ("support", "convoy"):
        intent.verb = verb
        intent.target_type, intent.target = r.unit(f"the unit to {verb}")
        if r.take_kw("move"):
            intent.dest = r.place("where the supported unit goes")
        elif verb == "convoy":
            raise OrderError("A convoy names the army and where it goes, as in 'F NTH C A LON - NWY'")
        else:
            r.take_kw("hold")
    else:
        raise OrderError(f"'{verb}' does not fit here in '{text}'")
    r.done()
    return intent


# --- checking against the board and position ---------------------------------------------------------


def _unit_phrase(board: Board, unit: Unit, the: str = "The") -> str:
    return f"{the} {_kind(unit.type)} in {board.location_name(unit.location)}"


def _kind(unit_type: UnitType) -> str:
    return "army" if unit_type is UnitType.ARMY else "fleet"


def _a(unit_type: UnitType) -> str:
    return "an army" if unit_type is UnitType.ARMY else "a fleet"


class _Checker:
    def __init__(self, board: Board, position: Position, power: str, build_rule: BuildRule) -> None:
        self.board, self.position, self.power, self.build_rule = board, position, power, build_rule

    def name(self, loc: str) -> str:
        return self.board.location_name(loc)

    def power_name(self, power: str) -> str:
        info = self.board.variant.powers.get(power)
        return info.name if info else power.title()

    # The ordered unit must exist, be ours, and match what the player called it.
    def own_unit(
        self, units: dict[str, Unit], unit_type: UnitType | None, loc: _Loc, where: str = ""
    ) -> Unit:
        unit = units.get(loc.province)
        if unit is None:
            raise OrderError(f"There is no {where}unit in {self.name(loc.province)}")
        if unit.power != self.power:
            raise OrderError(f"{_unit_phrase(self.board, unit)} belongs to {self.power_name(unit.power)}")
        if unit_type is not None and unit_type is not unit.type:
            raise OrderError(f"The unit in {self.name(loc.province)} is {_a(unit.type)}, not {_a(unit_type)}")
        # A wrong coast for the ordered unit has no purpose: the unit is found by province (DATC 6.B.10).
        return unit

    def known_place(self, loc: _Loc) -> None:
        if self.board.terrain(loc.province) is Terrain.ABSENT:
            raise OrderError(f"{self.name(loc.province)} is not on the board")
        if loc.coast is not None and loc.coast not in self.board.coasts(loc.province):
            raise OrderError(f"{self.name(loc.province)} has no {loc.coast} coast")

    def _enterable(self, unit: Unit, dest: _Loc) -> None:
        self.known_place(dest)
        if dest.province == unit.province:
            raise OrderError(f"{_unit_phrase(self.board, unit)} cannot move to where it already is")
        terrain = self.board.terrain(dest.province)
        if not terrain.passable:
            raise OrderError(f"{self.name(dest.province)} is {terrain.value}: no unit can enter it")

    def fleet_destination(self, unit: Unit, dest: _Loc) -> str:
        """The exact location a fleet moves to, inferring the coast when only one is reachable."""
        self._enterable(unit, dest)
        options = self.board.fleet_reachable_coasts(unit.location, dest.province)
        if dest.coast is None and len(options) > 1:
            choices = " or ".join(options)
            raise OrderError(f"Say which coast of {self.name(dest.province)} the fleet goes to: {choices}")
        if dest.coast is None and len(options) == 1:
            return options[0]
        if dest.location in options:
            return dest.location
        raise OrderError(f"A fleet in {self.name(unit.location)} cannot reach {self.name(dest.location)}")

    # --- movement ---------------------------------------------------------------------------------

    def movement(self, intent: _Intent) -> Order:
        if intent.verb in ("retreat", "disband", "build", "waive"):
            raise OrderError(f"This is a movement phase: {intent.verb} orders come later")
        assert intent.unit is not None
        unit = self.own_unit(dict(self.position.units), intent.unit_type, intent.unit)
        if intent.verb == "hold":
            return Hold(unit.location)
        if intent.verb == "move":
            return self.move(unit, intent)
        if intent.verb == "support":
            return self.support(unit, intent)
        return self.convoy(unit, intent)

    def move(self, unit: Unit, intent: _Intent) -> Move:
        assert intent.dest is not None
        if unit.type is UnitType.FLEET:
            if intent.via:
                raise OrderError("Only armies travel by convoy")
            return Move(unit.location, self.fleet_destination(unit, intent.dest))
        self._enterable(unit, intent.dest)
        dest = intent.dest.province  # a coast means nothing to an army: ignored (DATC 6.B.12)
        if not self.board.is_land(dest):
            raise OrderError(f"An army in {self.name(unit.location)} cannot reach {self.name(dest)}")
        if not intent.via and dest in self.board.army_moves(unit.province):
            return Move(unit.location, dest)
        # Not adjacent, or a convoy asked for: legal if some chain of seas could carry it (fleets permitting).
        if dest in self.board.convoy_destinations(unit.province):
            return Move(unit.location, dest, intent.via)
        raise OrderError(
            f"An army in {self.name(unit.location)} cannot reach {self.name(dest)}: "
            + (
                "no convoy route leads there"
                if intent.via
                else "it is not adjacent and no convoy route leads there"
            )
        )

    def support(self, unit: Unit, intent: _Intent) -> SupportHold | SupportMove:
        assert intent.target is not None
        board = self.board
        self.known_place(intent.target)
        target = intent.target.province
        if target == unit.province:
            raise OrderError(f"{_unit_phrase(board, unit)} cannot support itself")
        if intent.dest is None:
            if not board.can_reach_province(unit.type, unit.location, target):
                raise OrderError(
                    f"{_unit_phrase(board, unit)} cannot support {self.name(target)}: it could not move there"
                )
            return SupportHold(unit.location, target)
        self.known_place(intent.dest)
        dest = intent.dest.province
        if dest == target:
            raise OrderError("A supported move must go somewhere other than where the unit stands")
        if not board.can_reach_province(unit.type, unit.location, dest):
            raise OrderError(
                f"{_unit_phrase(board, unit)} cannot support a move to {self.name(dest)}: "
                "it could not move there itself"
            )
        return SupportMove(unit.location, target, intent.dest.location)

    def convoy(self, unit: Unit, intent: _Intent) -> Convoy:
        assert intent.target is not None and intent.dest is not None
        board = self.board
        if unit.type is not UnitType.FLEET or not board.is_water(unit.province):
            raise OrderError(
                f"Only a fleet at sea can convoy; {_unit_phrase(board, unit, 'the')} is not at sea"
            )
        self.known_place(intent.target)
        self.known_place(intent.dest)
        carried = self.position.units.get(intent.target.province)
        if intent.target_type is UnitType.FLEET or (carried is not None and carried.type is UnitType.FLEET):
            raise OrderError("Only armies can be convoyed")
        if not board.is_land(intent.target.province) or not board.is_land(intent.dest.province):
            raise OrderError("A convoy carries an army from one land province to another")
        if intent.target.province == intent.dest.province:
            raise OrderError("A convoyed army must go somewhere other than where it stands")
        return Convoy(unit.location, intent.target.province, intent.dest.province)

    # --- retreats ---------------------------------------------------------------------------------

    def retreat(self, intent: _Intent) -> Order:
        if intent.verb not in ("retreat", "move", "disband"):
            raise OrderError("This is a retreat phase: a dislodged unit retreats or disbands")
        assert intent.unit is not None
        dislodged = {p: d.unit for p, d in self.position.dislodged.items()}
        unit = self.own_unit(dislodged, intent.unit_type, intent.unit, where="dislodged ")
        if intent.verb == "disband":
            return Disband(unit.location)
        assert intent.dest is not None
        options = self.position.dislodged[unit.province].retreats
        self.known_place(intent.dest)
        wanted = intent.dest.location if unit.type is UnitType.FLEET else intent.dest.province
        if intent.dest.coast is None and unit.type is UnitType.FLEET:
            matches = [o for o in options if province_of(o) == intent.dest.province]
            if len(matches) > 1:
                raise OrderError(
                    f"Say which coast of {self.name(intent.dest.province)}: {' or '.join(matches)}"
                )
            wanted = matches[0] if matches else wanted
        if wanted not in options:
            allowed = ", ".join(self.name(o) for o in options) or "nowhere: it can only disband"
            raise OrderError(
                f"{_unit_phrase(self.board, unit)} cannot retreat to {self.name(wanted)}; "
                f"it may retreat to {allowed}"
            )
        return Retreat(unit.location, wanted)

    # --- adjustments ------------------------------------------------------------------------------

    def balance(self) -> int:
        return adjustment_due(self.position, self.power)

    def adjustment(self, intent: _Intent) -> Order:
        if intent.verb == "waive":
            return Waive(self.power)
        if intent.verb == "disband":
            assert intent.unit is not None
            unit = self.own_unit(dict(self.position.units), intent.unit_type, intent.unit)
            if self.balance() >= 0:
                raise OrderError(f"{self.power_name(self.power)} has no units to disband this winter")
            return Disband(unit.location)
        if intent.verb != "build":
            raise OrderError("This is an adjustment phase: build, disband or waive")
        return self.build(intent)

    def build(self, intent: _Intent) -> Build:
        assert intent.unit is not None
        board, loc, name = self.board, intent.unit, self.name(intent.unit.province)
        if intent.unit_type is None:
            raise OrderError(f"Say what to build in {name}: an army (A) or a fleet (F)")
        self.known_place(loc)
        if self.balance() <= 0:
            raise OrderError(f"{self.power_name(self.power)} has no builds this winter")
        if loc.province not in board.supply_centres:
            raise OrderError(f"{name} is not a supply centre")
        if self.position.owners.get(loc.province) != self.power:
            raise OrderError(f"{name} is not owned by {self.power_name(self.power)}")
        if loc.province in self.position.units:
            raise OrderError(f"{name} is occupied; units are built only in vacant centres")
        if loc.province not in self.build_rule(board, self.position, self.power):
            raise OrderError(
                f"{self.power_name(self.power)} may not build in {name}: it is not one of its home centres"
            )
        if intent.unit_type is UnitType.ARMY:
            if loc.coast is not None:
                raise OrderError(f"An army is built in a province, not on a coast: say {loc.province}")
            return Build(self.power, UnitType.ARMY, loc.province)
        sites = board.fleet_build_locations(loc.province)
        if not sites:
            raise OrderError(f"A fleet cannot be built in {name}: it does not touch open sea")
        if loc.location in sites:
            return Build(self.power, UnitType.FLEET, loc.location)
        if loc.coast is not None:
            raise OrderError(
                f"A fleet cannot be built on the {loc.coast} coast of {name}: it touches no open sea"
            )
        if len(sites) > 1:
            coasts = " or ".join(str(coast_of(site)) for site in sites)
            raise OrderError(f"Say which coast of {name} to build the fleet on: {coasts}")
        return Build(self.power, UnitType.FLEET, sites[0])


def parse_order(
    text: str,
    board: Board,
    position: Position,
    power: str,
    build_rule: BuildRule | None = None,
    modules: InPlay | None = None,
) -> Order:
    """One order for ``power`` in ``position``'s phase, or ``OrderError`` with a reason for the player.

    ``modules`` (``modules.orders.InPlay``: the game's rule modules and their state) lets the parser read
    module orders (``establish depot PAR``, ``place blizzard MUN``) as ``EstablishDepot``/``SnowStorm``;
    without it such an order is refused with the reason. The module orders are checked as ``play`` checks
    them; the Diplomacy orders are not screened here (``modules.phase.order_problem`` does that).

    A movement order in the notation ``format_order`` writes is read from the board's readings
    (``readings.py``) when its unit is as written; every other text is read in full."""
    if position.phase.type is PhaseType.MOVEMENT:
        order = movement_order(text, board, position.units, power)
        if order is not None:
            return order
    return parse_in_full(text, board, position, power, build_rule, modules)


def parse_in_full(
    text: str,
    board: Board,
    position: Position,
    power: str,
    build_rule: BuildRule | None = None,
    modules: InPlay | None = None,
) -> Order:
    """``parse_order`` without the board's readings: every notation, inferred coasts, the reasons."""
    power = power.upper()
    if power not in board.variant.powers:
        raise OrderError(f"{power} is not a power in this game")
    checker = _Checker(board, position, power, build_rule or build_rule_for(board.variant))
    text = _without_power_prefix(board.variant, text, power)
    try:
        intent = _read(_lex(board.variant, text), text.strip())
    except OrderError:
        # Perhaps a rule module's order ("establish depot PAR") or a variant's conversion order
        # ("F BRE becomes army"): read it, or say plainly why this game, phase or place does not allow it.
        from dipserver.engine.conversions import parse_conversion
        from dipserver.engine.modules.orders import parse_module_order

        module_order = parse_module_order(text, board, position, power, modules)
        if module_order is not None:
            return module_order  # type: ignore[return-value]  # callers that take module orders check
        conversion = parse_conversion(text, board, position, power)
        if conversion is None:
            raise
        return conversion  # type: ignore[return-value]  # callers that take conversions check the type
    phase = position.phase.type
    if phase is PhaseType.MOVEMENT:
        return checker.movement(intent)
    if phase is PhaseType.RETREATS:
        return checker.retreat(intent)
    return checker.adjustment(intent)


_PREFIX_RE = re.compile(r"^\s*([A-Za-z][A-Za-z ]*?)\s*:\s*")


def _without_power_prefix(variant: Variant, text: str, power: str) -> str:
    """``"England: A LON H"`` -> ``"A LON H"`` when England is the one ordering."""
    m = _PREFIX_RE.match(text)
    if m is None:
        return text
    named = next(
        (
            p
            for p, info in variant.powers.items()
            if normalise_name(m.group(1)) in (p.lower(), info.name.lower())
        ),
        None,
    )
    if named is None:
        raise OrderError(f"'{m.group(1)}' is not a power in this game")
    if named != power:
        raise OrderError(
            f"These are orders for {variant.powers[named].name}, not {variant.powers[power].name}"
        )
    return text[m.end() :]


@dataclass(frozen=True, slots=True)
class ParsedLine:
    number: int  # 1-based line number in the submitted text
    text: str
    order: Order | None
    error: str | None

    @property
    def ok(self) -> bool:
        return self.error is None


def order_unit(order: Order) -> str | None:
    """The province of the unit an order commands (builds: the province built in); ``None`` for waive."""
    if isinstance(order, Waive) or _is_module_order(order):
        return None  # waive, and the module orders (depots, Snow Storms): given beside the unit's order
    if isinstance(order, Build):
        return province_of(order.location)
    return province_of(order.unit)


def parse_orders(
    lines: Iterable[str] | str,
    board: Board,
    position: Position,
    power: str,
    build_rule: BuildRule | None = None,
    modules: InPlay | None = None,
) -> list[ParsedLine]:
    """Every non-blank line parsed on its own, then checked as a set: one order per unit, no more
    builds or disbands than the winter allows, and no more depots or Snow Storms than the modules allow."""
    if isinstance(lines, str):
        lines = lines.splitlines()
    results: list[ParsedLine] = []
    seen: dict[str, int] = {}
    adjustments = 0
    module_orders: list[Order] = []
    checker = _Checker(board, position, power.upper(), build_rule or build_rule_for(board.variant))
    allowed = abs(checker.balance()) if position.phase.type is PhaseType.ADJUSTMENTS else 0
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            order = parse_order(text, board, position, power, build_rule, modules)
        except OrderError as err:
            results.append(ParsedLine(number, text, None, err.reason))
            continue
        if modules is not None and _is_module_order(order):
            why = _module_batch_problem(board, position, power.upper(), modules, order, module_orders)
            if why is not None:
                results.append(ParsedLine(number, text, None, why))
                continue
            module_orders.append(order)
        key = order_unit(order)
        if key is not None and key in seen:
            results.append(
                ParsedLine(
                    number, text, None, f"{board.province_name(key)} already has an order on line {seen[key]}"
                )
            )
            continue
        if isinstance(order, Build | Disband) and position.phase.type is PhaseType.ADJUSTMENTS:
            adjustments += 1
            if adjustments > allowed:
                kind = "build" if isinstance(order, Build) else "disband"
                due = f"Only {allowed} {kind} is due" if allowed == 1 else f"Only {allowed} {kind}s are due"
                results.append(ParsedLine(number, text, None, f"{due} this winter"))
                continue
        if key is not None:
            seen[key] = number
        results.append(ParsedLine(number, text, order, None))
    return results


def _is_module_order(order: object) -> bool:
    from dipserver.engine.modules.blizzard import SnowStorm
    from dipserver.engine.modules.supply import EstablishDepot

    return isinstance(order, EstablishDepot | SnowStorm)


def _module_batch_problem(
    board: Board, position: Position, power: str, modules: InPlay, order: Order, earlier: list[Order]
) -> str | None:
    """Why one more depot or Snow Storm is too many, with the earlier lines' ones already accepted."""
    from dipserver.engine.modules.phase import Checker

    checker = Checker(board, position, modules.modules, modules.state)
    why = checker.batch_problem(power, order, tuple(earlier))  # type: ignore[arg-type]
    return None if why is None else why[0].upper() + why[1:]


# --- writing orders back ----------------------------------------------------------------------------


def format_order(order: Order, position: Position) -> str:
    """The short rulebook notation of an order (``A MUN S A PAR - BUR``), which ``parse_order`` reads back."""

    retreating = position.phase.type is PhaseType.RETREATS

    def unit_at(prov: str) -> str:
        unit = _dislodged(position, prov) if retreating else position.units.get(province_of(prov))
        return f"{unit.type.value} {unit.location}" if unit else province_of(prov)

    match order:
        case Hold(unit=u):
            return f"{unit_at(u)} H"
        case Move(unit=u, dest=d, via_convoy=via):
            return f"{unit_at(u)} - {d}" + (" VIA" if via else "")
        case SupportHold(unit=u, target=t):
            return f"{unit_at(u)} S {unit_at(t)}"
        case SupportMove(unit=u, target=t, dest=d):
            return f"{unit_at(u)} S {unit_at(t)} - {d}"
        case Convoy(unit=u, target=t, dest=d):
            return f"{unit_at(u)} C A {t} - {d}"
        case Retreat(unit=u, dest=d):
            return f"{unit_at(u)} R {d}"
        case Disband(unit=u):
            return f"{unit_at(u)} D"
        case Build(unit_type=t, location=loc):
            return f"{t.value} {loc} B"
        case Waive():
            return "WAIVE"
    if _is_module_order(order):
        return str(order)  # "establish depot PAR", "place blizzard MUN": parse_order reads them back
    raise TypeError(f"not an order: {order!r}")


def _dislodged(position: Position, prov: str) -> Unit | None:
    entry = position.dislodged.get(province_of(prov))
    return entry.unit if entry else None
