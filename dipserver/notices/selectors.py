"""Reading the inbox: a player's notifications, newest first, and how many are unread (in all, per game)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, QuerySet

from dipserver.accounts.models import User
from dipserver.notices.models import Notification


def notifications_of(*, user: User, unread_only: bool = False) -> QuerySet[Notification]:
    rows = Notification.objects.filter(user=user).select_related("game").order_by("-id")
    return rows.filter(read_at__isnull=True) if unread_only else rows


@dataclass(frozen=True)
class Unread:
    total: int
    games: dict[int, int]  # game id -> unread notifications there (games with none are left out)


def unread_of(*, user: User) -> Unread:
    """One query."""
    counts = (
        Notification.objects.filter(user=user, read_at__isnull=True)
        .values("game_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    games = {row["game_id"]: row["n"] for row in counts}
    return Unread(sum(games.values()), games)


def press_unread_of(*, user: User, game_ids: list[int] | None = None) -> dict[int, int]:
    """Press others sent that the user's seat has not read, per game in play (of ``game_ids``, when
    given): three queries a game (``press_channels``); games with none are left out."""
    from dipserver.games.models import Game, Power
    from dipserver.games.selectors import press_channels

    seats = Power.objects.filter(
        user=user, game__status__in=[Game.Status.ACTIVE, Game.Status.PAUSED]
    ).select_related("game")
    if game_ids is not None:
        seats = seats.filter(game_id__in=game_ids)
    counts = {s.game_id: sum(c.unread for c in press_channels(game=s.game, seat=s)) for s in seats if s.name}
    return {game_id: n for game_id, n in counts.items() if n}
