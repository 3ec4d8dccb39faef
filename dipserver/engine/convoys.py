"""Convoy routes and retreat options: the searches of the movement phase over the board's seas, apart from
the phase itself (``movement.py``) so that the order checks and the options can use them alone.

The searches read the board's table of open seas, and message names are kept in the board's own cache;
``movement.py`` re-exports everything here.
"""

from __future__ import annotations

from collections.abc import Collection, Container, Iterable, Mapping
from typing import TYPE_CHECKING

from dipserver.engine.types import province_of

if TYPE_CHECKING:
    from dipserver.engine.board import Board
    from dipserver.engine.resolver import Decisions
    from dipserver.engine.resolver.route import ConvoyRoute

_NONE: frozenset[str] = frozenset()


def water_neighbours(board: Board, prov: str) -> frozenset[str]:
    """Open seas bordering ``prov``: where a convoy can pick up or land an army, or pass on to."""
    return board.water_neighbours(prov)


# Reasons the movement phase gives (movement.py and adjudicate.py), in one place.
DISRUPTED = "The convoy was disrupted"
PARADOX = "Convoy paradox: by the Szykman rule this fleet does not convoy"
NOWHERE_TO_RETREAT = "Dislodged with nowhere to retreat to"


def place_name(board: Board, loc: str) -> str:
    """A location's name for messages ("St Petersburg (north coast)"), remembered in the board's names."""
    names = board.message_names
    name = names.get(loc)
    if name is None:
        name = board.location_name(loc)
        if len(names) < 4096:  # a map's locations are finite; the cap only guards odd input
            names[loc] = name
    return name


def unit_name(board: Board, text: str) -> str:
    """ "The army in Paris", from a unit's text ("A PAR"), remembered in the board's names."""
    names = board.message_names
    name = names.get(text)
    if name is None:
        kind = "army" if text[0] == "A" else "fleet"
        name = names[text] = f"The {kind} in {board.location_name(text[2:])}"
    return name


_MEMO_CAP = 65_536  # searches kept per board; the cap only guards a long-running process's memory


def sea_route(board: Board, origin: str, dest: str, seas: Iterable[str]) -> frozenset[str]:
    """The seas of ``seas`` that lie on some chain from ``origin`` to ``dest`` (both land provinces);
    remembered on the board, since positions repeat the same fleets."""
    usable = seas if isinstance(seas, frozenset) else frozenset(seas)
    key = (origin, dest, usable)
    memo = board.sea_routes
    found = memo.get(key)
    if found is None:
        near = board.water_table
        forward = joined_seas(board, near.get(origin, _NONE) & usable, usable)
        if forward:
            backward = joined_seas(board, near.get(dest, _NONE) & forward, forward)
            found = frozenset(forward & backward)
        else:
            found = _NONE
        if len(memo) < _MEMO_CAP:
            memo[key] = found
    return found


def necessary_fleets(board: Board, origin: str, dest: str, seas: Iterable[str]) -> set[str]:
    """The seas of ``seas`` that some *minimal* convoy route from ``origin`` to ``dest`` needs.

    A minimal route is a chain of seas none of which could be left out: each sea touches only its
    neighbours in the chain, only the first touches the origin and only the last the destination. A fleet on
    no such chain is not needed by any convoy, and its convoy order is illegal (DATC 6.G.19).
    """
    usable = seas if isinstance(seas, frozenset) else frozenset(seas)
    return set(minimal_routes(board, origin, usable).get(dest, _NONE))


def minimal_routes(board: Board, origin: str, seas: frozenset[str]) -> dict[str, frozenset[str]]:
    """``necessary_fleets`` of ``origin`` through ``seas`` for every destination at once: by each land
    province a minimal chain can end at, the seas of its minimal chains. One walk of the chains from
    ``origin`` (a chain ends for a destination at its first sea touching it, and goes on for the others);
    remembered on the board, since positions repeat the same fleets. Read only."""
    key = (origin, seas)
    memo = board.minimal_routes
    found = memo.get(key)
    if found is None:
        near = board.water_table
        at_origin = near.get(origin, _NONE)
        chains: dict[str, list[frozenset[str]]] = {}  # by destination, the seas of each chain ending there
        for first in at_origin & seas:
            _extend(board, near, seas, at_origin, chains, [], _NONE, first)
        found = {dest: _union(ending) for dest, ending in chains.items()}
        if len(memo) < _MEMO_CAP:
            memo[key] = found
    return found


