"""Conditions on the game that make a timeline event fire (``when = { ... }`` in ``timeline.toml``).

A scheduled event fires at its year; a conditional one at each of its hooks, within its years, where its
condition holds on the position as the hook finds it. Three conditions:

- ``controls = ["MOS"]``: the power owns each listed supply centre and has a unit in each listed province
  that is not one (``power`` may be left out: then some one power does);
- ``centres = 10``: the power owns at least that many supply centres (or some power does);
- ``occupied = ["MUN"]``: a unit stands in each listed province (the power's, when ``power`` is given).

A condition reads the position alone, never the orders or the history, so a game's phases replay to the
same map; the changes it brings set a state (land, sea, impassable, a centre or none), so firing again
while the condition still holds changes nothing more.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dipserver.engine.position import Position

KINDS = ("controls", "centres", "occupied")
_KEYS = frozenset({*KINDS, "power"})


class ConditionError(ValueError):
    """A ``when`` table that cannot be read: the message says why (the timeline adds where)."""


@dataclass(frozen=True, slots=True)
class Condition:
    kind: str  # one of KINDS
    power: str | None = None  # None: any one power (controls, centres) or any unit (occupied)
    provinces: tuple[str, ...] = ()  # controls, occupied
    count: int = 0  # centres

    def holds(self, position: Position, centres: frozenset[str]) -> bool:
        """Whether the condition holds on ``position``, ``centres`` being the map's supply centres."""
        if self.kind == "occupied":
            units = position.units
            return all(p in units and self.power in (None, units[p].power) for p in self.provinces)
        powers = [self.power] if self.power is not None else sorted(set(position.owners.values()))
        if self.kind == "centres":
            owned: dict[str, int] = {}
            for owner in position.owners.values():
                owned[owner] = owned.get(owner, 0) + 1
            return any(owned.get(power, 0) >= self.count for power in powers)
        return any(self._controlled_by(power, position, centres) for power in powers)

    def _controlled_by(self, power: str, position: Position, centres: frozenset[str]) -> bool:
        for province in self.provinces:
            if province in centres:
                if position.owners.get(province) != power:
                    return False
            elif (unit := position.units.get(province)) is None or unit.power != power:
                return False
        return True

    def text(self) -> str:
        """The condition in words, e.g. ``"GERMANY controls MOS"``, ``"some power owns 10 centres"``."""
        who = self.power or "some power"
        if self.kind == "centres":
            return f"{who} owns {self.count} supply centres or more"
        listed = ", ".join(self.provinces)
        if self.kind == "controls":
            return f"{who} controls {listed}"
        return f"{self.power}'s units stand in {listed}" if self.power else f"units stand in {listed}"


def read_condition(raw: Any, provinces: Mapping[str, Any], powers: Mapping[str, Any]) -> Condition:
    """A ``when`` table read and checked against the variant's ``provinces`` and ``powers``."""
    if not isinstance(raw, dict):
        raise ConditionError('when is a table such as { controls = ["MOS"], power = "GERMANY" }')
    if unknown := set(raw) - _KEYS:
        raise ConditionError(
            f"when: unknown key(s) {sorted(unknown)}; it takes one of {list(KINDS)}, and power"
        )
    given = [kind for kind in KINDS if kind in raw]
    if len(given) != 1:
        raise ConditionError(f"when takes exactly one of {list(KINDS)} (got {given or 'none'})")
    kind, power = given[0], raw.get("power")
    if power is not None and power not in powers:
        raise ConditionError(f"when: {power!r} is not a power of this variant")
    value = raw[kind]
    if kind == "centres":
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ConditionError(
                f"when: centres is a whole number of supply centres, 1 or more (not {value!r})"
            )
        return Condition(kind, power, count=value)
    if not isinstance(value, list) or not value:
        raise ConditionError(f'when: {kind} is a non-empty list of provinces, such as ["MOS"]')
    if unknown_provinces := [p for p in value if not isinstance(p, str) or p not in provinces]:
        raise ConditionError(f"when: {unknown_provinces[0]!r} is not a province of this variant")
    return Condition(kind, power, provinces=tuple(value))
