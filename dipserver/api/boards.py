"""What the API needs to draw and offer orders on a game's board: its pinned variant, its rule modules in
play, the drawing of a generated board, and the timeline's changes the viewer may know about.

Read-only glue over ``dipserver.games`` and the engine; nothing here writes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework.exceptions import NotFound

from dipserver.engine import Hook, InPlay, ModuleState, Variant, hooks_between
from dipserver.engine import Phase as EnginePhase
from dipserver.games.changes import changes_hidden, timeline_slots
from dipserver.games.errors import GameError
from dipserver.games.models import Game
from dipserver.games.variants import (
    game_modules,
    game_variant,
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


def timeline_entries(game: Game, now: str | None) -> tuple[list[dict[str, Any]], int]:
    """Season by season what the timeline changes in this game, and how many random changes are still
    undrawn. In random mode, while the game runs, a drawn change is listed only once it has happened
    (its hook ran before the phase ``now`` opened); a future draw is only counted, never placed."""
    start = variant_or_404(game).start.phase
    happened = set(hooks_between(start, EnginePhase.parse(now))) if now else set()
    hidden = changes_hidden(game)
    rows: list[dict[str, Any]] = []
    undrawn = 0
    for (year, hook), changes in sorted(
        timeline_slots(game), key=lambda kv: (kv[0][0], list(Hook).index(kv[0][1]))
    ):
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
