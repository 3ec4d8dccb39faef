"""Cheap validators for polling clients: a weak ETag computed from a few small queries, never from the
response body, so a conditional GET that matches answers 304 without building the answer.

A tag covers everything the answer depends on, including who asks (answers differ per viewer).
"""

from __future__ import annotations

import functools
import hashlib
from typing import Any, TypeVar, cast

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import (
    Aggregate,
    Case,
    CharField,
    Count,
    Exists,
    Func,
    Max,
    OuterRef,
    Q,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Cast, Coalesce
from django.http import HttpResponseBase
from rest_framework.response import Response

from dipserver.games.models import Game, Order, Phase, Power

_Response = TypeVar("_Response", bound=HttpResponseBase)


def _tag(*parts: Any) -> str:
    return 'W/"' + hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest() + '"'


class _Joined(Aggregate):
    """Text values joined with commas: GROUP_CONCAT in SQLite, STRING_AGG in PostgreSQL. The order is
    whatever the database returns; a different order only costs a needless 200, never a stale 304."""

    function = "GROUP_CONCAT"
    template = "%(function)s(%(expressions)s, ',')"
    output_field = CharField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return super().as_sql(compiler, connection, function="STRING_AGG", **extra)


def _text(field: str) -> Any:
    return Coalesce(Cast(field, CharField()), Value(""))


def _joined_text(*parts: Any) -> Func:
    """``a || b || c`` flat (Django's Concat nests pairs, too deep for SQLite's parser)."""
    return Func(*parts, template="(%(expressions)s)", arg_joiner=" || ", output_field=CharField())


def _seats(user_id: int) -> Subquery:
    """Every seat of the game as one string. Draw votes and concessions are secret: only the viewer's own
    are part of it, so another power's vote never changes the viewer's tag."""
    fields = ("id", "user_id", "name", "status", "ready", "seat_open", "missed_phases")
    secret = Case(
        When(Q(user_id=user_id), then=_joined_text(_text("draw_vote"), Value("|"), _text("concede_to"))),
        default=Value(""),
        output_field=CharField(),
    )
    row = _joined_text(*(part for name in fields for part in (_text(name), Value("|"))), secret)
    seats = Power.objects.filter(game_id=OuterRef("id")).order_by().values("game_id")
    return Subquery(seats.annotate(all=_Joined(row)).values("all")[:1])


_GAME, _USER = -7_000_001, -7_000_002  # stand-ins for the two parameters in the compiled SQL


def _game_state(game_id: int, user_id: int) -> Any:
    orders = Order.objects.filter(phase_id=OuterRef("current_phase_id")).order_by().values("phase_id")
    return (
        Game.objects.filter(id=game_id)
        .annotate(
            order_count=Subquery(orders.annotate(n=Count("id")).values("n")[:1]),
            order_last=Subquery(orders.annotate(m=Max("id")).values("m")[:1]),
            # has_orders per power: which powers have orders, not only how many orders there are.
            order_powers=Subquery(orders.annotate(p=Count("power_id", distinct=True)).values("p")[:1]),
            mastered=Exists(Game.masters.through.objects.filter(game_id=OuterRef("id"), user_id=user_id)),
            seats=_seats(user_id),
        )
        .order_by()
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
            "order_powers",
            "mastered",
            "seats",
        )[:1]
    )


@functools.lru_cache(maxsize=8)
def _game_state_sql(alias: str) -> tuple[str, tuple[Any, ...]]:
    """The query compiled once per database: building it with the ORM costs more than running it."""
    # _game_state() is typed Any; Django's SQLCompiler.as_sql() returns (sql, tuple(params)).
    return cast(
        tuple[str, tuple[Any, ...]], _game_state(_GAME, _USER).query.get_compiler(using=alias).as_sql()
    )


def game_tag(game_id: int, user_id: int | None) -> str | None:
    """The state of a game as its detail shows it; ``None`` when there is no such game. One query: the
    game, its current phase, that phase's order count, the seats and the viewer's mastership."""
    sql, template = _game_state_sql(DEFAULT_DB_ALIAS)
    params = [game_id if p == _GAME else (user_id or 0) if p == _USER else p for p in template]
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return None if row is None else _tag("game", game_id, user_id, tuple(row))


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


def tagged(response: _Response, tag: str) -> _Response:
    response["ETag"] = tag
    response["Cache-Control"] = "private, no-cache"  # always revalidate; the 304 is what saves the work
    return response
