"""What other apps do when a game ends (the players app rates it) or is reopened by a revert (the rating
is taken back), a phase opens (the players app's
bots order) or a seat changes hands (the players app tells the game): hooks that the services call in
the event's own transaction, holding the game's row lock, so a game is rated exactly when it is over.

A hook must be quick and must not call out of the process (work for later goes through
``transaction.on_commit``); it locks only rows of its own app (after the game's, in a fixed order it
documents).
"""

from __future__ import annotations

from collections.abc import Callable

from dipserver.games.models import Game, Power

GameEndHook = Callable[[Game], object]  # what it returns is not used

_hooks: list[GameEndHook] = []


def game_end_hook_add(hook: GameEndHook) -> None:
    """Add ``hook`` (once: an app's ``ready`` may run twice in tests)."""
    if hook not in _hooks:
        _hooks.append(hook)


def game_end_hooks_run(game: Game) -> None:
    for hook in _hooks:
        hook(game)


GameReopenHook = Callable[[Game], object]

_reopened: list[GameReopenHook] = []


def game_reopen_hook_add(hook: GameReopenHook) -> None:
    """Add ``hook``, called when a game master's revert puts an ended game back in play: what the
    game's end did (its rating) is undone, for the game will end again."""
    if hook not in _reopened:
        _reopened.append(hook)


def game_reopen_hooks_run(game: Game) -> None:
    for hook in _reopened:
        hook(game)


PhaseOpenHook = Callable[[Game], object]

_opened: list[PhaseOpenHook] = []


def phase_open_hook_add(hook: PhaseOpenHook) -> None:
    """Add ``hook``, called when a game's phase opens (the game starts, a phase is processed and the game
    goes on, a bot takes a seat). It should only queue work for after the commit."""
    if hook not in _opened:
        _opened.append(hook)


def phase_open_hooks_run(game: Game) -> None:
    for hook in _opened:
        hook(game)


SeatTakenHook = Callable[[Game, Power], object]

_taken: list[SeatTakenHook] = []


def seat_taken_hook_add(hook: SeatTakenHook) -> None:
    """Add ``hook``, called when a seat of a game in play changes hands (the game is told)."""
    if hook not in _taken:
        _taken.append(hook)


def seat_taken_hooks_run(game: Game, seat: Power) -> None:
    for hook in _taken:
        hook(game, seat)


DisorderHook = Callable[[Game, list[int]], object]

_disorder: list[DisorderHook] = []


def disorder_hook_add(hook: DisorderHook) -> None:
    """Add ``hook``, called with the powers (ids) that fell into civil disorder in a phase just
    processed, once the next phase is open (the players app hands them to bots where the game says so)."""
    if hook not in _disorder:
        _disorder.append(hook)


def disorder_hooks_run(game: Game, power_ids: list[int]) -> None:
    for hook in _disorder:
        hook(game, power_ids)
