"""Who may take a seat, beyond the game's own state: rules other apps add (the players app's minimum
reliability and rating), asked by ``game_join`` and by a replacement taking an open seat.

A rule raises ``GameError`` with a code and a sentence saying why; it is called inside the join's
transaction, holding the game's row lock, and must not write.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dipserver.games.models import Game

JoinRule = Callable[[Game, Any], None]

_rules: list[JoinRule] = []


def join_rule_add(rule: JoinRule) -> None:
    """Add ``rule`` (once: an app's ``ready`` may run twice in tests)."""
    if rule not in _rules:
        _rules.append(rule)


def join_rules_check(game: Game, user: Any) -> None:
    """Raise the first refusal of any rule for ``user`` taking a seat in ``game``."""
    for rule in _rules:
        rule(game, user)
