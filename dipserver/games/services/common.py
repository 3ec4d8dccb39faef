"""Helpers every service shares: locking in the fixed order and naming phases (a game's variant:
``dipserver.games.variants``).

Lock order (always, to rule out deadlocks): the Game row, then the Phase row, then Power rows by id.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from dipserver.engine import Phase as EnginePhase
from dipserver.engine import Timeline
from dipserver.games.errors import GameError
from dipserver.games.models import Game, Phase, Power

SEASONS = {"S": "Spring", "F": "Fall", "W": "Winter"}
KINDS = {"M": "movement", "R": "retreats", "A": "adjustments"}


def phase_label(name: str, timeline: Timeline | None = None) -> str:
    """``S1903M`` -> ``Spring 1903``, as players speak of deadlines; with the variant's ``timeline``, its
    own season names (Sahara's ``Early Summer 1905``)."""
    phase = EnginePhase.parse(name)
    own = timeline.season_label(phase.season, phase.year) if timeline is not None else None
    return f"{own or SEASONS[name[0]]} {name[1:5]}"


def phase_title(name: str, timeline: Timeline | None = None) -> str:
    """``F1903R`` -> ``Fall 1903 retreats`` (see ``phase_label`` for ``timeline``)."""
    return f"{phase_label(name, timeline)} {KINDS[name[-1]]}"


def game_phase_title(game: Game, name: str) -> str:
    """A phase of ``game`` in words, with its variant's season names."""
    from dipserver.games.variants import game_timeline

    try:
        timeline = game_timeline(game)[1]
    except GameError:
        timeline = None  # a variant that cannot be loaded still has phases to name
    return phase_title(name, timeline)


def game_locked(game_id: int) -> Game:
    """The Game row, locked until the transaction ends: the first lock every write takes."""
    game = Game.objects.select_for_update().filter(id=game_id).first()
    if game is None:
        raise GameError(f"There is no game {game_id}")
    return game


def phase_locked(game: Game) -> Phase:
    """The game's current phase, locked (second in the lock order)."""
    if game.current_phase_id is None:
        raise GameError(f"{game.name} has not started yet")
    return Phase.objects.select_for_update().get(id=game.current_phase_id)


def powers_locked(game: Game) -> list[Power]:
    """Every seat of the game, locked, in id order (last in the lock order)."""
    return list(seats_for_update(game))


def seats_for_update(game: Game) -> QuerySet[Power]:
    """The query ``powers_locked`` runs, for a caller that needs a column more (an annotation)."""
    return Power.objects.select_for_update().filter(game=game).order_by("id")


def seat_of(powers: list[Power], user: Any) -> Power:
    user_id = getattr(user, "id", None)
    if user_id is not None:  # (a user without an id must not match a vacant seat, whose user_id is None)
        for power in powers:
            if power.user_id == user_id:
                return power
    raise GameError("You are not playing in this game")


def phase_named_or_conflict(game: Game, current: str, named: str) -> None:
    """A write names the phase it is for (``S1901M``, any case); any other than ``current`` is refused
    with code ``conflict``, so a click made while the phase was open never lands on the next one."""
    if named.upper() != current:
        raise GameError(
            f"That was for {named.upper()}, but {game.name} is in {game_phase_title(game, current)} "
            f"({current}) now; look again and resend.",
            code="conflict",
        )
