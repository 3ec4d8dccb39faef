"""Cheap validators for polling clients: a weak ETag computed from a few small queries, never from the
response body, so a conditional GET that matches answers 304 without building the answer.

A tag covers everything the answer depends on, including who asks (answers differ per viewer).
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.db.models import Count, Exists, Max, OuterRef, Subquery
from rest_framework.response import Response

from dipserver.games.models import Game, Order, Phase, Power


def _tag(*parts: Any) -> str:
    return 'W/"' + hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest() + '"'


def game_tag(game_id: int, user_id: int | None) -> str | None:
    """The state of a game as its detail shows it; ``None`` when there is no such game. Two queries: the
    game with its phase, order count and the viewer's mastership, then the seats."""
    orders = Order.objects.filter(phase_id=OuterRef("current_phase_id")).order_by().values("phase_id")
    row = (
        Game.objects.filter(id=game_id)
        .annotate(
            order_count=Subquery(orders.annotate(n=Count("id")).values("n")[:1]),
            order_last=Subquery(orders.annotate(m=Max("id")).values("m")[:1]),
            mastered=Exists(
                Game.masters.through.objects.filter(game_id=OuterRef("id"), user_id=user_id or 0)
            ),
        )
        .values_list(
            "status",
            "result",
            "winners",
            "paused_at",
            "name",
            "press",
            "current_phase_id",
            "current_phase__status",
            "current_phase__deadline",
            "order_count",
            "order_last",
            "mastered",
        )
        .first()
    )
    if row is None:
        return None
    seats = [
        # Draw votes and concessions are secret: only the viewer's own may change the viewer's tag.
        (*public, (vote, concede) if owner == user_id else None)
        for *public, owner, vote, concede in Power.objects.filter(game_id=game_id)
        .order_by("id")
        .values_list(
            "id",
            "name",
            "status",
            "ready",
            "seat_open",
            "missed_phases",
            "user_id",
            "draw_vote",
            "concede_to",
        )
    ]
    return _tag("game", game_id, user_id, row, seats)


def phase_tag(game_id: int, index: int, user_id: int | None, extra: Any = None) -> str | None:
    """The state of one phase; an open phase also changes with the orders given in it."""
    row = (
        Phase.objects.filter(game_id=game_id, index=index)
        .values_list("id", "status", "deadline", "processed_at", "game__status", "game__press")
        .first()
    )
    if row is None:
        return None
    orders = Order.objects.filter(phase_id=row[0]).aggregate(n=Count("id"), last=Max("id"))
    return _tag("phase", game_id, index, user_id, row, orders, extra)


def matches(request: Any, tag: str) -> bool:
    """Whether ``If-None-Match`` names ``tag`` (weak comparison, as RFC 9110 asks for GET)."""
    header = request.headers.get("If-None-Match", "")
    if not header:
        return False
    if header.strip() == "*":
        return True
    wanted = tag.removeprefix("W/")
    return any(candidate.strip().removeprefix("W/") == wanted for candidate in header.split(","))


def not_modified(tag: str) -> Response:
    return tagged(Response(status=304), tag)


def tagged(response: Any, tag: str) -> Any:
    response["ETag"] = tag
    response["Cache-Control"] = "private, no-cache"  # always revalidate; the 304 is what saves the work
    return response
