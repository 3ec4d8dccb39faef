"""Reading a request of ``adjudicate`` (``jsonio.py`` has its shape): the JSON checked, field by field, and
the engine's values built from it. Anything wrong raises ``RequestError`` with a message that names the
field and the problem.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar, final

from dipserver.adjudicator.answers import _MAX_BOARDS, _POWER_SETS, _POWERS, _homes_data, _power_set
from dipserver.adjudicator.placement import cannot_stand, dislodged_by_own
from dipserver.engine.board import Board, board_for
from dipserver.engine.definition import Variant, VariantError
from dipserver.engine.position import Position
from dipserver.engine.readings import MAX_ORDER_TEXT, too_long
from dipserver.engine.types import Phase, PhaseType, Unit, UnitType, province_of, unit_moved
from dipserver.engine.variantcache import VARIANTS_ROOT, load_variant

if TYPE_CHECKING:
    from dipserver.engine.dislodged import Dislodged

REQUEST_KEYS = frozenset({"variant", "phase", "units", "centers", "homes", "dislodged", "orders"})
# Only for variants whose map changes (turnio.py): options, the phase's map, Sahara flags, Deluge memory.
TIMELINE_KEYS = frozenset({"options", "map", "stay_flags", "last_occupants", "module_state"})
# For any variant (turnio.py): the game's options (rule modules included) and the modules' state.
MODULE_KEYS = frozenset({"options", "module_state"})


class RequestError(ValueError):
    """A request that cannot be adjudicated; the message says which field is wrong and how."""


@final
class Request:
    """A request read: the engine's values, and what ``turnio`` needs to play it (a plain class, not a
    dataclass: compiled, a dataclass's ``__init__`` stays Python, ten times the cost of this one)."""

    __slots__ = ("board", "changing", "generated", "map_changes", "orders", "position", "variant")

    def __init__(
        self,
        variant: Variant,
        board: Board,
        position: Position,
        orders: Mapping[str, list[str]],  # power -> order texts, as given
        changing: Mapping[str, Any] | None = None,  # the request itself when turnio plays it (``played``)
        map_changes: bool = False,  # whether the variant's map changes (its ``next`` then carries the map)
        generated: Mapping[str, Any] | None = None,  # a generated board's "board", as read
    ) -> None:
        self.variant, self.board, self.position, self.orders = variant, board, position, orders
        self.changing, self.map_changes, self.generated = changing, map_changes, generated


_PLAYED_KEYS = frozenset({*MODULE_KEYS, "board"})


def played(data: Mapping[str, Any], map_changes: bool) -> bool:
    """Whether ``turnio`` plays the request: a map that changes, or options, module state or a board."""
    return map_changes or not _PLAYED_KEYS.isdisjoint(data)


# --- reading a request ------------------------------------------------------------------------------

_UNIT_RE = re.compile(r"^(A/F|[AF]) ([A-Z0-9]{2,4}(?:/[NSEW]C)?)$")  # A/F: a fleet with an army aboard
_UNIT_TYPES: dict[str, UnitType] = {"A": UnitType.ARMY, "F": UnitType.FLEET}


def read_request(data: Any) -> Request:
    """Check a decoded JSON request and build the engine's values from it."""
    if not isinstance(data, dict):
        raise RequestError(f"a request is a JSON object, not {_json_kind(data)}")
    unknown = set(data) - REQUEST_KEYS
    generated = None
    if "board" in data:
        variant, generated = _generated(data)
    else:
        variant = _variant(data.get("variant"))
    changing = _CHANGING[variant]
    allowed = (TIMELINE_KEYS if changing else MODULE_KEYS) | ({"board"} if generated is not None else set())
    if unknown and not unknown <= allowed:
        keys, refused = sorted(REQUEST_KEYS | allowed), sorted(unknown - allowed)
        extra = "" if changing or unknown - TIMELINE_KEYS else f" ({variant.slug}'s map never changes)"
        raise RequestError(f"unknown field(s) {refused}{extra}; a request has {keys}")
    phase = _phase(data.get("phase"))
    board = _changing_board(variant, data) if changing else _board(variant, data.get("homes"))
    units = _units(board, _power_table(variant, data, "units", required=True))
    owners = _centres(board, variant, _power_table(variant, data, "centers", required=True))
    dislodged = _dislodged(board, phase, units, _power_table(variant, data, "dislodged"))
    orders = _orders(_power_table(variant, data, "orders"))
    position = Position(phase, units, owners, dislodged)
    if not played(data, changing):
        return Request(variant, board, position, orders)
    return Request(variant, board, position, orders, data, changing, generated)


