"""The map changes of a game's timeline that a viewer may know about: in random mode, while the game runs,
the draws stay secret. Read-only; used by the API's pictures and timeline and by the admin's dry run."""

from __future__ import annotations

from typing import Any

from dipserver.engine import Phase as EnginePhase
from dipserver.engine import Scheduled, TimelineError, conditions_data, hooks_between, schedule
from dipserver.games.errors import GameError
from dipserver.games.mappers import map_state_of, position_of
from dipserver.games.models import Game, Phase
from dipserver.games.variants import game_timeline, timeline_options


def changes_hidden(game: Game) -> bool:
    """Random-mode draws stay secret until the game ends: their years follow from the secret."""
    return timeline_options(game).get("mode") == "random" and game.status != Game.Status.FINISHED


def timeline_slots(game: Game) -> list[tuple[tuple[int, Any], tuple[Scheduled, ...]]]:
    """The game's scheduled changes by (year, hook), drawn from its secret in random mode."""
    _, timeline = game_timeline(game)
    try:
        slots = schedule(timeline, timeline_options(game), game.secret or None)
    except TimelineError as exc:
        raise GameError(str(exc)) from exc
    return list(slots.items())


def _after(phase: EnginePhase) -> list[tuple[int, Any]]:
    """The (year, hook) points after ``phase``, in order, for the rest of its year and the next."""
    following = EnginePhase(phase.year + 2, phase.season, phase.type)
    return list(hooks_between(phase, following))


def next_changes(game: Game, phase_name: str) -> list[tuple[str, str]]:
    """The map changes at the first timeline hook after ``phase_name`` as (province, change) pairs, for the
    picture to outline. Undrawn random changes are left out while the game runs: they would tell the
    secret."""
    try:
        slots = dict(timeline_slots(game))
    except GameError:
        return []  # a broken timeline must not hide the picture; the admin reports it
    hidden = changes_hidden(game)
    for point in _after(EnginePhase.parse(phase_name)):
        shown = [c for c in slots.get(point, ()) if c.province and not (hidden and c.entry)]
        if shown:
            return [(c.province, str(c.change)) for c in shown if c.province]
        if slots.get(point):
            return []  # the next changes are secret draws: outline nothing rather than skip ahead
    return []


def conditions_now(game: Game, phase: Phase | None) -> list[dict[str, Any]]:
    """The game's conditional map changes (``when`` in its timeline), each saying whether its condition
    holds on the board of ``phase`` (the open one; the start position before the game starts)."""
    variant, _ = game_timeline(game)
    map_state, position = variant.map_state, variant.start
    if phase is not None:
        map_state, position = map_state_of(phase.snapshot), position_of(phase.snapshot)
    try:
        return conditions_data(variant, timeline_options(game), map_state, position)
    except TimelineError as exc:
        raise GameError(str(exc)) from exc
