"""Cheap validators for polling clients: a weak ETag computed from a few small queries, never from the
response body, so a conditional GET that matches answers 304 without building the answer.

A tag covers exactly what that viewer can see, so it neither goes stale nor leaks:

- ``Game.version``, which every save of a game bumps (services and the admin alike): any setting;
- the current phase's status and deadline, and each seat's public state (status, readiness, whether it
  has orders, not which or how many);
- the viewer's own secrets (draw vote, concession; on a phase, the version of the viewer's own orders),
  which only the viewer's tag includes: another power revising its orders changes nobody else's tag.
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
    Exists,
    F,
    Func,
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
    """Texts joined with commas in the order of a key, so equal rows always make equal text:
    ``STRING_AGG(text, ',' ORDER BY key)`` in PostgreSQL (which otherwise joins them in the order it
    finds them, and an update moves a row), ``GROUP_CONCAT`` likewise in SQLite 3.44 and later. An older
    SQLite has no ORDER BY there; it reads a game's rows by its index on the game, in id order within it,
    and never moves a row that is updated."""

    function = "GROUP_CONCAT"
    template = "%(function)s(%(expressions)s)"
    arg_joiner = ", ',' ORDER BY "  # text, key -> text, ',' ORDER BY key
    output_field = CharField()

    def __init__(self, text: Any, key: Any) -> None:
        super().__init__(text, key)

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return super().as_sql(compiler, connection, function="STRING_AGG", **extra)

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        if connection.Database.sqlite_version_info >= (3, 44):
            return super().as_sql(compiler, connection, **extra)
        text, _key, no_filter = self.get_source_expressions()
        unordered = self.copy()
        unordered.set_source_expressions([text, no_filter])
        return super(_Joined, unordered).as_sql(
            compiler, connection, template="GROUP_CONCAT(%(expressions)s, ',')"
        )


def _text(field: str) -> Any:
    return Coalesce(Cast(field, CharField()), Value(""))


def _joined_text(*parts: Any) -> Func:
    """``a || b || c`` flat (Django's Concat nests pairs, too deep for SQLite's parser)."""
    return Func(*parts, template="(%(expressions)s)", arg_joiner=" || ", output_field=CharField())


def _seats(user_id: int) -> Subquery:
    """Every seat of the game as one string, in seat order, with what anyone who may watch sees of it
    (the game detail's ``powers``; who holds each seat is ``_players``). Whether a seat has orders for
    the current phase is public (``has_orders``); how many or which, and when they were last revised, are
    not. Draw votes and concessions are secret: only the viewer's own are part of it (which also marks
    the viewer's seat), so another power's vote never changes the viewer's tag."""
    fields = ("id", "name", "status", "ready", "seat_open", "missed_phases")
    ordered = Exists(
        Order.objects.filter(power_id=OuterRef("id"), phase_id=OuterRef(OuterRef("current_phase_id")))
    )
    has_orders = Case(When(ordered, then=Value("o")), default=Value("-"), output_field=CharField())
    secret = Case(
        When(Q(user_id=user_id), then=_joined_text(_text("draw_vote"), Value("|"), _text("concede_to"))),
        default=Value(""),
        output_field=CharField(),
    )
    parts = (part for name in fields for part in (_text(name), Value("|")))
    row = _joined_text(*parts, has_orders, Value("|"), secret)
    seats = Power.objects.filter(game_id=OuterRef("id")).order_by().values("game_id")
    return Subquery(seats.annotate(all=_Joined(row, F("id"))).values("all")[:1])


def _players() -> Subquery:
    """Who holds each seat (id and username), in seat order."""
    player = _joined_text(_text("id"), Value(":"), _text("user_id"), Value(":"), _text("user__username"))
    seats = Power.objects.filter(game_id=OuterRef("id")).order_by().values("game_id")
    return Subquery(seats.annotate(all=_Joined(player, F("id"))).values("all")[:1])


_GAME, _USER = -7_000_001, -7_000_002  # stand-ins for the two parameters in the compiled SQL


def _game_state(game_id: int, user_id: int, admin: bool) -> Any:
    """The game as this viewer sees it. A master (one of the game's, or an admin: a superuser) may act
    on it and sees who plays; so does everyone unless the game is anonymous and still in play, and those
    players are then part of the tag, asked for once per game."""
    players: Any = _players()
    if admin:
        master: Any = Value(True)
    else:
        master = Exists(Game.masters.through.objects.filter(game_id=OuterRef("id"), user_id=user_id))
        shown = ~Q(press=Game.Press.ANONYMOUS.value) | Q(status=Game.Status.FINISHED.value) | Q(master)
        players = Case(When(shown, then=players), default=Value(""), output_field=CharField())
    return (
        Game.objects.filter(id=game_id)
        .annotate(master=master, seats=_seats(user_id), players=players)
        .order_by()
        .values_list(
            "version",  # every setting: any save of the game bumps it
            "status",
            "current_phase_id",
            "current_phase__status",
            "current_phase__deadline",
            "master",
            "seats",
            "players",
        )[:1]
    )


@functools.lru_cache(maxsize=8)
def _game_state_sql(alias: str, admin: bool) -> tuple[str, tuple[Any, ...]]:
    """The query compiled once per database (and for admins or not): building it with the ORM costs
    more than running it."""
    # _game_state() is typed Any; Django's SQLCompiler.as_sql() returns (sql, tuple(params)).
    query = _game_state(_GAME, _USER, admin).query
    return cast(tuple[str, tuple[Any, ...]], query.get_compiler(using=alias).as_sql())


def game_tag(game_id: int, user_id: int | None, *, admin: bool = False) -> str | None:
    """The state of a game as its detail shows it to this viewer (``admin``: a superuser, who masters
    every game); ``None`` when there is no such game. One query: the game's version, its current phase,
    the seats, who holds them where the viewer may know, and the viewer's mastership."""
    sql, template = _game_state_sql(DEFAULT_DB_ALIAS, admin)
    params = [game_id if p == _GAME else (user_id or 0) if p == _USER else p for p in template]
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return None if row is None else _tag("game", game_id, user_id, admin, tuple(row))


def phase_tag(game_id: int, index: int, user_id: int | None, extra: Any = None) -> str | None:
    """The state of one phase as this viewer sees it: the phase row, the game's version and, for a
    player, the version of their own orders (an open phase shows only those). Everyone's orders appear
    when the phase is processed, which changes its status. One query."""
    mine = Power.objects.filter(game_id=OuterRef("game_id"), user_id=user_id or 0).values("orders_version")
    row = (
        Phase.objects.filter(game_id=game_id, index=index)
        .annotate(mine=Subquery(mine[:1]))
        .values_list(
            "id", "status", "deadline", "processed_at", "game__version", "game__status", "game__press", "mine"
        )
        .first()
    )
    if row is None:
        return None
    return _tag("phase", game_id, index, user_id, row, extra)


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
