"""The minimums a game may ask of a player taking a seat (a join, or an open seat after civil disorder),
refused with a code and the player's own figure so they know how far they are from it."""

from __future__ import annotations

from typing import Any

from dipserver.games.errors import GameError
from dipserver.games.models import Game
from dipserver.players.ratings import family_of, rating_value_of
from dipserver.players.reliability import reliability_of


def reliability_minimum_check(game: Game, user: Any) -> None:
    if not game.min_reliability:
        return
    mine = reliability_of(user)
    if not mine.meets(game.min_reliability):
        raise GameError(
            f"{game.name} takes players with a reliability of at least {game.min_reliability}%; yours is "
            f"{mine.percent}% (orders given in {mine.phases_ordered} of {mine.phases_due} phases due)",
            code="reliability_too_low",
        )


def rating_minimum_check(game: Game, user: Any) -> None:
    if game.min_rating is None:
        return
    family = family_of(game)
    mine = rating_value_of(user, family)
    if mine < game.min_rating:
        raise GameError(
            f"{game.name} takes players rated at least {game.min_rating:.1f} in {family}; "
            f"yours is {mine:.1f}",
            code="rating_too_low",
        )
