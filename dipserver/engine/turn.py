"""One phase of any variant, played from plain data: the single path for server, CLI and tests.

``play_phase`` takes the map of the phase, the position, each power's order texts, the game's variant
options and secret (and, in a retreat phase, the Sahara stay-a-fleet flags given with that season's
movement orders) and returns everything a caller stores or shows:

1. each power's texts read on the phase's own board, the variant's conversion orders first
   (``conversions.parse_conversion``), then checked as a set by the kinds that have such a check
   (``Kind.check_together``: Deluge's limit on builds outside home centres), so an order refused there
   is ``invalid`` with the reason;
2. the standard orders adjudicated (a converting army holds); units without orders hold, and the
   adjudicator applies the civil-disorder defaults for retreats and adjustments;
3. the conversions applied: Deluge's armies becoming fleets after movement, Wall of Ice's fleets becoming
   armies after the Winter; Sahara's stay-a-fleet flags go to the timeline hooks;
4. the timeline hooks between this phase and the next run (E1, E30), and whether a Winter is played is
   decided again once the before-Winter hook has changed the centres: it is played when some power may
   build, must remove, or has a fleet that may become an army (Wall of Ice, rule 4);
5. the end judged with the variant's victory conditions (``victory.game_outcome``).

Rule modules (blizzards, supply lines) come with the options (``modules.split_options``): the phase is then
played by ``modules.phase.play`` with the ``module_state`` its opening produced, and the next phase is
opened (``modules.phase.open_phase``: blizzards drawn, supply traced) once the timeline has changed the map.

Nothing here knows about storage: ``dipserver/games/turn.py`` only converts snapshots to and from these
values.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeAlias

import dipserver.engine.modules as rules  # their play and state, loaded when a game first has modules
from dipserver.engine.adjudicate import PhaseResult, adjudicate
from dipserver.engine.board import Board, MapState, board_for
from dipserver.engine.buildsites import has_adjustments
from dipserver.engine.definition import Variant
from dipserver.engine.hooks import Hook, hooks_between
from dipserver.engine.modules import Modules, modules_for, split_options
from dipserver.engine.orderlines import PlayedRow, orders_handed_on, read_all
from dipserver.engine.orderlines import ReadLine as ReadLine
from dipserver.engine.orderlines import hand_on as hand_on
from dipserver.engine.orderlines import read_orders as read_orders
from dipserver.engine.orders import Order
from dipserver.engine.position import Position
from dipserver.engine.results import Built, rows_of
from dipserver.engine.timelinecache import load_timeline
from dipserver.engine.types import Phase, PhaseType, Season
from dipserver.engine.victory import game_outcome

if TYPE_CHECKING:
    from dipserver.engine.ending import Outcome as GameOutcome
    from dipserver.engine.kinds.conversion import ConversionOrder
    from dipserver.engine.modules import phase as module_phase
    from dipserver.engine.modules.phase import ModuleState, Opened
    from dipserver.engine.modules.supply import SupplyReport
    from dipserver.engine.played import Played

    AnyOrder: TypeAlias = Order | ConversionOrder


@dataclass(frozen=True)
class Turn:
    """What one phase produced. ``played`` says what became of each order and line, as data; ``results``
    are their records (``records.py``: ``power``, ``order`` (short notation, or the text as typed when it
    was refused), ``outcome`` (an ``Outcome`` value), ``reason``, ``dislodged``, ``kind``, ``unit``,
    ``from``, ``to``, ``via``), plus ``text`` (as typed; the short notation for orders the engine made
    up), made when first asked for."""

    phase: Phase  # the phase played
    lines: dict[str, list[ReadLine]]  # each power's lines as read
    # The orders handed on, in the order given; the ones made up; then the rest: made into ``Played`` values
    # when first read (``results.Built``; the command line answers from the rows).
    played: Sequence[Played]
    events: list[dict[str, Any]]  # the map changes between this phase and the next (timeline events)
    skipped: list[str]  # phases passed over because nobody had anything to decide
    map_state: MapState  # the map of the next phase
    position: Position  # the start of the next phase
    stay_flags: frozenset[str]  # Sahara flags still pending: given only when the next phase is a retreat
    outcome: GameOutcome | None  # the end of the game, or None while it goes on
    # Rule modules (all empty when none is on): the next phase as opened (its state to keep, blizzards
    # announced, supply traced), the supply check made after this phase, and module orders refused.
    opened: Opened | None = None
    check: SupplyReport | None = None
    module_data: dict[str, Any] | None = None  # ``Played.to_data()``: refused, check, state, as JSON
    # The phase's own position and board, which the records are written on.
    played_from: Position | None = field(default=None, repr=False, compare=False)
    board: Board | None = field(default=None, repr=False, compare=False)

    @property
    def next_phase(self) -> Phase:
        return self.position.phase

    @cached_property
    def orders(self) -> dict[str, list[str]]:
        """Each power's lines as read, in short notation (as typed when refused)."""
        return {power: [line.stored or line.text for line in read] for power, read in self.lines.items()}

    @cached_property
    def results(self) -> list[dict[str, Any]]:
        position = self.played_from or self.position
        return [p.record(position, self.board) for p in self.played]


