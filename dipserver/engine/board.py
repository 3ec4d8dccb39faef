"""The board of one phase: the variant's fixed geometry seen through that phase's ``MapState``.

``MapState`` is what the mutating variants change between phases (terrain, named coasts, centres, homes).
``Board`` derives every adjacency from geometry + map state once, into dicts of frozensets, so the
adjudicator's queries are plain lookups; ``board_for`` memoises boards per (variant, map state).

Derivation (variant-rulings §5.5, E21):
- armies move between passable land provinces that border;
- fleets move sea<->sea when the seas border, sea<->coastal location when the sea touches that location
  (for a named coast: the sea is in that coast's water list), and coast<->coast when the provinces border
  and the two locations share an adjacent *shore* province, minus the variant's exception list;
- impassable and absent provinces are never entered.

A *shore* province is water for the purpose of coastlines: a sea, or, when the variant says
``impassable_seas = "shore"`` (the default), an impassable province that was a sea at the start: Wall of
Ice's icebergs block ships but do not erase the coastline (E4/E21). Sahara says ``"closed"``: desert over
a dried sea carries no fleet along it.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Collection, Hashable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from dipserver.engine.mapstate import FrozenMap as FrozenMap
from dipserver.engine.mapstate import MapState as MapState
from dipserver.engine.types import Terrain, UnitType, coast_of, province_of
from dipserver.native import mypyc_attr

if TYPE_CHECKING:
    from dipserver.engine.definition import Variant


_EMPTY: frozenset[str] = frozenset()


# Serializable: compiled, a board is then unpickled (the variant cache) as a Python object is, without
# calling ``__init__``, and ``__getstate__``/``__setstate__`` below say what it keeps. With that alone
# mypyc's class would skip ``__init__`` when Python code calls ``Board(...)`` too (mypyc 1.19); a class
# open to interpreted subclasses runs it there (none is written: the blizzard overlay is a plain board).
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Board:
    """Variant geometry plus one ``MapState``, every adjacency precomputed. Build via ``board_for``.

    ``shores`` are provinces closed on this map that draw a coastline all the same, besides those the
    variant's ``impassable_seas`` rule names: a sea under a blizzard (``modules/blizzard.py``).
    """

    def __init__(self, variant: Variant, map_state: MapState, shores: frozenset[str] = _EMPTY) -> None:
        self.variant = variant
        self.map_state = map_state
        self.supply_centres: frozenset[str] = map_state.supply_centres
        self.homes: Mapping[str, str] = map_state.homes
        self._terrain = map_state.terrain
        # Derivation runs after every map change (issue 4 wants it well under 2 ms): plain sets and
        # dicts built once here, so the loops below never go through the query methods.
        terrain = dict(self._terrain.items())
        self._sea = frozenset(p for p, t in terrain.items() if t is Terrain.SEA)
        land = frozenset(p for p, t in terrain.items() if t is Terrain.LAND)
        passable = self._sea | land
        self.provinces: frozenset[str] = frozenset(p for p, t in terrain.items() if t is not Terrain.ABSENT)
        self._coasts: dict[str, tuple[str, ...]] = {
            p: tuple(sorted(named)) for p, named in map_state.coasts.items() if p in self.provinces
        }
        self._shore = self._shore_provinces(variant) | shores
        borders = variant.borders
        self._army = {p: frozenset(n for n in borders.get(p, _EMPTY) if n in land) for p in land}
        self._neighbours = {
            p: frozenset(n for n in borders.get(p, _EMPTY) if n in passable) for p in self.provinces
        }
        sea = self._sea
        # Every province's open seas (convoys.py's searches look up many), and the names convoys.py's
        # messages use, filled as they are first written: attributes, read on hot paths (typed as the dict
        # it is: compiled, its ``get`` is a C call, not a method looked up on a mapping).
        self.water_table: dict[str, frozenset[str]] = {p: near & sea for p, near in self._neighbours.items()}
        self.message_names: dict[str, str] = {}
        # The reader's memo of its answers on this board (``readings.py``), filled as texts come.
        self.readings: dict[Any, Any] = {}
        # convoys.py's searches, by (origin, destination, the seas fleets stand in): positions repeat the
        # same few fleets, and each search is a graph walk. Filled as they are first asked.
        self.sea_routes: dict[tuple[str, str, frozenset[str]], frozenset[str]] = {}
        self.minimal_routes: dict[tuple[str, frozenset[str]], dict[str, frozenset[str]]] = {}
        # The options' parts on this map (``kinds/offering.py``): by kind (the kind itself), then by the
        # units the options name (and where fleets carry armies, by the army and the fleets); and the
        # drawings of options offered (``options.py``). Filled as phases ask.
        self.offers: dict[Hashable, dict[Any, Any]] = {}
        self.option_drawings: dict[tuple[str, str, str], Any] = {}
        shore = self._shore
        self._land_waters = {p: frozenset(n for n in borders.get(p, _EMPTY) if n in shore) for p in land}
        self._fleet: dict[str, frozenset[str]] = {}
        self._fleet_provinces: dict[str, frozenset[str]] = {}
        self._reach_coasts: dict[tuple[str, str], tuple[str, ...]] = {}
        self._derive_fleet_moves(variant, land)
        # The move tables themselves, for the movement phase's loop over the orders (read there as one
        # lookup, not a method call per order); read-only, like the methods that read them.
        # Typed as the dicts they are (compiled, a dict's ``get`` is a C call); never written after this.
        self.army_table: dict[str, frozenset[str]] = self._army
        self.fleet_table: dict[str, frozenset[str]] = self._fleet
        self._convoy_reach: dict[str, frozenset[str]] = {}
        self._shore_lands: dict[str, frozenset[str]] = {}
        self._water_shores: dict[str, frozenset[str]] = {}  # ``water_shores``, filled on first use
        # ``numbers`` and ``by_number``, then ``reach_numbers`` and ``neighbourhood`` of an army's and of a
        # fleet's location, filled on first use.
        self._numbers: dict[str, int] = {}
        self.by_number: tuple[str, ...] = ()
        self._reach_numbers: tuple[dict[str, tuple[int, ...]], dict[str, tuple[int, ...]]] = ({}, {})
        self._neighbourhoods: tuple[dict[str, tuple[int, ...]], dict[str, tuple[int, ...]]] = ({}, {})
        self._into: dict[str, set[str]] = {}  # ``_movers_into``, filled on first use
        self._coastal = frozenset(p for p, waters in self._land_waters.items() if waters & sea)
        # Where an army may stand (``can_occupy``): the passable land provinces, never a coast; where a
        # fleet may: each sea and coastal location (a named coast, where there are some).
        self.army_locations: frozenset[str] = frozenset(self._army)
        self.fleet_positions: frozenset[str] = frozenset(self._fleet)

    # --- derivation -------------------------------------------------------------------------------

    def _shore_provinces(self, variant: Variant) -> frozenset[str]:
        from dipserver.engine.coasts import shore_provinces  # coasts imports this module

        return shore_provinces(variant, self._terrain, variant.impassable_seas == "shore")

    def _passable(self, prov: str) -> bool:
        return self._terrain.get(prov, Terrain.ABSENT).passable

    def _waters_of(self, prov: str) -> frozenset[str]:
        """Shore provinces touching a land province (any of its coasts)."""
        return self._land_waters.get(prov, _EMPTY)

    def _location_waters(self, loc: str) -> frozenset[str]:
        """Shore provinces a coastal location touches: a named coast's list, else the bordering ones."""
        prov, coast = province_of(loc), coast_of(loc)
        if coast is not None:
            return frozenset(w for w in self.map_state.coasts[prov][coast] if w in self._shore)
        return self._waters_of(prov)

    def fleet_locations(self, prov: str) -> tuple[str, ...]:
        """Where a fleet can stand in a province: the sea itself, each named coast, or the coastal land."""
        if prov in self._sea:
            return (prov,)
        if prov not in self._land_waters:
            return ()  # impassable or absent
        if prov in self._coasts:
            return tuple(f"{prov}/{c}" for c in self._coasts[prov])
        return (prov,) if self._land_waters[prov] else ()

    def _derive_fleet_moves(self, variant: Variant, land: frozenset[str]) -> None:
        """Fill ``_fleet`` (location -> locations), ``_fleet_provinces`` and ``_reach_coasts``."""
        sea, borders, exceptions = self._sea, variant.borders, variant.fleet_exceptions
        where = {p: self.fleet_locations(p) for p in sea | land}
        where = {p: locs for p, locs in where.items() if locs}
        # The shore each coastal location touches (a sea location has none: it *is* water).
        waters = {
            loc: self._location_waters(loc) for p, locs in where.items() if p not in sea for loc in locs
        }
        fleet, provinces, coasts = self._fleet, self._fleet_provinces, self._reach_coasts
        for src_prov, locations in where.items():
            near = [n for n in borders.get(src_prov, _EMPTY) if n in where]
            for src in locations:
                reach: list[str] = []
                reached: list[str] = []
                mine = waters.get(src, _EMPTY)
                for dst_prov in near:
                    if dst_prov in sea:
                        found = [dst_prov] if src_prov in sea or dst_prov in mine else []
                    elif src_prov in sea:
                        found = [dst for dst in where[dst_prov] if src in waters[dst]]
                    else:
                        found = [
                            dst
                            for dst in where[dst_prov]
                            if mine & waters[dst] and frozenset((src, dst)) not in exceptions
                        ]
                    if found:
                        reach += found
                        reached.append(dst_prov)
                        coasts[(src, dst_prov)] = tuple(sorted(found))
                fleet[src] = frozenset(reach)
                provinces[src] = frozenset(reached)

    # --- queries: all O(1) lookups ----------------------------------------------------------------

    def terrain(self, prov: str) -> Terrain:
        return self._terrain.get(province_of(prov), Terrain.ABSENT)

    def is_water(self, prov: str) -> bool:
        return province_of(prov) in self._sea

    @property
    def seas(self) -> frozenset[str]:
        """The open sea provinces (what ``is_water`` asks of one), as a set to intersect with."""
        return self._sea

    def is_land(self, prov: str) -> bool:
        return self._terrain.get(province_of(prov)) is Terrain.LAND

    def is_coastal(self, prov: str) -> bool:
        """Land touching at least one open (passable) sea: where fleets may be built (ruling E13/E25)."""
        return province_of(prov) in self._coastal

    def coasts(self, prov: str) -> tuple[str, ...]:
        """Named coasts, e.g. ``("NC", "SC")``; empty for a province with one coastline or none."""
        return self._coasts.get(prov, ())

    def coast_waters(self, loc: str) -> frozenset[str]:
        """Open seas a coastal location touches now (a named coast's list, else the bordering seas)."""
        if coast_of(loc) is None and province_of(loc) in self._coasts:
            return _EMPTY
        return frozenset(w for w in self._location_waters(loc) if self.is_water(w))

    def fleet_build_locations(self, prov: str) -> tuple[str, ...]:
        """Where a fleet may be built in ``prov``: the province if it touches open sea, or each named coast
        that does (a frozen or dried coast takes no new fleet, ruling E13)."""
        if not self.is_coastal(prov):
            return ()
        if prov not in self._coasts:
            return (prov,)
        return tuple(loc for loc in self.fleet_locations(prov) if self.coast_waters(loc))

    def army_moves(self, prov: str) -> frozenset[str]:
        return self._army.get(prov, _EMPTY)

    def fleet_moves(self, loc: str) -> frozenset[str]:
        """Locations (with coasts where the destination has named coasts) a fleet at ``loc`` can reach."""
        return self._fleet.get(loc, _EMPTY)

    def fleet_move_provinces(self, loc: str) -> frozenset[str]:
        """Provinces a fleet at ``loc`` can reach by some coast: what a fleet may support into."""
        return self._fleet_provinces.get(loc, _EMPTY)

    def can_occupy(self, unit_type: UnitType, loc: str) -> bool:
        """Whether a unit of this type may stand at this exact location on this map."""
        if unit_type is UnitType.ARMY:
            return coast_of(loc) is None and self.is_land(loc)
        return loc in self._fleet

    def can_move(self, unit_type: UnitType, src_loc: str, dst_loc: str) -> bool:
        if unit_type is UnitType.ARMY:
            return dst_loc in self._army.get(src_loc, _EMPTY)
        return dst_loc in self._fleet.get(src_loc, _EMPTY)

    def can_reach_province(self, unit_type: UnitType, src_loc: str, dst_prov: str) -> bool:
        """Whether the unit could move into some part of ``dst_prov`` (the test for supports)."""
        return dst_prov in self.reach_provinces(unit_type, src_loc)

    def reach_provinces(self, unit_type: UnitType, src_loc: str) -> frozenset[str]:
        """The provinces a unit at ``src_loc`` could move into some part of: where it may support."""
        return (self._army if unit_type is UnitType.ARMY else self._fleet_provinces).get(src_loc, _EMPTY)

    def numbers(self) -> dict[str, int]:
        """Each province's number: its place among them all sorted by name (``by_number``). The options
        find a phase's units by number (``kinds/offering.py``): a list's index where a name would be a
        dict's look-up, for every province near every unit."""
        if not self._numbers:
            self.by_number = _interned(sorted(self.provinces))
            self._numbers = {province: number for number, province in enumerate(self.by_number)}
        return self._numbers

    def reach_numbers(self, unit_type: UnitType, src_loc: str) -> tuple[int, ...]:
        """``reach_provinces`` by their ``numbers``, in order (kept per location: the options walk them
        every phase)."""
        kept = self._reach_numbers[unit_type is UnitType.FLEET]
        found = kept.get(src_loc)
        if found is None:
            numbers = self.numbers()
            found = kept[src_loc] = tuple(
                sorted(numbers[p] for p in self.reach_provinces(unit_type, src_loc))
            )
        return found

    def neighbourhood(self, unit_type: UnitType, src_loc: str) -> tuple[int, ...]:
        """The provinces, by their ``numbers`` in order, other than its own, from which a unit of some kind
        could move (not by convoy) into a province a unit at ``src_loc`` reaches: the units whose moves it
        might support."""
        kept = self._neighbourhoods[unit_type is UnitType.FLEET]
        found = kept.get(src_loc)
        if found is None:
            into = self._movers_into()
            near: set[str] = set()
            for province in self.reach_provinces(unit_type, src_loc):
                near.update(into.get(province, _EMPTY))
            near.discard(province_of(src_loc))
            numbers = self.numbers()
            found = kept[src_loc] = tuple(sorted(numbers[p] for p in near))
        return found

    def _movers_into(self) -> dict[str, set[str]]:
        """Each province, with the provinces from which an army or a fleet somewhere in them moves there."""
        found = self._into
        if found:
            return found
        for tables in (self._army, self._fleet_provinces):
            for src, reach in tables.items():
                for province in reach:
                    found.setdefault(province, set()).add(province_of(src))
        return found

    def fleet_reachable_coasts(self, src_loc: str, dst_prov: str) -> tuple[str, ...]:
        """Locations of ``dst_prov`` a fleet at ``src_loc`` can reach, sorted; used to infer a coast."""
        return self._reach_coasts.get((src_loc, dst_prov), ())

    def neighbours(self, prov: str) -> frozenset[str]:
        """Passable provinces bordering ``prov`` on this map (for convoy routes and distances)."""
        return self._neighbours.get(prov, _EMPTY)

    def water_neighbours(self, prov: str) -> frozenset[str]:
        """Open seas bordering ``prov``: where a convoy picks up, lands, or passes an army on."""
        return self.water_table.get(prov, _EMPTY)

    def convoy_landings(self, seas: Iterable[str], usable: Collection[str] | None = None) -> frozenset[str]:
        """Land provinces touching the open seas joined to ``seas`` through ``usable`` seas (default: all)."""
        reached = {s for s in seas if self.is_water(s)}
        frontier = list(reached)
        while frontier:
            for nxt in self.water_table.get(frontier.pop(), _EMPTY):
                if nxt not in reached and (usable is None or nxt in usable):
                    reached.add(nxt)
                    frontier.append(nxt)
        return frozenset(land for sea in reached for land in self._neighbours[sea] if self.is_land(land))

    def shore_lands(self, sea: str) -> frozenset[str]:
        """The land provinces bordering ``sea``: where an army carried through it may land (kept per sea:
        the options ask for each fleet's in every phase)."""
        found = self._shore_lands.get(sea)
        if found is None:
            lands = self._neighbours.get(sea, _EMPTY)
            found = self._shore_lands[sea] = frozenset(_interned(p for p in lands if self.is_land(p)))
        return found

    def water_shores(self) -> dict[str, frozenset[str]]:
        """Each open sea's provinces that have it among their open seas (``water_table`` read backwards):
        where a chain of seas through it may end. Made whole on first use."""
        found = self._water_shores
        if not found:
            ends: dict[str, set[str]] = {}
            for prov, seas in self.water_table.items():
                for sea in seas:
                    ends.setdefault(sea, set()).add(prov)
            found.update((sea, frozenset(provs)) for sea, provs in ends.items())
        return found

    def convoy_destinations(self, prov: str) -> frozenset[str]:
        """Land provinces an army in ``prov`` could reach through a chain of open seas, if fleets stood in
        them: whether a non-adjacent move can ever succeed. Computed per province on first use."""
        found = self._convoy_reach.get(prov)
        if found is None:
            landings = self.convoy_landings(self.water_neighbours(prov)) if self.is_land(prov) else _EMPTY
            found = self._convoy_reach[prov] = landings - {prov}
        return found

    def province_name(self, code: str) -> str:
        info = self.variant.provinces.get(province_of(code))
        return info.name if info else code

    def location_name(self, loc: str) -> str:
        """``"STP/NC"`` -> ``"St Petersburg (north coast)"``, for messages players read."""
        coast = coast_of(loc)
        name = self.province_name(loc)
        return f"{name} ({COAST_NAMES.get(coast, coast)})" if coast else name

    # Pickled (the variant cache) as what ``__init__`` derives, by name (a compiled board has no
    # ``__dict__``); the caches filled on demand start empty. The same pickle compiled and not.
    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _DERIVED}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name in _DERIVED:
            setattr(self, name, state[name])
        self.message_names = {}
        self.readings = {}
        self.sea_routes = {}
        self.minimal_routes = {}
        self.offers = {}
        self.option_drawings = {}
        self._convoy_reach = {}
        self._shore_lands = {}
        self._water_shores = {}
        self._numbers = {}
        self.by_number = ()
        self._reach_numbers = ({}, {})
        self._neighbourhoods = ({}, {})
        self._into = {}


