"""Processing phases exactly once, the deadline sweep, and the game master's phase controls.

Queued exactly when due: the last ready, the game master's "process now" and the deadline sweep mark a
phase queued in their transaction and send its task after the commit (``orders.phases_enqueue``); a
process that died in between leaves the phase to the sweep ``PUBLISH_WINDOW`` later (``requeue_at``).

Exactly once: ``phase_process`` runs in one durable transaction. It locks the Game row and then its
current Phase row, the one it is to process, in one statement (``FOR NO KEY UPDATE``, the lock an
``UPDATE`` takes, so it waits for the submissions in flight), and checks that the phase is open and due;
the results are then saved by an ``UPDATE ... WHERE status = 'open'`` that also marks it processed. A
second worker (or a duplicate message) waits on the game lock and then finds the phase no longer current
(or, with a revert in between, current and open again but not due). A worker killed mid-way
rolls everything back, the phase is still open and due, and the next sweep queues it again.

The results are told (mail, inbox, webhooks) by a task queued on commit. The same UPDATE that saves them
sets the phase's ``announce_due``, ``PUBLISH_WINDOW`` ahead (``REQUEUE_AFTER`` once the broker has the
task), and the task clears it once every channel has its rows; a message lost between the commit and the
broker (a crash, Redis down) is queued again by
``announcements_due_sweep``. A game that ends with the phase, like one that starts or press that is sent,
is told the same way through an ``Announcement`` row written with it (``services.announcements``). Every
channel stores by key, so telling twice tells nobody twice.
"""

from __future__ import annotations

import datetime as dt
import enum

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from dipserver.games import notifications
from dipserver.games.deadlines import deadline_after
from dipserver.games.endings import disorder_hooks_run, game_reopen_hooks_run, phase_open_hooks_run
from dipserver.games.errors import GameError
from dipserver.games.models import Game, Order, Phase, Power
from dipserver.games.services.announcements import PUBLISH_WINDOW, told_later
from dipserver.games.services.announcements import REQUEUE_AFTER as REQUEUE_AFTER
from dipserver.games.services.announcements import announcements_due_sweep as announcements_due_sweep
from dipserver.games.services.common import (
    game_locked,
    game_with_current_phase_locked,
    phase_locked,
    powers_locked,
)
from dipserver.games.services.games import game_finish
from dipserver.games.services.orders import phase_enqueue, phases_enqueue
from dipserver.games.services.powers import away_deadline
from dipserver.games.services.reminders import phase_reminders_sweep as phase_reminders_sweep
from dipserver.games.turn import Turn, powers_in_play_at, powers_to_act, turn_play
from dipserver.games.variants import game_variant


class Processed(enum.StrEnum):
    DONE = "processed"
    NOT_DUE = "not due"  # already processed, deadline moved, or a duplicate message
    NOT_IN_PLAY = "not in play"  # paused or finished
    GRACE = "grace period started"
    MISSING = "no such phase"


def phase_process(*, phase_id: int, now: dt.datetime | None = None, force: bool = False) -> Processed:
    """Adjudicate the phase if it is open and due (``force``: due or not), all writes in one transaction."""
    now = now or timezone.now()
    with transaction.atomic(durable=True):
        # Lock order: the Game row, the Phase row (both in one statement), the Power rows by id.
        game = game_with_current_phase_locked(phase_id)
        if game is None:
            return _not_current(phase_id)
        if game.status != Game.Status.ACTIVE:
            return Processed.NOT_IN_PLAY
        phase = game.current_phase
        if phase is None or not _due(phase, now, force):
            return Processed.NOT_DUE
        powers, texts = _seats_and_texts(game, phase)
        acting = powers_to_act(phase.snapshot)
        if not force and _grace_applies(game, phase, powers, acting, texts):
            phase.grace_used, phase.deadline = True, now + dt.timedelta(minutes=game.grace_minutes)
            phase.save(update_fields=["grace_used", "deadline"])
            return Processed.GRACE
        turn = phase_turn(game=game, phase=phase, texts=texts)
        if not _record(phase, turn, now):  # (only without row locks: SQLite's writers take turns instead)
            transaction.set_rollback(True)
            return Processed.NOT_DUE
        steady = {p.id for p in powers if p.status != Power.Status.ACTIVE}
        _missed_orders(game, powers, acting, texts, turn)
        _advance(game, phase, turn, now, powers)
        fallen = [p.id for p in powers if p.status == Power.Status.CIVIL_DISORDER and p.id not in steady]
        if fallen and not turn.over:
            disorder_hooks_run(game, fallen)  # bots take them over where the game says so (players app)
        # Queued even when nobody has an address: every player's inbox, and webhooks, hear the results.
        told_later("phase_results_send", {"phase_id": phase_id})
    return Processed.DONE