def play_phase(
    variant: Variant,
    map_state: MapState,
    position: Position,
    order_texts: Mapping[str, Sequence[str] | str],
    *,
    options: Mapping[str, Any] | None = None,
    secret: str | None = None,
    stay_flags: Iterable[str] = (),
    module_state: ModuleState | None = None,
    end_year: int | None = None,
) -> Turn:
    """Play ``position.phase`` on ``map_state`` and go on to the next phase with decisions to make.

    ``options`` are the game's timeline options (``mode`` and the variant's switches; defaults filled
    in, unknown ones refused with ``TimelineError``); ``secret`` draws random-mode changes. ``stay_flags``
    matter only in a retreat phase: the provinces of the Sahara fleets told to stay fleets with the
    season's movement orders (the previous ``Turn.stay_flags``). ``blizzards`` and ``supply_lines`` in
    ``options`` switch the rule modules on; ``module_state`` is then what the phase's opening gave
    (``Turn.opened.state`` of the previous phase, or ``open_modules`` for the first). ``end_year`` is
    the game's last year (``None``: the variant's default, ``Variant.default_end_year``).
    """
    modules = modules_for(variant, options)
    options = load_timeline(variant).game_options(split_options(options)[1] if options else None)
    board = board_for(variant, map_state)
    # A game without rule modules has no module state (and makes none: it is four values).
    state = (module_state or rules.phase.ModuleState()) if modules.any else None
    read_with = modules if modules.any else None
    orders, texts, read_lines, unreadable = read_all(order_texts, board, position, read_with, state)

    plain, given_for, with_effects = orders_handed_on(orders)
    played: module_phase.Played | None = None
    if modules.any:
        assert state is not None
        played = _played_with_modules(variant, board, position, plain, modules, state)
        result = played.result
    else:
        # The orders were read here, on this board and position, and so checked each on its own.
        result = adjudicate(board, position, plain, checked=True)
    done = position.phase
    events: list[dict[str, Any]] = []
    if with_effects:
        from dipserver.engine.applying import applied, effects_after  # loaded only when an order has one

        effects, done_by = effects_after(board, position, orders, given_for, result, map_state, stay_flags)
        results = _order_results(result, given_for, {id(g.order) for g, _ in done_by}, texts)
        results += [applied(g.power, g.order, e, effects, texts) for g, e in done_by]
        new_position, map_state, flags = effects.position(result.position), effects.map_state, effects.flags
        events = effects.events
    else:  # no kind given has an effect of its own: the state is the adjudicator's, as it left it
        results = _order_results(result, given_for, (), texts)
        new_position = result.position
        flags = set() if done.type is PhaseType.MOVEMENT else set(stay_flags)
    results += unreadable

    skipped = [str(p) for p in result.skipped]
    if not _quiet(variant):
        map_state, new_position, hooked = _run_hooks(
            variant, options, secret, map_state, new_position, done, skipped, frozenset(flags)
        )
        events = events + hooked
    outcome = game_outcome(variant, map_state, new_position, done, end_year, options)
    pending = frozenset(flags) if new_position.phase.type is PhaseType.RETREATS else frozenset()
    turn = Turn(
        done,
        read_lines,
        Built(results, _played),
        events,
        skipped,
        map_state,
        new_position,
        pending,
        outcome,
        played_from=position,
        board=board,
    )
    if played is None:
        return turn
    opened = open_modules(variant, map_state, new_position, modules, played.state, secret)
    return replace(turn, opened=opened, check=played.check, module_data=played.to_data())


def _played(*row: Any) -> Played:
    """A ``Played`` value from its row, which ``Turn.played`` makes when first read (``results.Built``):
    ``played.py`` loads with the first, so that the command line, which reads the rows, never loads it."""
    from dipserver.engine.played import Played

    return Played(*row)