def _generated(data: Mapping[str, Any]) -> tuple[Variant, dict[str, Any]]:
    """A generated board's variant, dealt as ``"board": {"seed": "...", "powers": 4}`` says (the seed
    defaults to the game secret, ``"options"``' ``"seed"``, as the server deals it), and the board read."""
    from dipserver.engine import icelords

    if data.get("variant") != icelords.SLUG:
        raise RequestError(
            f'"board" is for a generated board (variant "{icelords.SLUG}"), not for {data.get("variant")!r}'
        )
    raw = data["board"]
    if not isinstance(raw, dict) or set(raw) - {"seed", "powers"}:
        raise RequestError(f'"board" is {{"seed": "...", "powers": 2 to {len(icelords.POWERS)}}}')
    options = data.get("options")
    seed = raw.get("seed", options.get("seed") if isinstance(options, dict) else None)
    if not isinstance(seed, str) or not (seed.strip() and len(seed) <= 100):
        raise RequestError('"board": An Ice Lords seed is 1 to 100 characters, not blank')
    powers = raw.get("powers", len(icelords.POWERS))
    try:
        if type(powers) is not int:
            icelords.generate(seed, powers)  # refuses it, with the generator's own message
        variant = _dealt(seed, powers)
    except icelords.MapGenerationError as exc:
        raise RequestError(f'"board": Ice Lords: {exc}') from exc
    _hold(variant)
    return variant, {"seed": seed, "powers": powers}


_HELD: dict[Variant, None] = {}  # the generated variants this module's tables hold, oldest first
_MAX_HELD = 32  # a batch may deal a board per line: keep the tables for the latest few only


def _hold(variant: Variant) -> None:
    if variant in _HELD:
        return
    _HELD[variant] = None
    _CHANGING[variant] = False
    while len(_HELD) > _MAX_HELD:
        oldest = next(iter(_HELD))
        del _HELD[oldest]
        _CHANGING.pop(oldest, None)
        _DEFAULT_BOARDS.pop(oldest, None)
        _POWERS.pop(oldest, None)
        _POWER_SETS.pop(oldest, None)


@functools.lru_cache(maxsize=32)
def _dealt(seed: str, powers: int) -> Variant:
    # The board is a pure function of (seed, powers), as the server's ``_generated`` caches it.
    from dipserver.engine import icelords

    return icelords.generate(seed, powers).variant


def _generated_defaults() -> Mapping[str, Any]:
    from dipserver.engine import icelords

    return icelords.DEFAULT_OPTIONS  # blizzards on unless the request's options say otherwise


def _json_kind(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "true/false", type(None): "null"}
    return names.get(type(value), "a number")


_VARIANTS: dict[str, Variant] = {}


def _variant(slug: Any) -> Variant:
    if not isinstance(slug, str) or not slug:
        raise RequestError('"variant" is required: the slug of a variant, such as "standard"')
    # Kept here as well as in load_variant: finding its cache entry resolves a path on disk every time.
    variant = _VARIANTS.get(slug)
    if variant is None:
        try:
            variant = load_variant(slug)
        except VariantError as exc:
            from dipserver.engine import icelords

            if slug == icelords.SLUG:
                raise RequestError(
                    f'variant "{slug}" is generated: give "board": {{"seed": "...", "powers": 4}}'
                ) from None
            raise RequestError(f"unknown or broken variant {slug!r}: {exc}") from exc
        _CHANGING[variant] = _map_changes(variant)
        _VARIANTS[slug] = variant
    return variant


