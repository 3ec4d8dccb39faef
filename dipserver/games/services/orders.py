"""Orders and readiness: a power submits and revises its orders until the deadline.

Submitting is on the hot path (every power of every game, many times a phase), so it locks only what it
needs: the current Phase row ``FOR SHARE`` (the powers of one game submit side by side) and the power's own
row. Processing takes the Game lock and then claims the phase with an ``UPDATE``, which waits for every
submission holding the share lock; a submission arriving after the claim waits for processing to commit and
then finds the phase processed. An order thus either lands before the phase is processed (and is part of
it) or after, and is then refused with the phase's name — never lost. The lock order stays Game, Phase,
Power: submitting just skips the first.
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerUnreachable

from dipserver.engine import Phase as EnginePhase
from dipserver.games.errors import GameError
from dipserver.games.jobs import job_send
from dipserver.games.mappers import order_drawing
from dipserver.games.models import Game, Order, Phase, Power
from dipserver.games.phase_boards import phase_board
from dipserver.games.services.announcements import PUBLISH_WINDOW, REQUEUE_AFTER
from dipserver.games.services.common import (
    game_locked,
    game_phase_title,
    phase_locked,
    phase_named_or_conflict,
    powers_locked,
    seat_of,
)
from dipserver.games.turn import orders_read, powers_to_act
from dipserver.games.variants import game_variant

# What order entry reads of a game: never the JSON it does not need.
_GAME_FIELDS = (
    "id",
    "name",
    "status",
    "variant",
    "variant_version",
    "secret",
    "board",
    "options",
    "current_phase_id",
)

# The same, in the model's column order, as ``Model.from_db`` takes a partial row.
_GAME_COLUMNS = tuple(f.attname for f in Game._meta.concrete_fields if f.attname in _GAME_FIELDS)

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Rejection:
    line: int
    text: str
    reason: str


@dataclass(frozen=True)
class OrdersVersion:
    """Which write of a power's orders a client has seen: the phase and the power's ``orders_version``.
    ``tag`` is its strong ETag, ``"<phase id>.<version>"``; versions only grow, so a tag never recurs."""

    phase_id: int
    version: int

    @property
    def tag(self) -> str:
        return f'"{self.phase_id}.{self.version}"'


@dataclass(frozen=True)
class Submission:
    phase: str
    version: OrdersVersion
    accepted: list[str] = field(default_factory=list)  # normalised, as stored
    rejected: list[Rejection] = field(default_factory=list)
    drawings: list[dict[str, Any]] = field(
        default_factory=list
    )  # the accepted orders' (mappers.order_drawing)

    @property
    def ok(self) -> bool:
        return not self.rejected


@transaction.atomic
def orders_submit(
    *,
    game_id: int,
    user: Any,
    text: str,
    phase: str | None = None,
    now: dt.datetime | None = None,
    expected: str | None = None,
) -> Submission:
    """Replace the user's orders for the current phase with the valid lines of ``text``.

    ``phase`` is the phase the player was looking at (``S1903M``); clients should always send it, so
    orders written for a phase that has just been processed are refused rather than applied to the next.
    ``expected`` is the orders' tag the client last saw (``If-Match``); if another write came in since,
    nothing is stored and the refusal's code is ``precondition_failed``. It is compared under the power's
    row lock, so two writers of one power cannot both pass it.
    Every line is checked on that phase's map; rejected lines come back with the reason, accepted ones
    are stored (so one typo does not cost the other orders).
    """
    now = now or timezone.now()
    game, current = _game_and_phase_shared(game_id)
    if phase is not None:
        _same_phase(phase, current, game)
    _open_for_orders(game, current, now)
    seat = _seat_locked_and_bumped(game, user)
    if seat.status == Power.Status.ELIMINATED:
        raise GameError(
            f"{seat.name.title()} has been eliminated and has no orders to give", code="eliminated"
        )
    if expected is not None:
        _unchanged_since(expected, OrdersVersion(current.id, seat.orders_version - 1))
    view = phase_board(game, current.id)
    lines = orders_read(
        text, view.board, view.position, seat.name, modules=view.modules, module_state=view.module_state
    )
    accepted = [line.stored for line in lines if line.order is not None]
    drawings = [
        order_drawing(seat.name, line.order, view.position, view.board, line.stored)
        for line in lines
        if line.order is not None
    ]
    rejected = [Rejection(line.number, line.text, line.error) for line in lines if line.error is not None]
    _orders_replace(current, seat, accepted)
    if seat.status == Power.Status.CIVIL_DISORDER:
        # Back at the table: the seat is no longer on offer.
        seat.status, seat.missed_phases, seat.seat_open = Power.Status.ACTIVE, 0, False
        seat.save(update_fields=["status", "missed_phases", "seat_open"])
    version = OrdersVersion(current.id, seat.orders_version)
    return Submission(current.name, version, accepted, rejected, drawings)


def orders_version_of(*, phase_id: int, power_id: int) -> OrdersVersion:
    """The version of a power's orders for a phase, as ``orders_submit`` compares it."""
    version = Power.objects.filter(id=power_id).values_list("orders_version", flat=True).first()
    return OrdersVersion(phase_id, version or 0)


