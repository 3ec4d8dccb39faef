"""What one player sees of a game, read from the API's answers: the board of the open phase, the map's
graph, and the timeline's changes still to come. The strategy reads only this (and the options).

The payload (``Seen``) is plain JSON, each part as an endpoint gives it::

    {
      "power": "FRANCE",
      "phase": "S1901M",
      "board": {...},     # GET /games/{id}/phases/{index}: "map", "units", "owners", "dislodged"
      "graph": {...},     # GET /games/{id}/graph: "borders" (province -> provinces), "coasts"
      "timeline": [...],  # GET /games/{id}/timeline: "entries" (year, hook, change, province, happened)
    }
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

Seen = Mapping[str, Any]

LAND, SEA = "land", "sea"


@dataclass(frozen=True)
class UnitSeen:
    power: str
    kind: str  # "A" or "F"
    location: str  # "STP/NC" for a fleet on a named coast

    @property
    def province(self) -> str:
        return self.location.split("/")[0]


@dataclass(frozen=True)
class Terrain:
    """A map's terrain and its borders as drawn: where armies and fleets may go on it."""

    terrain: Mapping[str, str]
    borders: Mapping[str, tuple[str, ...]]

    def passable(self, province: str) -> bool:
        return self.terrain.get(province) in (LAND, SEA)

    def coastal(self, province: str) -> bool:
        """Land touching a sea: where fleets may stand besides the seas."""
        return self.terrain.get(province) == LAND and any(
            self.terrain.get(n) == SEA for n in self.borders.get(province, ())
        )

    @cached_property
    def _adjacent(self) -> dict[tuple[str, str], list[str]]:
        return {}

    def neighbours(self, province: str, kind: str) -> list[str]:
        """Where a unit of ``kind`` may move from ``province``, by province (named coasts are not told
        apart: a fleet on a coast of a two-coast province may reach slightly fewer)."""
        key = (province, kind)
        if key not in self._adjacent:
            self._adjacent[key] = self._neighbours(province, kind)
        return self._adjacent[key]

    def _neighbours(self, province: str, kind: str) -> list[str]:
        around = self.borders.get(province, ())
        if kind == "A":
            return [n for n in around if self.terrain.get(n) == LAND]
        if self.terrain.get(province) == SEA:
            return [n for n in around if self.terrain.get(n) == SEA or self.coastal(n)]
        waters = {n for n in around if self.terrain.get(n) == SEA}
        return [
            n
            for n in around
            if self.terrain.get(n) == SEA or (self.coastal(n) and waters & set(self.borders.get(n, ())))
        ]

    def can_stand(self, province: str, kind: str) -> bool:
        if kind == "A":
            return self.terrain.get(province) == LAND
        return self.terrain.get(province) == SEA or self.coastal(province)

    def distances(self, start: str, kind: str) -> dict[str, int]:
        """Moves a unit of ``kind`` needs from ``start`` to each province it can reach."""
        return self.distances_from([start], kind)

    def distances_from(self, starts: Iterable[str], kind: str) -> dict[str, int]:
        """Moves a unit of ``kind`` needs from the nearest of ``starts`` to each province it can reach."""
        found = dict.fromkeys(starts, 0)
        queue = deque(found)
        while queue:
            here = queue.popleft()
            for there in self.neighbours(here, kind):
                if there not in found:
                    found[there] = found[here] + 1
                    queue.append(there)
        return found


@dataclass(frozen=True)
class View:
    """The board of the open phase as ``power`` sees it."""

    power: str
    phase: str  # "S1901M"
    units: tuple[UnitSeen, ...]
    owners: Mapping[str, str]
    centres: frozenset[str]
    homes: Mapping[str, str]
    terrain: Terrain
    dislodged: tuple[UnitSeen, ...] = ()
    timeline: tuple[Mapping[str, Any], ...] = field(default=())

    @property
    def season(self) -> str:
        return self.phase[0]

    @property
    def year(self) -> int:
        return int(self.phase[1:-1])

    @property
    def phase_type(self) -> str:
        return self.phase[-1]

    @cached_property
    def occupant(self) -> dict[str, UnitSeen]:
        return {u.province: u for u in self.units}

    @cached_property
    def mine(self) -> tuple[UnitSeen, ...]:
        return tuple(u for u in self.units if u.power == self.power)

    @cached_property
    def enemies(self) -> tuple[UnitSeen, ...]:
        return tuple(u for u in self.units if u.power != self.power)

    def owned(self, province: str) -> bool:
        return self.owners.get(province) == self.power

    def reach(self, units: Iterable[UnitSeen]) -> dict[str, int]:
        """How many of ``units`` could move into (or hold) each province this phase."""
        count: dict[str, int] = {}
        for unit in units:
            for place in [unit.province, *self.terrain.neighbours(unit.province, unit.kind)]:
                count[place] = count.get(place, 0) + 1
        return count

    @cached_property
    def enemy_reach(self) -> dict[str, int]:
        return self.reach(self.enemies)


def view_of(seen: Seen) -> View:
    """The ``View`` of a payload shaped as the module docstring says."""
    board, graph = seen["board"], seen["graph"]
    terrain = Terrain(
        dict(board["map"]["terrain"]),
        {p: tuple(ns) for p, ns in graph["borders"].items()},
    )
    return View(
        power=str(seen["power"]),
        phase=str(seen["phase"]),
        units=tuple(_unit(u) for u in board["units"]),
        owners=dict(board["owners"]),
        centres=frozenset(board["map"]["supply_centres"]),
        homes=dict(board["map"].get("homes", {})),
        terrain=terrain,
        dislodged=tuple(_unit(u) for u in board.get("dislodged", ())),
        timeline=tuple(e for e in seen.get("timeline", ()) if not e.get("happened")),
    )


def _unit(data: Mapping[str, Any]) -> UnitSeen:
    return UnitSeen(str(data["power"]), str(data["type"]), str(data["location"]))