_CHANGING: dict[Variant, bool] = {}


def _map_changes(variant: Variant) -> bool:
    """Whether the variant's timeline changes its map: such requests are played by ``turnio``."""
    if not os.path.isfile(os.path.join(VARIANTS_ROOT, variant.slug, "timeline.toml")):
        return (
            False  # no timeline file, no changes (load_timeline's rule); spares importing the timeline code
        )
    from dipserver.engine.timelinecache import load_timeline
    from dipserver.engine.timelinedata import TimelineError

    try:
        timeline = load_timeline(variant)
    except TimelineError as exc:
        raise RequestError(f"variant {variant.slug!r} has a broken timeline: {exc}") from exc
    return bool(timeline.events or timeline.orders)


def _changing_board(variant: Variant, data: Mapping[str, Any]) -> Board:
    """The board of the request's ``"map"`` (default: the start map); ``"homes"``, if given, must agree."""
    from dipserver.adjudicator.turnio import MapRequestError, map_state

    try:
        state = map_state(variant, data.get("map"))
    except MapRequestError as exc:
        raise RequestError(str(exc)) from exc
    board = board_for(variant, state)
    homes = data.get("homes")
    if homes is None:
        return board
    if "map" not in data:
        return _board(variant, homes)
    table = _power_table(variant, {"homes": homes}, "homes")
    given = {
        p: power for power, provinces in table.items() for p in _strings(provinces, f'"homes" of {power}')
    }
    if given != dict(board.homes):
        raise RequestError('"homes" and "map" disagree on the home centres: give them in "map" only')
    return board


_PHASES: dict[str, Phase] = {}


def _phase(text: Any) -> Phase:
    phase = _PHASES.get(text) if type(text) is str else None
    if phase is not None:
        return phase
    if not isinstance(text, str):
        raise RequestError('"phase" is required: a phase name like "S1901M", "F1901R" or "W1901A"')
    try:
        phase = Phase.parse(text)
    except ValueError as exc:
        raise RequestError(f'"phase": {exc}') from exc
    if len(_PHASES) < 10_000:  # a game has a few phases a year; the cap only guards against odd input
        _PHASES[text] = phase
    return phase


_DEFAULT_BOARDS: dict[Variant, tuple[Board, dict[str, list[str]]]] = {}


def _board(variant: Variant, homes: Any) -> Board:
    """The variant's start map, or that map with the request's home centres."""
    cached = _DEFAULT_BOARDS.get(variant)
    if cached is None:
        board = board_for(variant, variant.map_state)
        cached = _DEFAULT_BOARDS[variant] = (board, _homes_data(variant, board))
    default, default_homes = cached
    if homes is None or homes == default_homes:  # what every "next" sends back: no need to look closer
        return default
    table = _power_table(variant, {"homes": homes}, "homes")
    given: dict[str, str] = {}
    for power, provinces in table.items():
        for prov in _strings(provinces, f'"homes" of {power}'):
            if prov not in default.supply_centres:
                raise RequestError(f'"homes" of {power}: {prov} is not a supply centre of {variant.slug}')
            if prov in given:
                raise RequestError(f'"homes": {prov} is a home centre of both {given[prov]} and {power}')
            given[prov] = power
    if given == dict(default.homes):
        return default
    return board_for(variant, replace(variant.map_state, homes=given))


def _power_table(
    variant: Variant, data: Mapping[str, Any], key: str, required: bool = False
) -> dict[str, Any]:
    """A ``{POWER: ...}`` field, every key a power of the variant."""
    table = data.get(key)
    if table is None:
        if required:
            raise RequestError(f'"{key}" is required: an object from power name to a list')
        return {}
    if not isinstance(table, dict):
        raise RequestError(f'"{key}" is an object from power name to a list, not {_json_kind(table)}')
    powers = _power_set(variant)
    for power in table:
        if power not in powers:
            unknown = sorted(set(table) - powers)[0]
            known = ", ".join(variant.powers)
            raise RequestError(
                f'"{key}": unknown power {unknown!r}; the powers of {variant.slug} are {known}'
            )
    return table