def _played_with_modules(
    variant: Variant,
    board: Board,
    position: Position,
    plain: dict[str, list[Order]],
    modules: Modules,
    state: ModuleState,
) -> module_phase.Played:
    """The phase adjudicated with the rule modules on: depots and Snow Storms go beside the unit orders,
    as ``module_phase.play``'s ``extra``."""
    extra = rules.state.ModuleOrders()
    for power in list(plain):
        plain[power], theirs = rules.state.split_orders(plain[power])
        extra = rules.state.ModuleOrders(extra.depots + theirs.depots, extra.storms + theirs.storms)
    return rules.phase.play(
        board, position, plain, modules, state, extra=extra, build_rule=variant.build_rule
    )


def _quiet(variant: Variant) -> bool:
    """Whether the timeline's hooks would leave everything as the phase left it: no event ever changes
    the map (so no centre is ever gained, and Deluge's record of the last occupants is never read), and
    no Winter waits on a fleet that may become an army."""
    timeline = load_timeline(variant)
    return not timeline.events and "convert_to_army" not in timeline.orders


def _order_results(
    result: PhaseResult,
    given_for: Mapping[int, AnyOrder],
    reported: Collection[int],
    texts: Mapping[int, str],
) -> list[PlayedRow | Played]:
    """One result per order handed on, in the order given, as the order given (a kind may hand on another
    in its place), but for those ``reported`` by their kind's own effect; then the orders the adjudicator
    made up itself (a disband for want of a retreat, civil disorder)."""
    played: list[PlayedRow | Played] = []
    # Rows in, rows out: ``Played`` values are made when ``Turn.played`` is first read.
    for power, handed_on, outcome, reason, dislodged in rows_of(result.results):
        order = given_for.get(id(handed_on))
        if order is None:  # made up by the adjudicator: no text was typed for it
            played.append((power, handed_on, "", outcome, reason, dislodged, False))
        elif id(order) not in reported:
            text = texts.get(id(order), "")
            played.append((power, order, text, outcome, reason, dislodged, False))
    return played


def open_modules(
    variant: Variant,
    map_state: MapState,
    position: Position,
    modules: Modules,
    state: ModuleState | None = None,
    secret: str | None = None,
) -> Opened:
    """Open ``position.phase`` for the rule modules on its map (after the timeline's changes): the
    blizzards of a movement phase drawn from ``secret`` and announced, everyone's supply traced."""
    board = board_for(variant, map_state)
    return rules.phase.open_phase(board, position, modules, state or rules.phase.ModuleState(), secret or "")


def _run_hooks(
    variant: Variant,
    options: Mapping[str, Any],
    secret: str | None,
    map_state: MapState,
    position: Position,
    done: Phase,
    skipped: list[str],
    flags: frozenset[str],
) -> tuple[MapState, Position, list[dict[str, Any]]]:
    """The timeline hooks between ``done`` and ``position.phase``; ``skipped`` is updated in place when
    the before-Winter hook decides the Winter afresh (E30)."""
    # Here, where a timeline changes something (``_quiet``): a game without one never loads the schedule.
    from dipserver.engine import conversions
    from dipserver.engine.timeline import apply_hook

    events: list[dict[str, Any]] = []
    nxt = position.phase

    def run(hook: Hook, year: int) -> None:
        nonlocal map_state, position
        step = apply_hook(variant, options, map_state, position, hook, year, flags=flags, secret=secret)
        map_state, position = step.map_state, step.position
        events.extend(dict(e) for e in step.events)

    def winter_needed() -> bool:  # a build, a removal, or a fleet that may become an army (Wall of Ice)
        board = board_for(variant, map_state)
        if has_adjustments(board, position.units, position.owners, variant.build_rule):
            return True
        return bool(conversions.winter_converters(board, position.units))

    for year, hook in hooks_between(done, nxt):
        winter = Phase(year, Season.WINTER, PhaseType.ADJUSTMENTS)
        if hook is Hook.AFTER_WINTER_ADJUSTMENTS and str(winter) in skipped and winter_needed():
            # The before-Winter hook created what makes the Winter worth playing.
            skipped.remove(str(winter))
            nxt = winter
            break
        run(hook, year)
        if hook is Hook.BEFORE_WINTER_ADJUSTMENTS and nxt == winter and not winter_needed():
            # The hook took away what made the Winter worth playing: skip it, run the rest.
            skipped.append(str(winter))
            nxt = Phase(year + 1, Season.SPRING, PhaseType.MOVEMENT)
            run(Hook.AFTER_WINTER_ADJUSTMENTS, year)
            break
    return map_state, replace(position, phase=nxt), events
