"""Who has adjustments to make in a Winter: each power's centres less its units (``adjustment_counts``),
the centres where it may build (``build_sites``), and whether anyone has a build to make or a unit to
remove (``has_adjustments``: else the Winter is skipped). Every phase may ask these (after each Fall, in
reading a build order, for the victory checks); the adjustment phase itself is ``adjustments.py``'s.

An A/F (Abstraction, a fleet with an army aboard) is two units: it counts twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from dipserver.engine.types import BESIDE, HOME, OWNED, Unit

if TYPE_CHECKING:
    from dipserver.engine.board import Board


def adjustment_counts(units: Mapping[str, Unit], owners: Mapping[str, str]) -> dict[str, int]:
    """Per power: centres owned minus units (positive: may build; negative: must remove)."""
    counts: dict[str, int] = {}
    _count_runs(counts, list(owners.values()), 1)
    powers: list[str] = []
    for unit in units.values():
        powers.append(unit.power)
        if unit.aboard:  # an A/F is two units
            powers.append(unit.power)
    _count_runs(counts, powers, -1)
    return counts


def _count_runs(counts: dict[str, int], powers: list[str], step: int) -> None:
    """Add ``step`` to each power's count in ``counts`` for each time ``powers`` names it, a run of the same
    power at a time. A position keeps each power's centres, and its units, mostly together (as they were
    read, and moved in place), so the dict, whose lookups are the cost of counting, is asked once a run
    instead of once an entry; a power is still counted first where it first appears."""
    start = 0
    for end in range(1, len(powers) + 1):
        if end == len(powers) or powers[end] != powers[start]:
            power = powers[start]
            counts[power] = counts.get(power, 0) + step * (end - start)
            start = end


def build_sites(
    board: Board, units: Mapping[str, Unit], owners: Mapping[str, str], power: str, build_rule: str = HOME
) -> list[str]:
    """Vacant centres where ``power`` may build now, by ``build_rule`` (``HOME``, ``OWNED`` or ``BESIDE``)."""
    return sorted(
        prov
        for prov, owner in owners.items()
        if owner == power and _may_build(board, units, prov, owner, build_rule)
    )


def _may_build(board: Board, units: Mapping[str, Unit], prov: str, owner: str, build_rule: str) -> bool:
    """Whether ``owner``, owning ``prov``, may build there now: a vacant, passable centre it may build in."""
    return (
        prov not in units
        and prov in board.supply_centres
        and board.terrain(prov).passable
        and (build_rule in (OWNED, BESIDE) or board.homes.get(prov) == owner)
        and (build_rule != BESIDE or _unit_beside(board, units, prov, owner))
    )


def _unit_beside(board: Board, units: Mapping[str, Unit], prov: str, power: str) -> bool:
    """Whether ``power`` has a unit in a province bordering ``prov`` (Ice Lords: recruiting needs one)."""
    return any(
        (unit := units.get(near)) is not None and unit.power == power for near in board.neighbours(prov)
    )


def has_adjustments(
    board: Board, units: Mapping[str, Unit], owners: Mapping[str, str], build_rule: str = HOME
) -> bool:
    """Whether any power has a build it could make or a unit it must remove: else the phase is skipped.

    Run after every Fall: it stops at the first power that must remove a unit; then every power with a
    centre to spare is looked for in one pass over the centres (``build_sites``' own test, ``_may_build``)."""
    builders = set()
    for power, delta in adjustment_counts(units, owners).items():
        if delta < 0:
            return True
        if delta > 0:
            builders.add(power)
    # ``any`` stops at the first site (compiled, a generator handed back would be made whole first).
    return bool(builders) and any(
        owner in builders and _may_build(board, units, prov, owner, build_rule)
        for prov, owner in owners.items()
    )