def _unchanged_since(expected: str, current: OrdersVersion) -> None:
    """``If-Match``: ``*`` or a list of strong tags, one of which must be the current one (RFC 9110)."""
    tags = [candidate.strip() for candidate in expected.split(",")]
    if "*" in tags or current.tag in tags:
        return
    raise GameError(
        "Your orders were changed since you read them (by another window, device or bot): read them "
        "again, then send yours.",
        code="precondition_failed",
    )


@transaction.atomic
def power_ready_set(
    *,
    game_id: int,
    user: Any,
    ready: bool = True,
    phase: str | None = None,
    now: dt.datetime | None = None,
) -> bool:
    """Mark the user's power ready (or not) for ``phase``, the phase the player was looking at (refused,
    code ``conflict``, once the game is in another: a late "ready" never lands on the next phase).
    Returns whether that made every active power ready, in which case the phase is due at once and its
    processing is queued after commit."""
    now = now or timezone.now()
    game = game_locked(game_id)
    current = phase_locked(game)
    if phase is not None:
        phase_named_or_conflict(game, current.name, phase)
    _open_for_orders(game, current, now)
    powers = powers_locked(game)
    seat = seat_of(powers, user)
    seat.ready = ready
    seat.save(update_fields=["ready"])
    acting = powers_to_act(current.snapshot, game_variant(game))
    waiting = [p for p in powers if p.status == Power.Status.ACTIVE and p.name in acting and not p.ready]
    if not ready or waiting:
        return False
    current.deadline = now
    current.save(update_fields=["deadline"])
    phase_enqueue(current.id, now)
    return True


def phase_enqueue(phase_id: int, now: dt.datetime | None = None) -> None:
    """Queue processing once the current transaction commits (a rollback sends nothing)."""
    phases_enqueue([phase_id], now or timezone.now())


def phases_enqueue(phase_ids: list[int], now: dt.datetime) -> None:
    """Mark the phases queued at ``now``, so the deadline sweep does not queue them again, and queue their
    processing once the current transaction commits. Until the broker has the task they count as queued
    for ``PUBLISH_WINDOW`` only: a process that dies between the commit and the publish leaves them to
    the sweep within seconds (``REQUEUE_AFTER`` once published, ``_phase_send``)."""
    Phase.objects.filter(id__in=phase_ids).update(queued_at=now, requeue_at=now + PUBLISH_WINDOW)
    for phase_id in phase_ids:
        transaction.on_commit(functools.partial(_phase_send, phase_id, now))


def _phase_send(phase_id: int, queued_at: dt.datetime) -> None:
    """Send the task, then mark the phase as published: queued again ``REQUEUE_AFTER`` after it was queued
    (unless processed or queued again meanwhile: then it is not this queuing's to mark). With the broker
    unreachable, leave the phase to the deadline sweep. The phase is already due in the database, so what
    was asked for (ready, process now) stands and is answered."""
    try:
        job_send("phase_process", phase_id)
    except BrokerUnreachable as exc:
        logger.warning("broker unreachable, phase %s is left to the deadline sweep: %s", phase_id, exc)
        Phase.objects.filter(id=phase_id).update(queued_at=None)  # nothing went out: the sweep queues it
        return
    published = Phase.objects.filter(id=phase_id, status=Phase.Status.OPEN, queued_at=queued_at)
    published.update(requeue_at=queued_at + REQUEUE_AFTER)


def _game_and_phase_shared(game_id: int) -> tuple[Game, Phase]:
    """The game (the fields order entry reads) and its current phase (no snapshot), the phase share-locked:
    submissions of one game run side by side, processing's claim waits for them, and they wait for it
    (then reading the phase processed). One round trip on PostgreSQL, in SQL of its own: the ORM locks
    rows only ``FOR UPDATE`` (the powers of a game would take turns), not ``FOR SHARE``. That statement is
    held to what the ORM reads by ``tests/integration/test_postgres_statements.py`` (CI, PostgreSQL)."""
    if connection.vendor == "postgresql":
        columns = ", ".join(f"g.{f}" for f in _GAME_COLUMNS)
        sql = (
            f"SELECT {columns}, p.name, p.status, p.deadline FROM games_game g"
            " JOIN games_phase p ON p.id = g.current_phase_id WHERE g.id = %s FOR SHARE OF p"
        )
        # A plain cursor (a RawQuerySet costs more CPU than the statement), the values converted as the
        # ORM would (the JSON columns arrive as text).
        with connection.cursor() as cursor:
            cursor.execute(sql, [game_id])
            row = cursor.fetchone()
        if row is not None:
            pairs = zip(_converters(), row, strict=False)  # the phase's columns follow the game's
            values = [v if v is None or c is None else c(v, None, connection) for c, v in pairs]
            seen = Game.from_db(connection.alias, _GAME_COLUMNS, values)
            name, status, deadline = row[len(_GAME_COLUMNS) :]
            phase = Phase(
                id=seen.current_phase_id, game_id=seen.id, name=name, status=status, deadline=deadline
            )
            return seen, phase
    # SQLite (no row locks: its writers take turns anyway), or no row: find out which is missing.
    game = Game.objects.only(*_GAME_FIELDS).filter(id=game_id).first()
    if game is None:
        raise GameError(f"There is no game {game_id}", code="not_found")
    phase_id = game.current_phase_id
    phases = Phase.objects.only("id", "game_id", "name", "status", "deadline")
    found = phases.filter(id=phase_id).first() if phase_id is not None else None
    if found is None:
        raise GameError(f"{game.name} has not started yet", code="not_started")
    return game, found


