"""The state a phase leaves behind, where each order's kind applies its effect (``Kind.apply``).

The adjudicator resolves the orders it is handed (moves, supports, convoys, retreats, builds) and gives the
next position. Then every order read is offered to its kind, in the order given (the orders given beside a
unit's own first, since they mark the unit the others move): a kind whose order changes the next state in
a way the adjudication does not (an army becoming a fleet, a fleet told to stay a fleet, a centre burnt)
changes it here and says how it went (``Effect``). godip's ``Order.Execute(State)`` is the same step.

``Effects`` holds what a kind may read (the position the phase began with, every power's orders, the
adjudicator's result of each order handed on) and what it may change (the next units and dislodged units,
the centre owners, the map, the Sahara stay-a-fleet flags, the events told to the players).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from dipserver.engine.orders import Outcome
from dipserver.engine.types import PhaseType

if TYPE_CHECKING:
    from dipserver.engine.board import Board, MapState
    from dipserver.engine.dislodged import Dislodged
    from dipserver.engine.orders import OrderResult
    from dipserver.engine.position import Position
    from dipserver.engine.types import Unit


@dataclass(frozen=True, slots=True)
class Effect:
    """How an order a kind applied went: its outcome, and the reason where it did not succeed."""

    outcome: Outcome
    reason: str = ""


DONE = Effect(Outcome.SUCCESS)


class OrderKind(Protocol):
    """What this step asks of an order's kind (``registry.Kind``)."""

    beside: bool

    def unit_key(self, order: Any) -> str | None: ...

    def destination(self, order: Any) -> str | None: ...

    def attacks(self, order: Any) -> str | None: ...

    def apply(self, effects: Effects, power: str, order: Any) -> Effect | None: ...


class Given(NamedTuple):
    """One order read, with whose it is and its kind (a tuple: a phase makes one for every order)."""

    power: str
    order: Any
    kind: OrderKind


@dataclass
class Effects:
    """The next state while the kinds apply their orders to it (see the module's docstring)."""

    board: Board  # the phase's board
    before: Position  # the position the phase began with
    given: Sequence[Given]  # every power's orders as read, in the order given
    results: Mapping[int, OrderResult]  # id of each order handed on -> the adjudicator's result
    units: dict[str, Unit]  # the next units, by province
    dislodged: dict[str, Dislodged]  # the next dislodged units, by province
    owners: dict[str, str]  # the next centre owners
    map_state: MapState  # the map the timeline's hooks start from
    flags: set[str] = field(default_factory=set)  # Sahara: where the fleets told to stay fleets stand
    events: list[dict[str, Any]] = field(default_factory=list)  # changes told to the players
    _attackers: dict[str, set[str]] | None = field(default=None, init=False, repr=False)  # worked out once

    @property
    def phase(self) -> PhaseType:
        return self.before.phase.type

    def outcome(self, order: object) -> Outcome | None:
        """The adjudicator's outcome of ``order`` (``None``: it was not handed to the adjudicator)."""
        result = self.results.get(id(order))
        return None if result is None else result.outcome

    def succeeded(self, order: object) -> bool:
        return self.outcome(order) is Outcome.SUCCESS

    def own_order(self, power: str, province: str) -> Any:
        """``power``'s order for its unit in ``province`` (not one given beside it), if it gave one."""
        for g in self.given:
            if g.power == power and not g.kind.beside and g.kind.unit_key(g.order) == province:
                return g.order
        return None

    def destination(self, order: object) -> str | None:
        """The province ``order`` (one of those given) takes its unit to, if it moves it."""
        return next((g.kind.destination(order) for g in self.given if g.order is order), None)

    def attackers(self, province: str) -> set[str]:
        """The powers that attacked ``province`` this phase: ordered a move into it that counts as one
        (``Kind.attacks``; a convoyed move whose every route broke does not)."""
        if self._attackers is None:
            found: dict[str, set[str]] = {}
            for g in self.given:
                target = g.kind.attacks(g.order)
                if target is not None and self.outcome(g.order) is not Outcome.NO_CONVOY:
                    found.setdefault(target, set()).add(g.power)
            self._attackers = found
        return self._attackers.get(province, set())

    def position(self, phase_after: Position) -> Position:
        """``phase_after`` (the adjudicator's next position) with the units, owners and dislodged units
        the kinds left."""
        return replace(phase_after, units=self.units, dislodged=self.dislodged, owners=self.owners)


def apply_all(effects: Effects) -> list[tuple[Given, Effect]]:
    """Every order's effect applied to ``effects``, the orders given beside a unit's own first (they mark
    the unit the others move); returns each order whose kind reported how it went, with that report,
    the units' own orders first, then those given beside them."""
    ranked = [g for g in effects.given if g.kind.beside] + [g for g in effects.given if not g.kind.beside]
    applied = [(g, e) for g in ranked if (e := g.kind.apply(effects, g.power, g.order)) is not None]
    return [a for a in applied if not a[0].kind.beside] + [a for a in applied if a[0].kind.beside]
