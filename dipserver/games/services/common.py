"""Helpers every service shares: locking in the fixed order, and naming phases (``games.phase_names``,
re-exported here; a game's variant: ``dipserver.games.variants``).

Lock order (always, to rule out deadlocks): the Game row, then the Phase row, then Power rows by id.
"""

from __future__ import annotations

from typing import Any

from dipserver.games.errors import GameError
from dipserver.games.models import Game, Phase, Power
from dipserver.games.phase_names import game_phase_title as game_phase_title
from dipserver.games.phase_names import phase_label as phase_label
from dipserver.games.phase_names import phase_title as phase_title


def game_locked(game_id: int) -> Game:
    """The Game row, locked until the transaction ends: the first lock every write takes."""
    game = Game.objects.select_for_update().filter(id=game_id).first()
    if game is None:
        raise GameError(f"There is no game {game_id}", code="not_found")
    return game


def game_with_current_phase_locked(phase_id: int) -> Game | None:
    """The game whose current phase is ``phase_id``, that phase loaded (``game.current_phase``), both rows
    locked in one statement: ``FOR NO KEY UPDATE OF`` the game, then the phase (PostgreSQL locks them in
    that order, the lock order). No-key locks, an ``UPDATE``'s: still exclusive against every other
    writer's lock on the game and against the share lock of a submission in flight. None when the phase
    is not the current phase of a game (already processed, or no such phase)."""
    locked = Game.objects.select_related("current_phase").select_for_update(
        no_key=True, of=("self", "current_phase")
    )
    try:
        return locked.get(current_phase_id=phase_id)  # (get: one row, no ORDER BY to build)
    except Game.DoesNotExist:
        return None


def phase_locked(game: Game) -> Phase:
    """The game's current phase, locked (second in the lock order)."""
    if game.current_phase_id is None:
        raise GameError(f"{game.name} has not started yet", code="not_started")
    return Phase.objects.select_for_update().get(id=game.current_phase_id)


def powers_locked(game: Game) -> list[Power]:
    """Every seat of the game, locked, in id order (last in the lock order)."""
    return list(Power.objects.select_for_update().filter(game=game).order_by("id"))


def seat_of(powers: list[Power], user: Any) -> Power:
    user_id = getattr(user, "id", None)
    if user_id is not None:  # (a user without an id must not match a vacant seat, whose user_id is None)
        for power in powers:
            if power.user_id == user_id:
                return power
    raise GameError("You are not playing in this game", code="not_a_player")


def phase_named_or_conflict(game: Game, current: str, named: str) -> None:
    """A write names the phase it is for (``S1901M``, any case); any other than ``current`` is refused
    with code ``conflict``, so a click made while the phase was open never lands on the next one."""
    if named.upper() != current:
        raise GameError(
            f"That was for {named.upper()}, but {game.name} is in {game_phase_title(game, current)} "
            f"({current}) now; look again and resend.",
            code="conflict",
        )
