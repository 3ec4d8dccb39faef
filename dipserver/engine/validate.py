"""Consistency checks for any variant at any map state, as lists a person can read.

Two kinds of finding:
- a *problem* is a broken map or position: borders that disagree, a coast without water, a centre on
  sea, a unit where it cannot stand, a province of the start map that no unit could ever reach;
- a *note* is something the timeline does on purpose during play: provinces cut off by closures (Wall of
  Ice's ice isolates Britain). ``notes`` lists them; they never fail ``check``.

Used by the variant tests, by the timeline code after each map change, and by the ``check`` command. An
empty problem list means the map is sound. Graph questions (reachability) use networkx.
"""

from __future__ import annotations

import networkx as nx

from dipserver.engine.board import Board, MapState, board_for
from dipserver.engine.definition import Variant
from dipserver.engine.position import Position
from dipserver.engine.types import Terrain, UnitType, province_of


def validate(
    variant: Variant, map_state: MapState | None = None, position: Position | None = None
) -> list[str]:
    """Every problem of ``variant`` at ``map_state`` (default: its start) and of ``position``'s units.

    Provinces cut off from the rest are a problem on the start map only; after changes they are
    ``notes``."""
    state = map_state if map_state is not None else variant.map_state
    board = board_for(variant, state)
    problems = [*asymmetric_borders(variant), *dry_coasts(board)]
    if state == variant.map_state:
        problems += unreachable_provinces(board)
    problems += misplaced_centres(board)
    if position is not None:
        problems += misplaced_units(board, position) + misplaced_dislodged(board, position)
    return problems


def asymmetric_borders(variant: Variant) -> list[str]:
    graph = nx.DiGraph((a, b) for a, ns in variant.borders.items() for b in ns)
    return [
        f"{a} borders {b} but {b} does not border {a}"
        for a, b in sorted(graph.edges)
        if not graph.has_edge(b, a)
    ]


def dry_coasts(board: Board) -> list[str]:
    """Named coasts with no water at all (a frozen sea still counts: its coastline remains)."""
    problems = []
    for prov in sorted(board.provinces):
        for coast in board.coasts(prov):
            waters = board.map_state.coasts[prov][coast]
            if not any(
                board.terrain(w) is Terrain.SEA or board.terrain(w) is Terrain.IMPASSABLE for w in waters
            ):
                problems.append(f"coast {prov}/{coast} touches no water")
    return problems


def movement_graph(board: Board) -> nx.Graph:
    """Provinces joined wherever an army or a fleet can move between them on this map."""
    graph = nx.Graph()
    graph.add_nodes_from(p for p in board.provinces if board.terrain(p).passable)
    graph.add_edges_from((p, q) for p in board.army_locations for q in board.army_moves(p))
    graph.add_edges_from(
        (province_of(loc), province_of(dest))
        for loc in board.fleet_positions
        for dest in board.fleet_moves(loc)
    )
    return graph


def unreachable_provinces(board: Board) -> list[str]:
    """Passable provinces cut off from the main body of the map: no unit could ever get there."""
    graph = movement_graph(board)
    if graph.number_of_nodes() == 0:
        return ["the board has no passable province"]
    main = max(nx.connected_components(graph), key=len)
    return [
        f"{p} ({board.province_name(p)}) cannot be reached from the rest of the map"
        for p in sorted(graph.nodes - main)
    ]


def notes(variant: Variant, map_state: MapState) -> list[str]:
    """What a changed map does by design and a reader may want to know: provinces closures cut off."""
    if map_state == variant.map_state:
        return []
    return unreachable_provinces(board_for(variant, map_state))


def misplaced_centres(board: Board) -> list[str]:
    problems = [
        f"supply centre {centre} is on {board.terrain(centre).value} terrain"
        for centre in sorted(board.supply_centres)
        if board.terrain(centre) is not Terrain.LAND
    ]
    for home, power in sorted(board.homes.items()):
        if home not in board.supply_centres:
            problems.append(f"home centre {home} of {power} is not a supply centre")
    return problems


def misplaced_units(board: Board, position: Position) -> list[str]:
    problems = []
    for prov, unit in sorted(position.units.items()):
        if unit.province != prov:
            problems.append(f"{unit} is filed under {prov}")
        terrain = board.terrain(unit.province)
        if not terrain.passable:
            problems.append(f"{unit} of {unit.power} stands on {terrain.value} {unit.province}")
        elif not board.can_occupy(unit.type, unit.location):
            kind = "an army" if unit.type is UnitType.ARMY else "a fleet"
            problems.append(f"{unit} of {unit.power}: {kind} cannot stand at {unit.location}")
    return problems


def misplaced_dislodged(board: Board, position: Position) -> list[str]:
    """Dislodged units that cannot be: filed elsewhere, off the ground they stood on, or where a unit of
    their own power stands (the unit itself, which would then come back twice, or another: a unit is
    dislodged only by another power's)."""
    problems = []
    for prov, dislodged in sorted(position.dislodged.items()):
        unit = dislodged.unit
        if unit.province != prov:
            problems.append(f"dislodged {unit} is filed under {prov}")
        elif not board.terrain(prov).passable or not board.can_occupy(unit.type, unit.location):
            problems.append(f"dislodged {unit} of {unit.power} could not have stood at {unit.location}")
        standing = position.units.get(unit.province)
        if standing == unit:
            problems.append(f"{unit} of {unit.power} both stands in {unit.province} and is dislodged from it")
        elif standing is not None and standing.power == unit.power:
            problems.append(
                f"{unit} of {unit.power} is dislodged from {unit.province}, where its own {standing} stands"
            )
    return problems
