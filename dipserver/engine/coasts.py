"""Named coasts of a changed map: one per separate body of water a province touches (ruling E5).

Three kinds of land province:

* the base map's multi-coast provinces (STP, SPA, BUL) keep their coast names. Each coast keeps the shore
  it had, loses seas that dried into land, and gains every sunk neighbour a fleet could have sailed to
  from that coast on the base map (Gascony joins Spain's north coast, Portugal both coasts);
* *canals* never split: provinces that are single-coast on the base map although their seas are not
  connected beside them (CON, DEN, KIE, SWE), and dried seas, which are single-coast land (E3);
* every other land province gets named coasts when the water around it falls into two or more separate
  groups — groups no chain of water provinces bordering that province joins. The names come from the
  variant's data (``[coast_names]``): a group takes the first name whose listed seas it contains.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping

from dipserver.engine.definition import Variant
from dipserver.engine.types import Terrain

Coasts = dict[str, dict[str, frozenset[str]]]
CoastNames = Mapping[str, tuple[tuple[str, frozenset[str]], ...]]


class CoastError(ValueError):
    """The water around a province splits into groups the variant's data gives no names for."""


def shore_provinces(
    variant: Variant, terrain: Mapping[str, Terrain], frozen_seas: bool | None = None
) -> frozenset[str]:
    """The provinces that draw a coastline: seas, and (``frozen_seas``) impassable former seas.

    ``frozen_seas`` defaults to the variant's ``impassable_seas`` setting, the one ``board.py`` reads:
    icebergs block ships but keep the coastline (Wall of Ice, rulings E4/E21); Sahara's impassable former
    seas dried into land first and are desert, not coast (``"closed"``).
    """
    if frozen_seas is None:
        frozen_seas = variant.impassable_seas == "shore"
    start = variant.map_state.terrain
    return frozenset(
        p
        for p, t in terrain.items()
        if t is Terrain.SEA or (frozen_seas and t is Terrain.IMPASSABLE and start.get(p) is Terrain.SEA)
    )


def water_groups(variant: Variant, province: str, waters: Iterable[str]) -> list[frozenset[str]]:
    """``waters`` around ``province`` split into the groups that border each other, largest first."""
    pool = set(waters)
    groups = []
    while pool:
        frontier = [pool.pop()]
        group = set(frontier)
        while frontier:  # a handful of seas at most: a plain flood fill beats building a graph
            for n in variant.borders[frontier.pop()]:
                if n in pool:
                    pool.discard(n)
                    group.add(n)
                    frontier.append(n)
        groups.append(frozenset(group))
    return sorted(groups, key=lambda g: (-len(g), sorted(g)))


@functools.lru_cache(maxsize=32)
def canals(variant: Variant) -> frozenset[str]:
    """Single-coast provinces whose base-map seas already form separate groups, e.g. Kiel."""
    start = variant.map_state
    return frozenset(
        p
        for p, t in start.terrain.items()
        if t is Terrain.LAND
        and p not in start.coasts
        and len(water_groups(variant, p, _seas_beside(variant, p, start.terrain))) > 1
    )


def _seas_beside(variant: Variant, province: str, terrain: Mapping[str, Terrain]) -> list[str]:
    return [n for n in variant.borders[province] if terrain.get(n) is Terrain.SEA]


def recompute_coasts(
    variant: Variant,
    terrain: Mapping[str, Terrain],
    names: CoastNames,
    frozen_seas: bool = True,
    previous: Mapping[str, Mapping[str, frozenset[str]]] | None = None,
    changed: Iterable[str] | None = None,
) -> Coasts:
    """The named coasts of every land province on a map with this terrain.

    Given the ``previous`` coasts and the provinces whose terrain ``changed``, only those provinces and
    their neighbours are recomputed: a coast depends on nothing further away.
    """
    shore = shore_provinces(variant, terrain, frozen_seas)
    if previous is None or changed is None:
        todo: Iterable[str] = terrain
        coasts: Coasts = {}
    else:
        near = {n for p in changed for n in variant.borders[p]} | set(changed)
        coasts = {p: dict(named) for p, named in previous.items() if p not in near}
        todo = near
    for province in todo:
        named = _coasts_of(variant, province, terrain, shore, names)
        if named:
            coasts[province] = named
    return coasts


def _coasts_of(
    variant: Variant, province: str, terrain: Mapping[str, Terrain], shore: frozenset[str], names: CoastNames
) -> dict[str, frozenset[str]]:
    if terrain.get(province) is not Terrain.LAND:
        return {}
    named_at_start, never_split = _fixed(variant)
    if province in named_at_start:
        return _base_coasts(variant, province, terrain, shore)
    if province in never_split:
        return {}
    groups = water_groups(variant, province, (n for n in variant.borders[province] if n in shore))
    return _name_groups(province, groups, names.get(province, ())) if len(groups) > 1 else {}


@functools.lru_cache(maxsize=32)
def _fixed(variant: Variant) -> tuple[frozenset[str], frozenset[str]]:
    """Provinces with named coasts at the start, and those that never split (canals, dried seas)."""
    start = variant.map_state
    dried = frozenset(p for p, t in start.terrain.items() if t is Terrain.SEA)
    return frozenset(start.coasts), canals(variant) | dried


def _base_coasts(
    variant: Variant, province: str, terrain: Mapping[str, Terrain], shore: frozenset[str]
) -> dict[str, frozenset[str]]:
    """A base multi-coast province: its coasts minus dried seas, plus the sunk land it faces."""
    start = variant.map_state
    named = {}
    for coast, waters in start.coasts[province].items():
        sunk = {
            n
            for n in variant.borders[province]
            if start.terrain.get(n) is Terrain.LAND
            and n in shore
            and frozenset((n, f"{province}/{coast}")) not in variant.fleet_exceptions
            and set(_seas_beside(variant, n, start.terrain)) & waters
        }
        current = frozenset(w for w in waters if w in shore) | sunk
        if current:
            named[coast] = current
    return named


def _name_groups(
    province: str, groups: list[frozenset[str]], names: tuple[tuple[str, frozenset[str]], ...]
) -> dict[str, frozenset[str]]:
    named: dict[str, frozenset[str]] = {}
    for group in groups:
        coast = next((c for c, anchors in names if anchors & group and c not in named), None)
        if coast is None:
            raise CoastError(
                f"{province} touches separate waters {[sorted(g) for g in groups]}; "
                f"[coast_names] {province} names none of them for {sorted(group)}"
            )
        named[coast] = group
    return named