def _strings(value: Any, where: str) -> list[str]:
    if not _is_strings(value):
        raise RequestError(f"{where} must be a list of strings")
    return value  # type: ignore[no-any-return]


def _is_strings(value: Any) -> bool:
    """A list of strings. A typed loop, as this runs for every list of every request: compiled, it costs
    less than the interpreter's trick of ``str.join`` (which builds a string to throw away)."""
    if type(value) is not list:
        return False
    listed: list[Any] = value
    return all(isinstance(item, str) for item in listed)  # compiled to a loop, no generator made


def _unit(board: Board, text: str, power: str, where: str) -> Unit:
    m = _UNIT_RE.match(text)
    if m is None:
        raise RequestError(f'{where}: {text!r} is not a unit like "A PAR" or "F STP/SC"')
    letters, loc = m.group(1, 2)
    aboard = letters == "A/F"
    unit_type = _UNIT_TYPES[letters[-1]]  # a dict, not the enum's call: that runs Python code each time
    # Memoised (``unit_moved``): the same value, and a batch meets a unit's text at every position first.
    unit = Unit(power, unit_type, loc, True) if aboard else unit_moved(power, unit_type, loc)
    if unit.province not in board.provinces:
        raise RequestError(f"{where}: {text!r}: {unit.province} is not a province on this map")
    if not board.can_occupy(unit.type, unit.location):
        raise RequestError(f"{where}: {text!r}: {cannot_stand(board, unit)}")
    if unit.aboard and not board.is_water(unit.province):
        raise RequestError(f"{where}: {text!r}: an A/F (a fleet with an army aboard) is always at sea")
    return unit


# power -> text -> (its province, the unit), for texts already found valid on that board
_UNITS: dict[Board, dict[str, dict[str, tuple[str, Unit]]]] = {}

_K = TypeVar("_K")
_V = TypeVar("_V")


def _new_board_cache(caches: dict[Board, dict[_K, _V]], board: Board) -> dict[_K, _V]:
    """A fresh cache for one board; the boards kept are bounded, as requests may bring many home sets."""
    if len(caches) >= _MAX_BOARDS:
        caches.clear()
    found: dict[_K, _V] = {}
    caches[board] = found
    return found


def _units(board: Board, table: Mapping[str, Any]) -> dict[str, Unit]:
    by_power = _UNITS.get(board) or _new_board_cache(_UNITS, board)
    return _known_units(by_power, table) or _each_unit(board, by_power, table)


def _known_units(
    by_power: dict[str, dict[str, tuple[str, Unit]]], table: Mapping[str, Any]
) -> dict[str, Unit]:
    """The units when every text was met before and no two share a province; else ``{}``, and
    ``_each_unit`` reads them one by one (and says what is wrong)."""
    units: dict[str, Unit] = {}
    count = 0
    for power, texts in table.items():
        known = by_power.get(power)
        if known is None or type(texts) is not list:
            return {}
        listed: list[Any] = texts
        for text in listed:
            # A text not met yet, or not a string: read one by one (no exception: a batch misses often).
            found = known.get(text) if type(text) is str else None
            if found is None:
                return {}
            units[found[0]] = found[1]
        count += len(listed)
    return units if len(units) == count else {}


def _each_unit(
    board: Board, by_power: dict[str, dict[str, tuple[str, Unit]]], table: Mapping[str, Any]
) -> dict[str, Unit]:
    units: dict[str, Unit] = {}
    for power, texts in table.items():
        if not _is_strings(texts):
            raise RequestError(f'"units" of {power} must be a list of strings')
        known = by_power.get(power)
        if known is None:
            known = by_power[power] = {}
        for text in texts:
            found = known.get(text)
            if found is None:
                unit = _unit(board, text, power, f'"units" of {power}')
                found = known[text] = (unit.province, unit)
            prov, unit = found
            if prov in units:
                raise RequestError(f'"units": two units in {prov} ({units[prov]} and {text})')
            units[prov] = unit
    return units


