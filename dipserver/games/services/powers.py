"""Seats after the start: replacement players, civil disorder, vacations."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils import timezone

from dipserver.games.errors import GameError
from dipserver.games.models import Game, Phase, Power, SeatRequest
from dipserver.games.services.common import game_locked, phase_locked, powers_locked, seat_of
from dipserver.games.services.seats import seat_hand_over, seat_take


def power_replace(*, power_id: int, user: Any, now: dt.datetime | None = None) -> Power:
    """Give a seat to a new player (a game master's action): ``seats.seat_hand_over``."""
    game_id = Power.objects.filter(id=power_id).values_list("game_id", flat=True).first()
    if game_id is None:
        raise GameError(f"There is no seat {power_id}", code="not_found")
    return seat_hand_over(game_id=game_id, power_id=power_id, user=user, now=now)


@transaction.atomic
def power_civil_disorder_set(*, power_id: int) -> Power:
    """Put a power in civil disorder now: its units hold, its seat is offered to a replacement."""
    game_id = Power.objects.filter(id=power_id).values_list("game_id", flat=True).first()
    if game_id is None:
        raise GameError(f"There is no seat {power_id}", code="not_found")
    game = game_locked(game_id)
    seat = next(p for p in powers_locked(game) if p.id == power_id)
    if game.status not in (Game.Status.ACTIVE, Game.Status.PAUSED) or seat.status == Power.Status.ELIMINATED:
        raise GameError(f"{seat} cannot be put in civil disorder now", code="not_in_play")
    seat.status, seat.seat_open = Power.Status.CIVIL_DISORDER, True
    seat.save(update_fields=["status", "seat_open"])
    return seat


@transaction.atomic
def power_vacation_take(*, game_id: int, user: Any, days: int, now: dt.datetime | None = None) -> Phase:
    """Spend vacation days from the game's allowance: the open phase's deadline moves on by that many
    days, and the player is away until ``days`` from now (or from the end of a vacation already taken),
    so a phase that opens meanwhile is due no earlier than their return (``away_deadline``)."""
    if days < 1:
        raise GameError("A vacation is at least one day")
    game = game_locked(game_id)
    phase = phase_locked(game)
    seat = seat_of(powers_locked(game), user)
    if days > seat.vacation_days_left:
        raise GameError(f"You have {seat.vacation_days_left} vacation day(s) left, not {days}")
    if phase.status != Phase.Status.OPEN or phase.deadline is None:
        raise GameError(f"{game.name} has no deadline to move", code="phase_closed")
    phase.deadline += dt.timedelta(days=days)
    phase.save(update_fields=["deadline"])
    now = now or timezone.now()
    seat.vacation_days_left -= days
    seat.away_until = max(now, seat.away_until or now) + dt.timedelta(days=days)
    seat.save(update_fields=["vacation_days_left", "away_until"])
    return phase


def away_deadline(game: Game, deadline: dt.datetime, seats: Iterable[Power] | None = None) -> dt.datetime:
    """A new phase's deadline, pushed back to the latest return of a player of ``game`` still on vacation.

    ``seats``: the game's seats as the caller already holds them, up to date (processing has them locked),
    which saves a query; without them they are read."""
    if seats is None:
        seats = Power.objects.filter(game=game, away_until__gt=deadline).only("status", "away_until")
    back = [
        s.away_until
        for s in seats
        if s.status == Power.Status.ACTIVE and s.away_until is not None and s.away_until > deadline
    ]
    return max(back, default=deadline)


def power_seat_take(*, power_id: int, user: Any, now: dt.datetime | None = None) -> Power | SeatRequest:
    """A volunteer takes a seat that was offered after civil disorder (``seats.seat_take``)."""
    return seat_take(power_id=power_id, user=user, now=now)
