"""Replacement players: a seat offered after civil disorder is taken by a volunteer (at once, or once a
game master approves where the game says so) or given by a master; the newcomer inherits the power, and
with it the power's press (press belongs to powers, so they read what the power could read, and none of
it is marked read for them), and the open phase's deadline moves on so that they have at least the
game's grace period for replacements.

Lock order: the Game row, the current Phase row, the Power rows by id (``services.common``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils import timezone

from dipserver.games.endings import phase_open_hooks_run, seat_taken_hooks_run
from dipserver.games.errors import GameError
from dipserver.games.join_rules import join_rules_check
from dipserver.games.models import Game, Phase, Power, PressMark, SeatRequest, Tenure
from dipserver.games.services.common import game_locked, powers_locked


def seat_hand_over(*, game_id: int, power_id: int, user: Any, now: dt.datetime | None = None) -> Power:
    """Give the seat to ``user`` now (a game master's choice, or an approved or free volunteer)."""
    now = now or timezone.now()
    with transaction.atomic():
        game = game_locked(game_id)
        phase = _open_phase_locked(game)
        powers = powers_locked(game)
        seat = next((p for p in powers if p.id == power_id), None)
        if seat is None:
            raise GameError(f"There is no seat {power_id} in {game.name}", code="not_found")
        if any(p.user_id == user.id for p in powers if p.id != power_id):
            raise GameError(f"{user} already plays another power in {game.name}", code="already_joined")
        if seat.status == Power.Status.ELIMINATED:
            raise GameError(
                f"{seat.name.title()} has been eliminated; there is nothing to take over", code="eliminated"
            )
        handed = seat.user_id != user.id
        if handed:
            _tenure_change(seat, user, phase.index if phase else 0)
            PressMark.objects.filter(power=seat).delete()  # the newcomer has read none of it
        seat.user = user
        seat.status, seat.missed_phases, seat.seat_open, seat.ready = Power.Status.ACTIVE, 0, False, False
        seat.draw_vote, seat.concede_to = False, ""
        seat.save()
        SeatRequest.objects.filter(power=seat).delete()
        if phase is not None and phase.deadline is not None and not getattr(user, "is_bot", False):
            _grace_given(game, phase, now)  # (a bot needs no time to find its feet)
        if handed:
            seat_taken_hooks_run(game, seat)  # the game is told (players app), after the commit
        if getattr(user, "is_bot", False):
            if not game.bots_seated:
                game.bots_seated = True
                game.save(update_fields=["bots_seated"])
            phase_open_hooks_run(game)  # the bot orders for the open phase at once
    return seat


def seat_take(*, power_id: int, user: Any, now: dt.datetime | None = None) -> Power | SeatRequest:
    """A volunteer takes an open seat: the seat itself, or their request where a master approves."""
    seat = Power.objects.filter(id=power_id).select_related("game").first()
    if seat is None:
        raise GameError(f"There is no seat {power_id}", code="not_found")
    game = seat.game
    if not seat.seat_open:
        raise GameError(
            f"{seat.name.title()} in {game.name} is not looking for a new player", code="seat_not_open"
        )
    if game.status not in (Game.Status.ACTIVE, Game.Status.PAUSED):
        raise GameError(f"{game.name} is not in play", code="not_in_play")
    if Power.objects.filter(game=game, user=user).exclude(id=power_id).exists():
        raise GameError(f"You already play another power in {game.name}", code="already_joined")
    join_rules_check(game, user)
    if game.replacement_approval and not game.masters.filter(id=user.id).exists():
        request, _ = SeatRequest.objects.get_or_create(power=seat, user=user)
        return request
    return seat_hand_over(game_id=game.id, power_id=power_id, user=user, now=now)


def seat_request_approve(*, request_id: int, now: dt.datetime | None = None) -> Power:
    """A game master approves a request: the seat is the requester's (if it is still open)."""
    request = SeatRequest.objects.filter(id=request_id).select_related("power").first()
    if request is None:
        raise GameError(f"There is no seat request {request_id}", code="not_found")
    if not request.power.seat_open:
        request.delete()
        raise GameError(
            f"{request.power.name.title()} is no longer looking for a player", code="seat_not_open"
        )
    return seat_hand_over(
        game_id=request.power.game_id, power_id=request.power_id, user=request.user, now=now
    )


def seat_request_decline(*, request_id: int) -> None:
    deleted, _ = SeatRequest.objects.filter(id=request_id).delete()
    if not deleted:
        raise GameError(f"There is no seat request {request_id}", code="not_found")


def _open_phase_locked(game: Game) -> Phase | None:
    """The current phase, locked, once the game has started (second in the lock order)."""
    if game.current_phase_id is None:
        return None
    return Phase.objects.select_for_update().get(id=game.current_phase_id)


def _tenure_change(seat: Power, user: Any, at: int) -> None:
    """The holder until now stops at phase ``at``, which is the newcomer's (their reliability counts it)."""
    Tenure.objects.filter(power=seat, until_index__isnull=True).update(until_index=at)
    Tenure.objects.create(power=seat, user=user, from_index=at)


def _grace_given(game: Game, phase: Phase, now: dt.datetime) -> None:
    """The open phase is due no sooner than the replacement grace period from now."""
    if phase.status != Phase.Status.OPEN or phase.deadline is None:
        return
    wanted = now + dt.timedelta(minutes=game.replacement_grace_minutes)
    if phase.deadline < wanted:
        phase.deadline = wanted
        phase.save(update_fields=["deadline"])
