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
    counts: dict[str, int] = {}  # compiled, a loop of dict lookups beats Counter (a Python-level call)
    for owner in owners.values():
        counts[owner] = counts.get(owner, 0) + 1
    for unit in units.values():
        counts[unit.power] = counts.get(unit.power, 0) - (2 if unit.aboard else 1)
    return counts


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
