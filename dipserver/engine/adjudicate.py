"""The phase pipeline: one phase's orders in, its results and the next position out.

``adjudicate(board, position, orders_by_power)`` resolves the phase ``position.phase`` and moves on to the
next phase that has something to decide:

- after a movement phase, the retreat phase of the same season only if some dislodged unit can retreat
  (units with nowhere to go are disbanded at once);
- supply centres change hands after Fall, once the Fall retreats are done (or skipped);
- the Winter adjustment phase only if some power can build or must remove a unit;
- otherwise the next movement phase.

Everything is plain data, so a command line or a task can serialise a ``PhaseResult`` as it is.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING

from dipserver.engine.buildsites import has_adjustments
from dipserver.engine.convoys import NOWHERE_TO_RETREAT
from dipserver.engine.movement import MovementPhase
from dipserver.engine.orders import Order, OrderResult, Outcome
from dipserver.engine.position import Position
from dipserver.engine.results import Row
from dipserver.engine.types import HOME, Phase, PhaseType, Season, Unit

if TYPE_CHECKING:
    from dipserver.engine.board import Board
    from dipserver.engine.dislodged import Dislodged


@dataclass(frozen=True, slots=True)
class PhaseResult:
    phase: Phase  # the phase adjudicated
    # One per order given, then automatic disbands (with their reason): after a movement phase its
    # ``Results``, built as values when first read (``results.py``).
    results: Sequence[OrderResult]
    position: Position  # the start of the next phase to be played
    skipped: tuple[Phase, ...] = ()  # phases passed over because nobody had anything to decide

    @property
    def next_phase(self) -> Phase:
        return self.position.phase


def adjudicate(
    board: Board,
    position: Position,
    orders_by_power: Mapping[str, Iterable[Order]],
    *,
    build_rule: str | None = None,
    order_board: Board | None = None,
    checked: bool = False,
    abstraction: bool = False,
) -> PhaseResult:
    """Adjudicate ``position.phase`` on ``board`` (the map as it stands in that phase).

    ``build_rule`` is ``"home"`` (owned home centres) or ``"owned"`` (any owned centre); by default the
    board's variant decides, else the standard rule.

    ``order_board``, when given, judges the movement and retreat orders instead of ``board``: a rule
    module's overlay that closes provinces for one season (blizzards). Centres and the Winter decision
    always use ``board``, since such overlays never outlast the season.

    ``checked=True`` says the movement orders were read by the parser (``parse.parse_order``, or
    ``ordersheet.read_sheet``) for this position, which checks each order on its own: the movement phase
    (``movement.MovementPhase``) then skips those checks. Any other caller keeps the default, and
    with it the full checks and their messages.

    ``abstraction=True`` plays the movement phase by the Abstraction A/F rules (``movement``).
    """
    rule = build_rule or board.variant.build_rule or HOME
    phase = position.phase
    judged = order_board or board
    if phase.type is PhaseType.MOVEMENT:
        return _after_movement(board, judged, position, orders_by_power, rule, checked, abstraction)
    # A retreat or an adjustment phase loads its own module when one is first played: a movement never does.
    if phase.type is PhaseType.RETREATS:
        from dipserver.engine.retreats import resolve_retreats

        retreats = resolve_retreats(judged, position.units, position.dislodged, orders_by_power)
        return _advance(board, position, retreats.results, retreats.units, rule, [])
    from dipserver.engine.adjustments import resolve_adjustments

    adjustments = resolve_adjustments(board, position.units, position.owners, orders_by_power, rule)
    nxt = _phase(phase.year + 1, Season.SPRING, PhaseType.MOVEMENT)
    return PhaseResult(phase, adjustments.results, replace(position, phase=nxt, units=adjustments.units))


def _after_movement(
    board: Board,
    judged: Board,
    position: Position,
    orders_by_power: Mapping[str, Iterable[Order]],
    rule: str,
    checked: bool,
    abstraction: bool = False,
) -> PhaseResult:
    phase = position.phase
    given, units, dislodged = MovementPhase(judged, position.units, checked, abstraction).run(orders_by_power)
    disbanded: list[Row | OrderResult] = []
    waiting: dict[str, Dislodged] = {}
    for prov, d in dislodged.items():
        if d.retreats:
            waiting[prov] = d
        else:
            # Disbanded at once: the retreat phase's order, whose module loads with the first (as the
            # retreat and adjustment phases' own modules do, above).
            from dipserver.engine.lateorders import Disband

            why = NOWHERE_TO_RETREAT
            disbanded.append((d.unit.power, Disband(d.unit.location), Outcome.SUCCESS, why, False))
    results = given.plus(disbanded) if disbanded else given
    retreat = _phase(phase.year, phase.season, PhaseType.RETREATS)
    if waiting:
        nxt = _moved_on(position, retreat, units, position.owners, waiting)
        return PhaseResult(phase, results, nxt)
    return _advance(board, position, results, units, rule, [retreat])


def _advance(
    board: Board,
    position: Position,
    results: Sequence[OrderResult],
    units: dict[str, Unit],
    rule: str,
    skipped: list[Phase],
) -> PhaseResult:
    """From the end of a season's movement (and retreats) to the next phase with decisions to make."""
    phase = position.phase
    owners = dict(position.owners)
    if phase.season is Season.SPRING:
        nxt = _phase(phase.year, Season.FALL, PhaseType.MOVEMENT)
        return PhaseResult(phase, results, _moved_on(position, nxt, units, owners), tuple(skipped))
    centres = board.supply_centres
    for prov, unit in units.items():
        if prov in centres:
            owners[prov] = unit.power
    winter = _phase(phase.year, Season.WINTER, PhaseType.ADJUSTMENTS)
    if not has_adjustments(board, units, owners, rule):
        skipped.append(winter)
        winter = _phase(phase.year + 1, Season.SPRING, PhaseType.MOVEMENT)
    return PhaseResult(phase, results, _moved_on(position, winter, units, owners), tuple(skipped))


@functools.lru_cache(maxsize=4096)
def _phase(year: int, season: Season, kind: PhaseType) -> Phase:
    """The phase, made once and kept: a phase moves on to one of a year's five every time (``Phase`` is a
    frozen value, so one is as good as another equal to it)."""
    return Phase(year, season, kind)


def _moved_on(
    position: Position,
    phase: Phase,
    units: dict[str, Unit],
    owners: Mapping[str, str],
    dislodged: dict[str, Dislodged] | None = None,
) -> Position:
    """The next position (no unit dislodged unless ``dislodged``); fields this module does not know
    about (variant bookkeeping) carry over."""
    dislodged = {} if dislodged is None else dislodged
    if _PLAIN_POSITION:  # every field named here: half the cost of ``replace``, once a phase
        return Position(phase, units, owners, dislodged, position.last_occupants)
    return replace(position, phase=phase, units=units, owners=owners, dislodged=dislodged)


_PLAIN_POSITION = tuple(f.name for f in fields(Position)) == (
    "phase",
    "units",
    "owners",
    "dislodged",
    "last_occupants",
)