def _extend(
    board: Board,
    near: dict[str, frozenset[str]],
    usable: frozenset[str],
    at_origin: frozenset[str],
    chains: dict[str, list[frozenset[str]]],
    chain: list[str],
    touched: frozenset[str],
    sea: str,
) -> None:
    """Add ``sea`` to ``chain`` (whose seas touch the lands ``touched``): the chain's seas go to ``chains``
    under each land ``sea`` is the first of the chain to touch; then go on with every sea after it. A
    module function, not a closure calling itself: that would be a reference cycle per walk."""
    for at in range(len(chain) - 1):
        if sea in near[chain[at]]:
            return  # a shortcut past the last sea: not minimal
    chain.append(sea)
    ends = board.shore_lands(sea)
    first_touched = ends - touched
    if first_touched:
        seas = frozenset(chain)  # one set for every land this chain ends at, shared by them
        for dest in first_touched:
            ending = chains.get(dest)
            if ending is None:
                chains[dest] = [seas]
            else:
                ending.append(seas)
        touched = touched | first_touched
    for nxt in near[sea] & usable:
        if nxt not in chain and nxt not in at_origin:
            _extend(board, near, usable, at_origin, chains, chain, touched, nxt)
    chain.pop()


def _union(sets: list[frozenset[str]]) -> frozenset[str]:
    return sets[0] if len(sets) == 1 else frozenset().union(*sets)


def joined_seas(board: Board, start: Collection[str], usable: frozenset[str] | set[str]) -> set[str]:
    """The seas of ``start`` (open seas) and the seas of ``usable`` joined to them through seas of
    ``usable``: where a chain of fleets standing in ``usable`` reaches from ``start``."""
    near = board.water_table
    seen = set(start)
    stack = list(start)
    while stack:
        for nxt in near[stack.pop()]:
            if nxt in usable and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


_PROVINCES: dict[str, str] = {}


def _province(loc: str) -> str:
    """``province_of`` with a memo: the legality checks ask for it a few hundred times per phase."""
    prov = _PROVINCES.get(loc)
    if prov is None:
        prov = province_of(loc)
        if len(_PROVINCES) < 4096:  # locations come from a finite map; the cap only guards odd input
            _PROVINCES[loc] = prov
    return prov


def convoy_route(
    board: Board, army: str, target: str, fleets: Iterable[str], index: Mapping[str, int]
) -> ConvoyRoute:
    """The route graph of the ``fleets`` (by unit number) that could carry the army in ``army`` to
    ``target``. Its value's module loads with the first (``resolver/route.py``): most phases have none."""
    from dipserver.engine.resolver.route import ConvoyRoute

    near = board.water_table
    seas = sea_route(board, army, target, fleets)
    start = tuple(index[s] for s in sorted(near.get(army, _NONE) & seas))
    finish = frozenset(index[s] for s in near.get(target, _NONE) & seas)
    links = {index[s]: tuple(index[t] for t in sorted(near[s] & seas)) for s in seas}
    return ConvoyRoute(start, finish, links)


def contested_provinces(
    movers_to: Mapping[str, list[int]], occupied: Container[str], decisions: Decisions, opponent: list[int]
) -> set[str]:
    """Provinces a standoff left empty after a real contest: not a move whose convoy broke, nor one that
    lost a head-to-head battle (DATC 6.H.9). No unit may retreat there."""
    path, success = decisions.path, decisions.success
    return {
        target
        for target, movers in movers_to.items()
        if target not in occupied
        and any(path[m] and not (opponent[m] >= 0 and success[opponent[m]]) for m in movers)
    }


def retreat_options(
    board: Board,
    loc: str,
    fleet_moves: Iterable[str] | None,
    occupied: Container[str],
    contested: Container[str],
    closed: str | None,
) -> tuple[str, ...]:
    """Where a unit dislodged at ``loc`` may retreat: ``fleet_moves`` for a fleet, ``None`` for an army."""
    candidates = board.army_moves(loc) if fleet_moves is None else fleet_moves
    return tuple(
        sorted(
            x
            for x in candidates
            if (p := _province(x)) not in occupied and p not in contested and p != closed
        )
    )