def phase_turn(*, game: Game, phase: Phase, texts: dict[str, list[str]] | None = None) -> Turn:
    """The phase's outcome computed from its stored orders, nothing saved (also the GM's dry run)."""
    return turn_play(
        variant=game_variant(game),
        options=game.options,
        secret=game.secret,
        snapshot=phase.snapshot,
        order_texts=_order_texts(phase) if texts is None else texts,
        end_year=game.end_year,
    )


def phase_dry_run(*, game_id: int) -> Turn:
    game = Game.objects.get(id=game_id)
    if game.current_phase_id is None:
        raise GameError(f"{game.name} has not started yet", code="not_started")
    return phase_turn(game=game, phase=Phase.objects.get(id=game.current_phase_id))


def phases_due_sweep(*, now: dt.datetime | None = None, limit: int = 5000) -> list[int]:
    """Queue every due phase not queued yet (after commit). Locked rows are being handled: skipped.

    A phase counts as queued from ``queued_at`` until its deadline moves past that time (extended, a grace
    period, reverted) or its ``requeue_at`` has come: ``PUBLISH_WINDOW`` after it was queued if its task
    never reached the broker (the process died between the commit and the publish), ``REQUEUE_AFTER``
    once it did (a message lost with the broker's data). Beat runs this every second; on the index of
    open phases by deadline it costs one short query when nothing is due (and one more to mark what it
    queues).
    """
    now = now or timezone.now()
    not_queued = Q(queued_at__isnull=True) | Q(queued_at__lt=F("deadline")) | Q(requeue_at__lte=now)
    with transaction.atomic():
        due = list(
            Phase.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(not_queued, status=Phase.Status.OPEN, deadline__lte=now, game__status=Game.Status.ACTIVE)
            .order_by("deadline")
            .values_list("id", flat=True)[:limit]
        )
        phases_enqueue(due, now)
    return due


@transaction.atomic
def phase_deadline_extend(*, game_id: int, deadline: dt.datetime, now: dt.datetime | None = None) -> Phase:
    """Move the open phase's deadline; a time without a zone or one already past is refused."""
    now = now or timezone.now()
    if timezone.is_naive(deadline):
        raise GameError("The new deadline has no time zone; give one (Z for UTC, or an offset)")
    if deadline <= now:
        now_there = now.astimezone(deadline.tzinfo).isoformat(timespec="minutes")
        raise GameError(
            f"The new deadline {deadline.isoformat(timespec='minutes')} has already passed "
            f"(it is now {now_there}); choose a later time"
        )
    game = game_locked(game_id)
    phase = phase_locked(game)
    if phase.status != Phase.Status.OPEN or game.status == Game.Status.FINISHED:
        raise GameError(f"{game.name} has no open phase to extend", code="phase_closed")
    phase.deadline = deadline
    phase.save(update_fields=["deadline"])
    return phase


@transaction.atomic
def phase_process_now(
    *, game_id: int, phase_name: str | None = None, now: dt.datetime | None = None
) -> Phase:
    """The game master's "process now": due at once, processed by a worker after commit. With
    ``phase_name`` (the phase the master saw), only that phase: if the game has moved on, nothing is
    processed and the refusal (``conflict``) says which phase it is in now."""
    game = game_locked(game_id)
    phase = phase_locked(game)
    if phase_name is not None and phase.name != phase_name:
        raise GameError(
            f"{game.name} is in {phase.name} now, not {phase_name}: nothing was processed. "
            f"Look at {phase.name} first, then ask again.",
            code="conflict",
        )
    if phase.status != Phase.Status.OPEN or game.status != Game.Status.ACTIVE:
        raise GameError(f"{game.name} has no open phase in play", code="phase_closed")
    phase.deadline = now or timezone.now()
    phase.save(update_fields=["deadline"])
    phase_enqueue(phase.id, phase.deadline)
    return phase


