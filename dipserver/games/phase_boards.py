"""The open phase as order entry reads it — board, position, the modules' state — built once per process.

A phase's snapshot never changes once the phase exists, and the variant is pinned by version, so the
parsed values for a phase id are good for as long as the process lives; the small LRU bounds the memory.
Reading orders then costs neither the snapshot JSON from the database nor rebuilding the board.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from dipserver.engine import Board, Modules, ModuleState, Position
from dipserver.games.mappers import board_of, position_of
from dipserver.games.models import Game, Phase
from dipserver.games.variants import game_modules, game_variant

CACHED_PHASES = 512  # a few hundred games in play per process: each entry is a position and a board view


@dataclass(frozen=True, slots=True)
class PhaseBoard:
    board: Board
    position: Position
    modules: Modules
    module_state: ModuleState | None  # None when the game plays without rule modules


_cache: OrderedDict[tuple[int, int, str, str], PhaseBoard] = OrderedDict()
_lock = threading.Lock()  # gunicorn threads share the cache


def phase_board(game: Game, phase_id: int) -> PhaseBoard:
    """What order entry needs of ``game``'s phase ``phase_id``; reads the snapshot only on a miss."""
    # The game's secret too: ids come round again after a rollback (and in every test database).
    key = (phase_id, game.id, game.secret, game.variant_version)
    with _lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
            return hit
    snapshot = Phase.objects.filter(id=phase_id).values_list("snapshot", flat=True).get()
    modules = snapshot.get("modules")
    entry = PhaseBoard(
        board=board_of(game_variant(game), snapshot),
        position=position_of(snapshot),
        modules=game_modules(game),
        module_state=ModuleState.from_data(modules["state"]) if modules else None,
    )
    with _lock:
        _cache[key] = entry
        while len(_cache) > CACHED_PHASES:
            _cache.popitem(last=False)
    return entry


def phase_boards_clear() -> None:
    """Forget every cached phase (tests that rewrite a snapshot in place)."""
    with _lock:
        _cache.clear()
