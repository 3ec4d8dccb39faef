"""Who is asking, relative to one game: a player (with their seat), a game master, an admin, or nobody.

Reads of games and phases are public; what a viewer sees within them is decided here and in the
serializers' callers. Acting as a power needs a seat; game-master operations need mastership.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rest_framework.exceptions import NotAuthenticated, NotFound, PermissionDenied

from dipserver.games.models import Game, Power


@dataclass(frozen=True)
class Viewer:
    user: Any
    seat: Power | None
    master: bool  # a master of this game, or a superuser

    @property
    def authenticated(self) -> bool:
        return bool(self.user and self.user.is_authenticated)

    @property
    def admin(self) -> bool:
        return self.authenticated and self.user.is_superuser

    def sees_players(self, game: Game) -> bool:
        """Player identities are hidden in anonymous games until they end, except from their masters."""
        return game.press != Game.Press.ANONYMOUS or game.status == Game.Status.FINISHED or self.master


def game_or_404(game_id: int) -> Game:
    game = Game.objects.filter(id=game_id).first()
    if game is None:
        raise NotFound(f"There is no game {game_id}.")
    return game


def viewer_of(request: Any, game: Game, *, mastery: bool = True) -> Viewer:
    """``mastery=False`` skips the game-master lookup, for endpoints only a seat may use."""
    user = request.user
    if not (user and user.is_authenticated):
        return Viewer(user, None, False)
    seat = Power.objects.filter(game=game, user=user).first()
    master = user.is_superuser or (mastery and game.masters.filter(id=user.id).exists())
    return Viewer(user, seat, master)


def seat_required(viewer: Viewer, game: Game) -> Power:
    """The viewer's own seat, or a 401/403 that says what is missing."""
    if not viewer.authenticated:
        raise NotAuthenticated("Log in (token or session) to act as a power.")
    if viewer.seat is None:
        raise PermissionDenied(f"You are not playing in {game.name}.")
    return viewer.seat


def power_required(viewer: Viewer, game: Game) -> Power:
    """A seat that has been given a power (the game has started)."""
    seat = seat_required(viewer, game)
    if not seat.name:
        raise PermissionDenied(f"{game.name} has not started yet; powers are assigned when it is full.")
    return seat


def master_required(viewer: Viewer, game: Game) -> None:
    if not viewer.authenticated:
        raise NotAuthenticated("Log in as a game master of this game.")
    if not viewer.master:
        raise PermissionDenied(f"Only a game master of {game.name} may do this.")