@transaction.atomic
def phase_revert(*, game_id: int, index: int, now: dt.datetime | None = None) -> Phase:
    """Reopen phase ``index`` and delete everything after it. Its orders stay, to be revised; random map
    changes come out the same because every draw depends only on the game secret."""
    now = now or timezone.now()
    game = game_locked(game_id)
    target = Phase.objects.select_for_update().filter(game=game, index=index).first()
    if target is None:
        raise GameError(f"{game.name} has no phase number {index}", code="not_found")
    Phase.objects.filter(game=game, index__gt=index).delete()
    target.status, target.processed_at, target.grace_used, target.reminder_sent = (
        Phase.Status.OPEN,
        None,
        False,
        False,
    )
    target.announce_due = None  # open again: nothing of it to tell
    target.orders, target.results, target.events, target.skipped = {}, [], [], []
    target.deadline = deadline_after(
        now, game.phase_minutes[target.name[-1]], game.deadline_time, game.deadline_zone
    )
    target.save()
    powers = powers_locked(game)
    alive = powers_in_play_at(game_variant(game), target.snapshot)
    for power in powers:
        power.ready = False
        if power.status == Power.Status.ELIMINATED and power.name in alive:
            power.status = Power.Status.ACTIVE
    Power.objects.bulk_update(powers, ["ready", "status"])
    was_over = game.status == Game.Status.FINISHED
    game.current_phase = target
    game.status, game.result, game.winners, game.finished_at = Game.Status.ACTIVE, Game.Result.NONE, [], None
    game.save(update_fields=["current_phase", "status", "result", "winners", "finished_at"])
    if was_over:
        game_reopen_hooks_run(game)
    return target


# --- the steps of processing ---------------------------------------------------------------------------


def _order_texts(phase: Phase, seats: list[Power] | None = None) -> dict[str, list[str]]:
    """Each power's order texts for the phase, powers in the order of their first orders, each power's
    in the order written (``seats``: the game's, if already read)."""
    if seats is None:
        seats = list(Power.objects.filter(game_id=phase.game_id))
    names = {seat.id: seat.name for seat in seats}
    # Sorted here rather than by ORDER BY: building the ORM's ORDER BY costs more CPU than the sort.
    rows = sorted(Order.objects.filter(phase_id=phase.id).order_by().values_list("id", "power_id", "text"))
    texts: dict[str, list[str]] = {}
    for _, power_id, text in rows:
        texts.setdefault(names[power_id], []).append(text)
    return texts


def _not_current(phase_id: int) -> Processed:
    """Why a phase that is not its game's current phase is not processed (no lock needed: it is not
    current, so it is not open; a revert that reopens it gives it a deadline ahead)."""
    status = Phase.objects.filter(id=phase_id).values_list("game__status", flat=True).first()
    if status is None:
        return Processed.MISSING
    return Processed.NOT_IN_PLAY if status != Game.Status.ACTIVE else Processed.NOT_DUE


def _seats_and_texts(game: Game, phase: Phase) -> tuple[list[Power], dict[str, list[str]]]:
    """The seats, locked (last in the lock order), and each power's order texts."""
    seats = powers_locked(game)
    return seats, _order_texts(phase, seats)


def _grace_applies(
    game: Game, phase: Phase, powers: list[Power], acting: set[str], texts: dict[str, list[str]]
) -> bool:
    if not game.grace_minutes or phase.grace_used:
        return False
    return any(p.status == Power.Status.ACTIVE and p.name in acting and p.name not in texts for p in powers)


