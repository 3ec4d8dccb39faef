"""Cheap validators for polling clients: a weak ETag computed from a few small queries, never from the
response body, so a conditional GET that matches answers 304 without building the answer.

A tag covers everything the answer depends on, including who asks (answers differ per viewer).
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.db.models import Count, Max
from rest_framework.response import Response

from dipserver.games.models import Game, Order, Phase, Power


def _tag(*parts: Any) -> str:
    return 'W/"' + hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest() + '"'


def game_tag(game_id: int, user_id: int | None) -> str | None:
    """The state of a game as its detail shows it; ``None`` when there is no such game."""
    row = (
        Game.objects.filter(id=game_id)
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
            "current_phase__index",
        )
        .first()
    )
    if row is None:
        return None
    seats = list(
        Power.objects.filter(game_id=game_id)
        .order_by("id")
        .values_list("id", "user_id", "name", "status", "ready", "seat_open", "missed_phases")
    )
    masters = sorted(Game.masters.through.objects.filter(game_id=game_id).values_list("user_id", flat=True))
    orders = Order.objects.filter(phase_id=row[6]).aggregate(n=Count("id"), last=Max("id")) if row[6] else {}
    return _tag("game", game_id, user_id, row, seats, masters, orders)


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
