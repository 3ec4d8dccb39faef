"""The step of a phase where the kinds apply their orders' effects (``Kind.apply``, ``kinds/effects.py``)
to the state the adjudication left: ``turn.play_phase`` loads it only when some order given has an effect
of its own (a conversion, a test's scorched earth), so a phase of standard orders never loads it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from dipserver.engine.kinds.effects import Effect, Effects, Given, apply_all
from dipserver.engine.kinds.registry import kind_of
from dipserver.engine.played import Played
from dipserver.engine.types import PhaseType

if TYPE_CHECKING:
    from dipserver.engine.adjudicate import PhaseResult
    from dipserver.engine.board import Board
    from dipserver.engine.mapstate import MapState
    from dipserver.engine.position import Position


def effects_after(
    board: Board,
    position: Position,
    orders: Mapping[str, Sequence[Any]],
    given_for: Mapping[int, Any],
    result: PhaseResult,
    map_state: MapState,
    stay_flags: Iterable[str],
) -> tuple[Effects, list[tuple[Given, Effect]]]:
    """The state the adjudication left, with every order's effect applied to it (``apply_all``), and the
    orders whose kind reported how it went, with that report. The Sahara flags of the phase before carry
    over, but for a movement phase, whose orders flag the fleets afresh."""
    results = {id(given_for[id(r.order)]): r for r in result.results if id(r.order) in given_for}
    after = result.position
    flags = set() if position.phase.type is PhaseType.MOVEMENT else set(stay_flags)
    units, dislodged, owners = dict(after.units), dict(after.dislodged), dict(after.owners)
    given = [Given(power, o, kind_of(o)) for power, os in orders.items() for o in os]
    effects = Effects(board, position, given, results, units, dislodged, owners, map_state, flags)
    return effects, apply_all(effects)


def applied(power: str, order: Any, effect: Effect, effects: Effects, texts: Mapping[int, str]) -> Played:
    """The result of an order whose kind applied it: its outcome and reason as the kind said, dislodged
    when the order it handed on for it (a converting army's hold) was."""
    stood_in = effects.results.get(id(order))
    dislodged = stood_in is not None and stood_in.dislodged
    return Played(power, order, texts.get(id(order), ""), effect.outcome, effect.reason, dislodged)