def _centres(board: Board, variant: Variant, table: Mapping[str, Any]) -> dict[str, str]:
    """Each centre's owner; read in one pass when all is well, else one by one (with the reason)."""
    owners: dict[str, str] = {}
    count = 0
    centres = board.supply_centres
    for power, provinces in table.items():
        if type(provinces) is not list:
            return _each_centre(board, variant, table)
        listed: list[Any] = provinces
        try:
            for prov in listed:
                if prov not in centres or type(prov) is not str:
                    return _each_centre(board, variant, table)
                owners[prov] = power
        except TypeError:  # something unhashable in the list
            return _each_centre(board, variant, table)
        count += len(listed)
    return owners if len(owners) == count else _each_centre(board, variant, table)


def _each_centre(board: Board, variant: Variant, table: Mapping[str, Any]) -> dict[str, str]:
    owners: dict[str, str] = {}
    for power, provinces in table.items():
        if not _is_strings(provinces):
            raise RequestError(f'"centers" of {power} must be a list of strings')
        for prov in provinces:
            if prov not in board.supply_centres:
                raise RequestError(f'"centers" of {power}: {prov} is not a supply centre of {variant.slug}')
            if prov in owners:
                raise RequestError(f'"centers": {prov} is owned by both {owners[prov]} and {power}')
            owners[prov] = power
    return owners


def _dislodged(
    board: Board, phase: Phase, units: Mapping[str, Unit], table: Mapping[str, Any]
) -> dict[str, Dislodged]:
    if not any(table.values()):
        return {}
    if phase.type is not PhaseType.RETREATS:
        raise RequestError(f'"dislodged" units wait only in a retreat phase, and {phase} is not one')
    from dipserver.engine.dislodged import Dislodged  # a retreat phase's value, loaded with the first

    found: dict[str, Dislodged] = {}
    for power, entries in table.items():
        where = f'"dislodged" of {power}'
        if not isinstance(entries, list):
            raise RequestError(f'{where} must be a list of {{"unit": "A RUM", "retreats": ["SER"]}}')
        for entry in entries:
            if not isinstance(entry, dict) or not isinstance(entry.get("unit"), str):
                raise RequestError(f'{where}: each entry is {{"unit": "A RUM", "retreats": ["SER"]}}')
            unit = _unit(board, entry["unit"], power, where)
            standing = units.get(unit.province)
            if standing is not None and standing.power == power:
                raise RequestError(f"{where}: {entry['unit']}: {dislodged_by_own(board, unit, standing)}")
            retreats = _strings(entry.get("retreats", []), f"{where}: retreats of {entry['unit']}")
            for loc in retreats:
                problem = _retreat_problem(board, units, unit, loc)
                if problem:
                    raise RequestError(f"{where}: {entry['unit']} cannot retreat to {loc}: {problem}")
            if unit.province in found:
                raise RequestError(f'"dislodged": two dislodged units in {unit.province}')
            found[unit.province] = Dislodged(unit, "", tuple(retreats), entry.get("stays_fleet") is True)
    return found


def _retreat_problem(board: Board, units: Mapping[str, Unit], unit: Unit, loc: str) -> str:
    if not board.can_move(unit.type, unit.location, loc):
        return "it is not adjacent"
    occupant = units.get(province_of(loc))
    return f"{occupant} is there" if occupant is not None else ""


def _orders(table: dict[str, Any]) -> dict[str, list[str]]:
    for power, texts in table.items():
        if not _is_strings(texts):
            raise RequestError(f'"orders" of {power} must be a list of strings')
        listed: list[str] = texts
        if listed and max(map(len, listed)) > MAX_ORDER_TEXT:  # one pass in C for the usual request
            for number, text in enumerate(listed, start=1):
                # Refused with the whole request: an answer gives every text back, none may be that long.
                if (why := too_long(text)) is not None:
                    raise RequestError(f'"orders" of {power}, order {number}: {why}')
    return table
