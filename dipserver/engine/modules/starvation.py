"""Davis's limit on the Abstraction A/Fs (the ``davis_af_limit`` option; variant-rulings 5.6): an A/F
lasts three moves, and its army starves on the fourth.

Fred C. Davis's Abstraction rules let an army stay aboard a fleet for three consecutive moves; Stephen
Agar's revision, which the game plays by default, drops the limit. With the option, the moves each army
has ended aboard are counted (``ModuleState.aboard``, by the A/F's province, following it as it sails and
retreats). An army that ends a fourth move in a row aboard, not having landed, starves: it is removed at
the end of that move and the fleet that carried it stays, a plain fleet. The count starts again when an
army boards a fleet afresh (or stays aboard after a Fast Ferry that could not land).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from dipserver.engine.lateorders import Disband, Retreat
from dipserver.engine.modules.state import Aboard as Aboard
from dipserver.engine.orders import Move, OrderResult, Outcome
from dipserver.engine.position import Position
from dipserver.engine.types import Unit, province_of

MOVES_ABOARD = 3  # an A/F lasts three moves: the army starves if it ends a fourth aboard
STARVED = (
    "The army aboard starved: an A/F lasts three moves (Davis's limit), and it did not land in the fourth"
)


def after_movement(
    aboard: Aboard, before: Position, after: Position, results: Iterable[OrderResult]
) -> tuple[Position, Aboard, list[OrderResult]]:
    """The counts once a movement phase is over, each army aboard one move older; the armies aboard for
    a fourth move are removed (their fleets stay), each with a note for the results."""
    came_from = {
        province_of(r.order.dest): province_of(r.order.unit)
        for r in results
        if r.outcome is Outcome.SUCCESS and isinstance(r.order, Move)
    }

    def older(origin: str) -> int:
        was = before.units.get(origin)
        return (aboard.units.get(origin, 0) if was is not None and was.aboard else 0) + 1

    counts = {p: older(came_from.get(p, p)) for p, u in after.units.items() if u.aboard}
    stranded = {p: older(p) for p, d in after.dislodged.items() if d.unit.aboard}
    starved = [p for p, n in counts.items() if n > MOVES_ABOARD]
    notes = [_note(after.units[p]) for p in sorted(starved)]
    units = dict(after.units)
    for p in starved:
        units[p] = replace(units[p], aboard=False)
        del counts[p]
    dislodged = dict(after.dislodged)
    for p in [p for p, n in stranded.items() if n > MOVES_ABOARD]:
        notes.append(_note(dislodged[p].unit))
        dislodged[p] = replace(dislodged[p], unit=replace(dislodged[p].unit, aboard=False))
        del stranded[p]
    if not notes:
        return after, Aboard(counts, stranded), []
    return replace(after, units=units, dislodged=dislodged), Aboard(counts, stranded), notes


def after_retreats(aboard: Aboard, after: Position, results: Iterable[OrderResult]) -> Aboard:
    """The counts once the retreats are over: each A/F that retreated keeps its count (a retreat is not a
    move); those that stayed where no retreat was due keep theirs."""
    counts = {p: n for p, n in aboard.units.items() if _still_aboard(after, p)}
    for r in results:
        if r.outcome is Outcome.SUCCESS and isinstance(r.order, Retreat):
            origin, dest = province_of(r.order.unit), province_of(r.order.dest)
            if origin in aboard.dislodged and _still_aboard(after, dest):
                counts[dest] = aboard.dislodged[origin]
    return Aboard(counts, {})


def kept(aboard: Aboard, after: Position) -> Aboard:
    """The counts of the armies still aboard after any other phase (a removal may take one off)."""
    return Aboard({p: n for p, n in aboard.units.items() if _still_aboard(after, p)}, aboard.dislodged)


def _still_aboard(position: Position, prov: str) -> bool:
    unit = position.units.get(prov)
    return unit is not None and unit.aboard


def _note(unit: Unit) -> OrderResult:
    return OrderResult(unit.power, Disband(unit.location), Outcome.SUCCESS, STARVED)
