"""Scorched earth, an order kind defined outside the engine (``docs/engine.md``, "Adding a kind").

``A PAR scorches``, in a movement phase: the unit holds, and if it is still standing when the moves are
done, the supply centre it stands on is burnt: no longer a centre, owned by nobody. This module is the
whole kind — its order value, its ``Kind`` and its registration; a process loads it by naming it in
``DIPSERVER_ORDER_KINDS`` (``kinds/plugins.py``), or a test by importing it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from dipserver.engine.kinds.effects import DONE, Effect, Effects
from dipserver.engine.kinds.offering import Offering
from dipserver.engine.kinds.reading import Reading
from dipserver.engine.kinds.recording import place
from dipserver.engine.kinds.registry import Drawing, Kind, register
from dipserver.engine.kinds.words import unit_at
from dipserver.engine.orders import Hold, OrderError, Outcome
from dipserver.engine.position import Position
from dipserver.engine.types import PhaseType, Unit, province_of

_TEXT = re.compile(r"(?:[AF] )?([A-Z]{3}) SCORCHES")


@dataclass(frozen=True, slots=True)
class Scorch:
    """The unit at ``unit`` burns the supply centre it stands on."""

    unit: str


class ScorchKind(Kind):
    name = "scorch"
    order_class = Scorch
    rank = 40  # tried after the engine's own notations
    offered_in = (PhaseType.MOVEMENT,)
    position = 10  # after a unit's other options

    def read_text(self, reading: Reading, text: str) -> Scorch | None:
        m = _TEXT.fullmatch(" ".join(text.upper().split()))
        if m is None:
            return None
        if reading.phase is not PhaseType.MOVEMENT:
            raise OrderError("A centre is scorched with the movement orders of a Spring or Autumn")
        unit = reading.position.units.get(m.group(1))
        if unit is None or unit.power != reading.power:
            raise OrderError(f"There is no unit of yours in {reading.name(m.group(1))}")
        if unit.province not in reading.board.supply_centres:
            raise OrderError(
                f"{reading.name(unit.province)} is not a supply centre: there is nothing to burn"
            )
        return Scorch(unit.location)

    def offer(self, offering: Offering, unit: Unit) -> list[Scorch]:
        return [Scorch(unit.location)] if unit.province in offering.board.supply_centres else []

    def text(self, order: Scorch, position: Position) -> str:
        return f"{unit_at(position, order.unit)} scorches"

    def drawing(self, record: Mapping[str, Any]) -> Drawing:
        return Drawing("mark", place(record, "from"), label="Scorch", words="scorched")

    def for_adjudication(self, order: Scorch) -> Hold:
        return Hold(order.unit)  # the unit holds while it burns the centre

    def apply(self, effects: Effects, power: str, order: Scorch) -> Effect:
        prov = province_of(order.unit)
        if effects.outcome(order) is Outcome.DISLODGED:
            return Effect(Outcome.VOID, "The unit was dislodged before it could burn the centre")
        owner = effects.owners.pop(prov, None)
        state = effects.map_state
        homes = {p: home for p, home in state.homes.items() if p != prov}
        effects.map_state = replace(state, supply_centres=state.supply_centres - {prov}, homes=homes)
        effects.events.append({"kind": "centre_lost", "province": prov, "owner": owner or ""})
        return DONE


KIND = register(ScorchKind())