# What ``__init__`` derives besides the caches ``__setstate__`` empties (the variant cache's test holds a
# board read back to every attribute of a derived one).
_DERIVED = (
    "variant",
    "map_state",
    "supply_centres",
    "homes",
    "_terrain",
    "_sea",
    "provinces",
    "_coasts",
    "_shore",
    "_army",
    "_neighbours",
    "water_table",
    "_land_waters",
    "_fleet",
    "_fleet_provinces",
    "_reach_coasts",
    "army_table",
    "fleet_table",
    "_coastal",
    "army_locations",
    "fleet_positions",
)


def _interned(provinces: Iterable[str]) -> tuple[str, ...]:
    """``provinces`` as the interpreter's one string of each name: the options (``kinds/offering.py``) build
    the keys of the tables they keep from these names (``by_number``, ``shore_lands``), so a look-up finds
    an identical key without comparing the text."""
    return tuple(sys.intern(p) for p in provinces)


COAST_NAMES = {"NC": "north coast", "SC": "south coast", "EC": "east coast", "WC": "west coast"}

# Boards read from the variant cache, handed out by ``board_for`` instead of deriving them again.
_PRELOADED: dict[tuple[Variant, MapState], Board] = {}


def preload_board(board: Board) -> None:
    """Let ``board_for`` return ``board`` (a start board read from the variant cache) for its map state."""
    _PRELOADED[(board.variant, board.map_state)] = board


@functools.lru_cache(maxsize=512)
def board_for(variant: Variant, map_state: MapState) -> Board:
    """The memoised board of a map state: built once, then shared by every phase with that map."""
    if _PRELOADED:
        board = _PRELOADED.pop((variant, map_state), None)
        if board is not None:
            return board
    return Board(variant, map_state)
