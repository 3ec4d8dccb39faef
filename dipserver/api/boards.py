"""What the API needs to draw and offer orders on a game's board: its pinned variant, its rule modules in
play, the drawing of a generated board, and the timeline's changes the viewer may know about.

Read-only glue over ``dipserver.games`` and the engine; nothing here writes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework.exceptions import NotFound

from dipserver.engine.modules import ModuleState
from dipserver.engine.modules.orders import InPlay
from dipserver.engine.timeline import Hook, Scheduled, TimelineError, hooks_between, schedule
from dipserver.engine.types import Phase as EnginePhase
from dipserver.engine.variant import Variant
from dipserver.games.errors import GameError
from dipserver.games.models import Game
from dipserver.games.variants import (
    GENERATED,
    GENERATED_POWERS,
    deal_seed,
    game_modules,
    game_timeline,
    game_variant,
    generated_geometry,
    timeline_options,
)


def variant_or_404(game: Game) -> Variant:
    """The exact variant version the game pinned (a generated board rebuilt from its secret)."""
    try:
        return game_variant(game)
    except GameError as exc:
        raise NotFound(f"The variant of this game cannot be loaded: {exc}") from exc


def in_play(game: Game, snapshot: Mapping[str, Any]) -> InPlay | None:
    """The game's rule modules with the state the phase opened with; ``None`` when it plays without."""
    modules = game_modules(game)
    if not modules.any:
        return None
    state = (snapshot.get("modules") or {}).get("state")
    return InPlay(modules, ModuleState.from_data(state) if state else ModuleState())


def geometry_of(game: Game) -> dict[str, Any] | None:
    """The drawing of a generated board (Ice Lords), ``None`` for a variant drawn from its files."""
    if game.variant != GENERATED:
        return None
    return generated_geometry(deal_seed(game), int(game.board.get("powers", GENERATED_POWERS[1])))


def _hidden(game: Game) -> bool:
    """Random-mode draws stay secret until the game ends: their years follow from the secret."""
    return timeline_options(game).get("mode") == "random" and game.status != Game.Status.FINISHED


def _slots(game: Game) -> list[tuple[tuple[int, Any], tuple[Scheduled, ...]]]:
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
        slots = dict(_slots(game))
    except GameError:
        return []  # a broken timeline must not hide the picture; the admin reports it
    hidden = _hidden(game)
    for point in _after(EnginePhase.parse(phase_name)):
        shown = [c for c in slots.get(point, ()) if c.province and not (hidden and c.entry)]
        if shown:
            return [(c.province, str(c.change)) for c in shown if c.province]
        if slots.get(point):
            return []  # the next changes are secret draws: outline nothing rather than skip ahead
    return []


def timeline_entries(game: Game, now: str | None) -> tuple[list[dict[str, Any]], int]:
    """Season by season what the timeline changes in this game, and how many random changes are still
    undrawn. In random mode, while the game runs, a drawn change is listed only once it has happened
    (its hook ran before the phase ``now`` opened); a future draw is only counted, never placed."""
    start = variant_or_404(game).start.phase
    happened = set(hooks_between(start, EnginePhase.parse(now))) if now else set()
    hidden = _hidden(game)
    rows: list[dict[str, Any]] = []
    undrawn = 0
    for (year, hook), changes in sorted(_slots(game), key=lambda kv: (kv[0][0], list(Hook).index(kv[0][1]))):
        for change in changes:
            if hidden and change.entry and (year, hook) not in happened:
                undrawn += 1
                continue
            rows.append(
                {
                    "year": year,
                    "hook": str(hook),
                    "change": str(change.change),
                    "province": change.province,
                    "keep": list(change.keep),
                    "happened": (year, hook) in happened,
                }
            )
    return rows, undrawn