def _due(phase: Phase, now: dt.datetime, force: bool) -> bool:
    """Open, and its deadline passed (``force``: open)."""
    if phase.status != Phase.Status.OPEN:
        return False
    return force or (phase.deadline is not None and phase.deadline <= now)


def _record(phase: Phase, turn: Turn, now: dt.datetime) -> bool:
    """Mark the phase processed and save its outcome, in one statement; False if it was not open."""
    phase.status, phase.processed_at = Phase.Status.PROCESSED, now
    # Cleared by the results task once they are told; muted (the demo's history): nothing to tell.
    # Due again within seconds if the process dies before the broker has the task (services.announcements).
    phase.announce_due = now + PUBLISH_WINDOW if notifications.notifications_on() else None
    phase.orders, phase.results, phase.events, phase.skipped = (
        turn.orders,
        turn.results,
        turn.events,
        turn.skipped,
    )
    fields = ("status", "processed_at", "announce_due", "orders", "results", "events", "skipped")
    still_open = Phase.objects.filter(id=phase.id, status=Phase.Status.OPEN)
    return bool(still_open.update(**{name: getattr(phase, name) for name in fields}))


def _missed_orders(
    game: Game, powers: list[Power], acting: set[str], texts: dict[str, list[str]], turn: Turn
) -> None:
    """Count missed phases; at the game's limit a power falls into civil disorder and its seat is offered.
    Powers no longer in play (E17: no unit, no dislodged unit that may retreat, no centre to build on)
    are eliminated.

    Written as one UPDATE per distinct new state (usually none or one): ``bulk_update`` builds a CASE
    expression per row and costs more than the whole adjudication."""
    alive = turn.in_play
    changes: dict[tuple[int, str, bool], list[int]] = {}
    for power in powers:
        missed, status, seat_open = power.missed_phases, power.status, power.seat_open
        if power.name in acting and status != Power.Status.ELIMINATED:
            if power.name in texts:
                missed = 0
            else:
                missed += 1
                if missed >= game.missed_limit and status == Power.Status.ACTIVE:
                    status, seat_open = Power.Status.CIVIL_DISORDER, True
        if power.name not in alive:
            status = Power.Status.ELIMINATED
        if (missed, status, seat_open) != (power.missed_phases, power.status, power.seat_open):
            changes.setdefault((missed, status, seat_open), []).append(power.id)
            power.missed_phases, power.status, power.seat_open = missed, status, seat_open  # as saved
    for (missed, status, seat_open), ids in changes.items():
        Power.objects.filter(id__in=ids).update(missed_phases=missed, status=status, seat_open=seat_open)
    if any(p.ready for p in powers):
        Power.objects.filter(game=game, ready=True).update(ready=False)
        for power in powers:
            power.ready = False


def _next_deadline(game: Game, turn: Turn, now: dt.datetime, powers: list[Power]) -> dt.datetime:
    """The next phase's deadline: its length from now, no earlier than the return of a player on vacation
    (``powers`` as ``_missed_orders`` left them)."""
    minutes = game.phase_minutes[turn.next_snapshot["phase"][-1]]
    return away_deadline(game, deadline_after(now, minutes, game.deadline_time, game.deadline_zone), powers)


def _advance(game: Game, phase: Phase, turn: Turn, now: dt.datetime, powers: list[Power]) -> None:
    nxt = Phase(
        game=game,
        index=phase.index + 1,
        name=turn.next_snapshot["phase"],
        variant_version=phase.variant_version,
        snapshot=turn.next_snapshot,
        status=Phase.Status.PROCESSED if turn.over else Phase.Status.OPEN,
        deadline=None if turn.over else _next_deadline(game, turn, now, powers),
    )
    nxt.save(force_insert=True)
    game.current_phase = nxt
    game.save(update_fields=["current_phase"])  # and version + 1
    if turn.over:
        result = {"win": Game.Result.SOLO, "draw": Game.Result.DRAW}.get(turn.result, Game.Result.NO_WINNER)
        game_finish(game=game, result=result, winners=list(turn.winners), now=now)
    else:
        phase_open_hooks_run(game)  # bots in seats order (players app), after the commit