@functools.cache
def _converters() -> tuple[Any, ...]:
    """Each of ``_GAME_COLUMNS``' ``from_db_value`` (the JSON fields'), or None, found once."""
    return tuple(getattr(Game._meta.get_field(name), "from_db_value", None) for name in _GAME_COLUMNS)


def _orders_replace(phase: Phase, seat: Power, texts: list[str]) -> None:
    """The seat's orders for the phase become ``texts``, in that order; one statement on PostgreSQL (the
    ORM's ``delete()`` and ``bulk_create()`` are two, and cost a PUT 0.9 ms more CPU: 1.23 -> 2.12 ms in
    ``scripts/profile_put.py``), tested there by ``tests/integration/test_postgres_statements.py``."""
    if connection.vendor != "postgresql":
        Order.objects.filter(phase=phase, power=seat).delete()
        Order.objects.bulk_create(Order(phase=phase, power=seat, text=t) for t in texts)
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "WITH gone AS (DELETE FROM games_order WHERE phase_id = %s AND power_id = %s)"
            " INSERT INTO games_order (phase_id, power_id, text, submitted_at)"
            " SELECT %s, %s, t, %s FROM unnest(%s::varchar[]) WITH ORDINALITY AS lines(t, n) ORDER BY n",
            [phase.id, seat.id, phase.id, seat.id, timezone.now(), texts],
        )


def _seat_locked_and_bumped(game: Game, user: Any) -> Power:
    """The user's own seat, its ``orders_version`` already bumped, in one statement: the ``UPDATE`` locks
    the row (a no-key lock, as order rows pointing at the seat may still be written by processing's
    readers), so two submissions of one power take turns. A refusal after this rolls the bump back with
    the rest of the transaction; the version before this write is ``orders_version - 1``."""
    user_id = getattr(user, "id", None)
    if user_id is None:  # an anonymous user must not match a vacant seat by ``user_id IS NULL``
        raise GameError("You are not playing in this game", code="not_a_player")
    fields = ["id", "name", "status", "missed_phases", "seat_open", "orders_version"]
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE games_power SET orders_version = orders_version + 1 WHERE game_id = %s AND user_id = %s"
            f" RETURNING {', '.join(fields)}",
            [game.id, user_id],
        )
        row = cursor.fetchone()
    if row is None:
        raise GameError("You are not playing in this game", code="not_a_player")
    return Power.from_db(connection.alias, fields, row)


def _same_phase(named: str, current: Phase, game: Game) -> None:
    try:
        wanted = EnginePhase.parse(named)
    except ValueError as exc:
        raise GameError(str(exc)) from None
    now_playing = EnginePhase.parse(current.name)
    named = named.upper()  # as written: ``str(wanted)`` of S0682M, S682M, does not parse back
    if wanted.sort_key() < now_playing.sort_key():
        raise GameError(f"The {_label(game, named)} deadline has passed", code="phase_closed")
    if wanted != now_playing:
        raise GameError(
            f"{game_phase_title(game, named)} has not begun; "
            f"the game is in {game_phase_title(game, current.name)}",
            code="conflict",
        )


def _open_for_orders(game: Game, phase: Phase, now: dt.datetime) -> None:
    if game.status == Game.Status.PAUSED:
        raise GameError(f"{game.name} is paused; orders are taken again when it resumes", code="paused")
    if game.status != Game.Status.ACTIVE:
        raise GameError(f"{game.name} is not in play", code="not_in_play")
    if phase.status != Phase.Status.OPEN or (phase.deadline is not None and phase.deadline <= now):
        raise GameError(f"The {_label(game, phase.name)} deadline has passed", code="phase_closed")


def _label(game: Game, name: str) -> str:
    """``Spring 1903``, or the variant's own season name (Sahara's ``Early Summer 1905``)."""
    return game_phase_title(game, name).rsplit(" ", 1)[0]
