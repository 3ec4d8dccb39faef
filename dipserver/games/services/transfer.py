"""Export a whole game as JSON and import it again; a replay proves the stored history is consistent.

Format ``dipserver-game/1``: ``game`` (settings, result, the secret — exports are for game masters),
``powers``, ``phases`` (every snapshot, the orders as adjudicated, results and map-change events),
``open_orders`` (orders given so far in the open phase) and ``messages``. Users are named by username
and re-attached on import when that user exists.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.dateparse import parse_datetime, parse_time

from dipserver.games.errors import GameError
from dipserver.games.models import Game, Message, Order, Phase, Power, VariantArchive
from dipserver.games.turn import turn_play
from dipserver.games.variants import game_variant

FORMAT = "dipserver-game/1"
_GAME_FIELDS = (
    "name", "variant", "variant_version", "options", "press", "phase_minutes", "deadline_zone",
    "grace_minutes", "assignment", "missed_limit", "vacation_days", "end_year", "status", "result",
    "winners", "secret", "commitment", "board",
)  # fmt: skip
_TIMES = ("created_at", "started_at", "finished_at", "paused_at")
_POWER_FIELDS = ("name", "preferences", "status", "missed_phases", "seat_open", "vacation_days_left")
_PHASE_FIELDS = ("index", "name", "status", "grace_used", "variant_version", "snapshot", "orders", "results")
_PHASE_FIELDS_MORE = ("events", "skipped")


def game_export(*, game_id: int) -> dict[str, Any]:
    game = Game.objects.filter(id=game_id).first()
    if game is None:
        raise GameError(f"There is no game {game_id}")
    powers = list(Power.objects.filter(game=game).select_related("user").order_by("id"))
    phases = list(Phase.objects.filter(game=game).order_by("index"))
    open_orders = Order.objects.filter(phase__game=game, phase__status=Phase.Status.OPEN).select_related(
        "phase", "power"
    )
    return {
        "format": FORMAT,
        "game": {
            **{f: getattr(game, f) for f in _GAME_FIELDS},
            "deadline_time": game.deadline_time.isoformat() if game.deadline_time else None,
            **{f: _iso(getattr(game, f)) for f in _TIMES},
        },
        # The pinned variant's files, so the importing server plays the same rules (none: generated board).
        "variant_files": next(
            iter(VariantArchive.objects.filter(version=game.variant_version).values_list("files", flat=True)),
            None,
        ),
        "powers": [
            {**{f: getattr(p, f) for f in _POWER_FIELDS}, "user": p.user.username if p.user else None}
            for p in powers
        ],
        "phases": [
            {
                **{f: getattr(p, f) for f in (*_PHASE_FIELDS, *_PHASE_FIELDS_MORE)},
                "deadline": _iso(p.deadline),
                "processed_at": _iso(p.processed_at),
            }
            for p in phases
        ],
        "open_orders": [{"phase": o.phase.index, "power": o.power.name, "text": o.text} for o in open_orders],
        "messages": [
            {
                "phase": m.phase_name,
                "sender": m.sender.name if m.sender else None,
                "recipients": m.recipients,
                "body": m.body,
                "sent_at": _iso(m.sent_at),
                "anonymous": m.anonymous,
            }
            for m in Message.objects.filter(game=game).select_related("sender").order_by("id")
        ],
    }


@transaction.atomic
def game_import(*, data: dict[str, Any], masters: Iterable[Any] = ()) -> Game:
    """A new game holding everything in ``data`` (from ``game_export``)."""
    if data.get("format") != FORMAT:
        raise GameError(f"Not a dipserver game export (expected format {FORMAT!r})")
    spec = data["game"]
    if data.get("variant_files"):
        VariantArchive.objects.get_or_create(
            version=spec["variant_version"],
            defaults={"slug": spec["variant"], "files": data["variant_files"]},
        )
    game = Game.objects.create(
        **{f: spec[f] for f in _GAME_FIELDS if f in spec},
        deadline_time=parse_time(spec["deadline_time"]) if spec["deadline_time"] else None,
        **{f: _parse(spec.get(f)) for f in _TIMES if f != "created_at"},
    )
    game.masters.add(*masters)
    users = {
        u.username: u
        for u in get_user_model().objects.filter(username__in=[p["user"] for p in data["powers"]])
    }
    powers = Power.objects.bulk_create(
        Power(game=game, user=users.get(p["user"]), **{f: p[f] for f in _POWER_FIELDS})
        for p in data["powers"]
    )
    by_name = {p.name: p for p in powers}
    phases = Phase.objects.bulk_create(
        Phase(
            game=game,
            deadline=_parse(p["deadline"]),
            processed_at=_parse(p["processed_at"]),
            **{f: p[f] for f in (*_PHASE_FIELDS, *_PHASE_FIELDS_MORE)},
        )
        for p in data["phases"]
    )
    by_index = {p.index: p for p in phases}
    Order.objects.bulk_create(
        Order(phase=by_index[o["phase"]], power=by_name[o["power"]], text=o["text"])
        for o in data["open_orders"]
    )
    Message.objects.bulk_create(
        Message(
            game=game,
            phase_name=m["phase"],
            sender=by_name.get(m["sender"]),
            recipients=m["recipients"],
            body=m["body"],
            # Exports made before the flag existed: anonymous press is whatever the game's was.
            anonymous=m.get("anonymous", spec["press"] == Game.Press.ANONYMOUS),
        )
        for m in data["messages"]
    )
    game.current_phase = max(phases, key=lambda p: p.index) if phases else None
    game.save(update_fields=["current_phase"])
    game_variant(game)  # its pinned version must be playable here: the archive came along, or matches
    return game


def game_replay(*, game_id: int) -> list[str]:
    """Re-adjudicate every processed phase from its stored snapshot and orders; the differences from the
    stored next snapshot, in words (empty: the history replays exactly)."""
    game = Game.objects.get(id=game_id)
    variant = game_variant(game)
    phases = list(Phase.objects.filter(game=game).order_by("index"))
    problems = []
    for done, following in itertools.pairwise(phases):
        turn = turn_play(
            variant=variant,
            options=game.options,
            secret=game.secret,
            snapshot=done.snapshot,
            order_texts=done.orders,
            end_year=game.end_year,
        )
        if turn.next_snapshot != following.snapshot:
            problems.append(f"phase {done.index} ({done.name}) does not replay to phase {following.index}")
    return problems


def _iso(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value else None


def _parse(value: str | None) -> dt.datetime | None:
    return parse_datetime(value) if value else None
