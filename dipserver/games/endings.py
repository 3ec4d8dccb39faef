"""What other apps do when a game ends (the players app rates it): hooks that ``game_finish`` calls in the
ending's own transaction, holding the game's row lock, so a game is rated exactly when it is over.

A hook must be quick and must not call out of the process; it locks only rows of its own app (after the
game's, in a fixed order it documents).
"""

from __future__ import annotations

from collections.abc import Callable

from dipserver.games.models import Game

GameEndHook = Callable[[Game], object]  # what it returns is not used

_hooks: list[GameEndHook] = []


def game_end_hook_add(hook: GameEndHook) -> None:
    """Add ``hook`` (once: an app's ``ready`` may run twice in tests)."""
    if hook not in _hooks:
        _hooks.append(hook)


def game_end_hooks_run(game: Game) -> None:
    for hook in _hooks:
        hook(game)
