"""Export a whole game as JSON and import it again; a replay proves the stored history is consistent.

Format ``dipserver-game/2``: ``game`` (every field: settings, result, the secret — exports are for game
masters — and every time), ``powers`` (seats with readiness, draw votes, concessions), ``phases`` (every
snapshot, the orders as adjudicated, results, map-change events and times), ``order_rows`` (every order
given, with when), ``messages`` (press with its anonymity, idempotency key and time sent),
``press_marks`` (how far each power has read each channel), ``tenures`` (who held each seat from which
phase to which), ``seat_requests`` (players asking for an open seat), ``reminders`` (the deadline reminders
announced, so an imported game reminds nobody twice) and ``announcements`` (its events not yet told on
every channel: the importing server's sweep tells them, as it does a phase's untold results) and
``studio_version`` (the studio version the game plays: its files, drawing, tests and author, or null).
Rows carry
every value field of their model (``transfer_rows``), so a field added to a model travels without a
change here. Users are named by username and re-attached on import when that user exists; the game's
masters too. ``open_orders``, the orders given so far in the open phase, is for reading. Format
``dipserver-game/1`` still imports.

A studio game is pinned on import to the same version here (its slug and number, with the same files);
where there is none, the version is made here from the export, frozen as it was and unpublished (the game
plays it; no new game is offered it), under its author's account, which must exist here. A version of that
slug and number with other files, or the slug of another author here, refuses the import.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from dipserver.games.errors import GameError
from dipserver.games.models import (
    Announcement,
    Game,
    Message,
    Order,
    Phase,
    Power,
    PressMark,
    Reminder,
    SeatRequest,
    Tenure,
    VariantArchive,
    VersionChange,
)
from dipserver.games.results_upgrade import phases_filled
from dipserver.games.transfer_rows import bulk_create_as_given, row_in, row_out
from dipserver.games.turn import turn_play
from dipserver.games.variants import game_variant, phase_variant
from dipserver.studio.models import VariantVersion

FORMAT = "dipserver-game/2"
FORMATS = ("dipserver-game/1", FORMAT)


def game_export(*, game_id: int) -> dict[str, Any]:
    game = (
        Game.objects.select_related("created_by", "current_phase", "studio_version__author")
        .filter(id=game_id)
        .first()
    )
    if game is None:
        raise GameError(f"There is no game {game_id}", code="not_found")
    archive = VariantArchive.objects.filter(version=game.variant_version).first()
    orders = list(
        Order.objects.filter(phase__game=game).select_related("phase", "power").order_by("phase__index", "id")
    )
    messages = Message.objects.filter(game=game).select_related("sender").order_by("id")
    marks = PressMark.objects.filter(power__game=game).select_related("power").order_by("power_id", "id")
    return {
        "format": FORMAT,
        "game": {
            **row_out(game),
            "created_by": game.created_by.username if game.created_by else None,
            "masters": sorted(game.masters.values_list("username", flat=True)),
            "current_phase": game.current_phase.index if game.current_phase else None,
        },
        # The studio version the game plays, whole, so the importing server pins the same one.
        "studio_version": _studio_version_out(game.studio_version),
        # The pinned variant's files, so the importing server plays the same rules (none: generated board).
        "variant_files": archive.files if archive else None,
        "variant_archive": row_out(archive) if archive else None,
        "powers": [
            {**row_out(p), "user": p.user.username if p.user else None}
            for p in Power.objects.filter(game=game).select_related("user").order_by("id")
        ],
        "phases": [row_out(p) for p in Phase.objects.filter(game=game).order_by("index")],
        "order_rows": [{**row_out(o), "phase": o.phase.index, "power": o.power.name} for o in orders],
        "open_orders": [
            {"phase": o.phase.index, "power": o.power.name, "text": o.text}
            for o in orders
            if o.phase.status == Phase.Status.OPEN
        ],
        # ``id``: read marks count in message ids, which the import maps to the new ones.
        "messages": [
            {**row_out(m), "id": m.id, "sender": m.sender.name if m.sender else None} for m in messages
        ],
        "press_marks": [{**row_out(m), "power": m.power.name} for m in marks],
        "tenures": [
            {**row_out(t), "power": t.power.name, "user": t.user.username if t.user else None}
            for t in Tenure.objects.filter(power__game=game).select_related("power", "user").order_by("id")
        ],
        "seat_requests": [
            {**row_out(r), "power": r.power.name, "user": r.user.username}
            for r in SeatRequest.objects.filter(power__game=game)
            .select_related("power", "user")
            .order_by("id")
        ],
        "reminders": [
            {**row_out(r), "phase": r.phase.index, "user": r.user.username}
            for r in Reminder.objects.filter(phase__game=game).select_related("phase", "user").order_by("id")
        ],
        # A newer studio version given to the game, and the files of each version it played before.
        "version_changes": [
            {**row_out(c), "id": c.id, "by": c.by.username if c.by else None}
            for c in VersionChange.objects.filter(game=game).select_related("by").order_by("id")
        ],
        "earlier_archives": [
            row_out(a)
            for a in VariantArchive.objects.filter(
                version__in=[c.from_version.get("version") for c in VersionChange.objects.filter(game=game)]
            ).order_by("version")
        ],
        # ``message``, ``change``: the exported id of the press or the version change it tells, which the
        # import maps to the new one.
        "announcements": [
            {**row_out(a), "message": a.message_id, "change": a.change_id}
            for a in Announcement.objects.filter(game=game).order_by("id")
        ],
    }


@transaction.atomic
def game_import(*, data: dict[str, Any], masters: Iterable[Any] = ()) -> Game:
    """A new game holding everything in ``data`` (from ``game_export``); ``masters`` join the exported
    game's masters that exist here."""
    if data.get("format") not in FORMATS:
        raise GameError(f"Not a dipserver game export (expected format {FORMAT!r})")
    spec = data["game"]
    _archive_import(data)
    users = _users(data)
    studio = _studio_version_import(data.get("studio_version"))
    game = Game(
        **row_in(Game, spec), created_by=users.get(spec.get("created_by") or ""), studio_version=studio
    )
    game = bulk_create_as_given(Game, [game], [spec])[0]
    game.masters.add(*masters, *(users[u] for u in spec.get("masters", ()) if u in users))
    powers = bulk_create_as_given(
        Power,
        [Power(game=game, user=users.get(p["user"] or ""), **row_in(Power, p)) for p in data["powers"]],
        data["powers"],
    )
    by_name = {p.name: p for p in powers}
    phases = Phase.objects.bulk_create(Phase(game=game, **row_in(Phase, p)) for p in data["phases"])
    by_index = {p.index: p for p in phases}
    rows = data.get("order_rows", data["open_orders"])
    bulk_create_as_given(
        Order,
        [Order(phase=by_index[o["phase"]], power=by_name[o["power"]], **row_in(Order, o)) for o in rows],
        rows,
    )
    new_ids = _messages_import(
        game, data["messages"], by_name, anonymous=spec["press"] == Game.Press.ANONYMOUS
    )
    _marks_import(data.get("press_marks", []), by_name, new_ids)
    _seats_import(data, by_name)
    # A reminder of a player who has no account here is nobody's to keep.
    reminders = [r for r in data.get("reminders", []) if r["user"] in users]
    bulk_create_as_given(
        Reminder,
        [
            Reminder(phase=by_index[r["phase"]], user=users[r["user"]], **row_in(Reminder, r))
            for r in reminders
        ],
        reminders,
    )
    changes = _version_changes_import(game, data, users)
    _announcements_import(game, data.get("announcements", []), new_ids, changes)
    current = spec.get("current_phase", max(by_index, default=None))
    game.current_phase = by_index.get(current) if current is not None else None
    # An update, not save(): save() bumps the game's version, which arrived as exported like every field.
    Game.objects.filter(pk=game.pk).update(current_phase=game.current_phase)
    variant = game_variant(game)  # its pinned version must be playable here: the archive came, or matches
    # An export made before results were records: their records, read once from the stored text.
    Phase.objects.bulk_update(phases_filled(phases, variant), ["results"])
    return game


def _studio_version_out(version: VariantVersion | None) -> dict[str, Any] | None:
    if version is None:
        return None
    return {**row_out(version), "author": version.author.username}


def _studio_version_import(row: dict[str, Any] | None) -> VariantVersion | None:
    """The studio version an exported game plays, here (module docstring); None for another variant."""
    if row is None:
        return None
    slug, number, author = row["slug"], row["number"], row["author"]
    here = VariantVersion.objects.filter(slug=slug, number=number).first()
    if here is not None:
        if here.version != row["version"]:
            raise GameError(
                f"The game plays studio variant {slug} version {number}, but that version here has other "
                "files: it cannot be imported here",
                code="other_variant",
            )
        return here
    if VariantVersion.objects.filter(slug=slug).exclude(author__username=author).exists():
        raise GameError(
            f"The game plays studio variant {slug}, whose slug belongs to another author here: it cannot "
            "be imported here",
            code="other_variant",
        )
    owner = get_user_model().objects.filter(username=author).first()
    if owner is None:
        raise GameError(
            f"The game plays studio variant {slug} version {number} by {author}, who has no account here: "
            f"make the account {author!r}, then import the game again",
            code="not_found",
        )
    fields = {**row_in(VariantVersion, row), "published": False, "unpublished_at": timezone.now()}
    return bulk_create_as_given(VariantVersion, [VariantVersion(author=owner, **fields)], [row])[0]


def _users(data: dict[str, Any]) -> dict[str, Any]:
    spec = data["game"]
    names = {p["user"] for p in data["powers"]} | {spec.get("created_by"), *spec.get("masters", ())}
    return {u.username: u for u in get_user_model().objects.filter(username__in=names - {None})}


def _seats_import(data: dict[str, Any], by_name: dict[str, Power]) -> None:
    """Who held each seat, and who asks for an open one (a request of someone without an account here
    is nobody's; a tenure keeps its phases with no player)."""
    tenures = [t for t in data.get("tenures", []) if t["power"] in by_name]
    asks = [r for r in data.get("seat_requests", []) if r["power"] in by_name]
    named = {t["user"] for t in tenures} | {r["user"] for r in asks}
    users = {u.username: u for u in get_user_model().objects.filter(username__in=named - {None})}
    bulk_create_as_given(
        Tenure,
        [Tenure(power=by_name[t["power"]], user=users.get(t["user"]), **row_in(Tenure, t)) for t in tenures],
        tenures,
    )
    asks = [r for r in asks if r["user"] in users]
    bulk_create_as_given(
        SeatRequest,
        [
            SeatRequest(power=by_name[r["power"]], user=users[r["user"]], **row_in(SeatRequest, r))
            for r in asks
        ],
        asks,
    )


def _archive_import(data: dict[str, Any]) -> None:
    spec, row = data["game"], data.get("variant_archive")
    if row is None and data.get("variant_files"):
        row = {"version": spec["variant_version"], "slug": spec["variant"], "files": data["variant_files"]}
    if row is not None and not VariantArchive.objects.filter(version=row["version"]).exists():
        bulk_create_as_given(VariantArchive, [VariantArchive(**row_in(VariantArchive, row))], [row])


def _version_changes_import(game: Game, data: dict[str, Any], users: dict[str, Any]) -> dict[int, int]:
    """The game's version changes and the files of the versions they name; exported id -> new id."""
    for row in data.get("earlier_archives", []):
        VariantArchive.objects.get_or_create(version=row["version"], defaults=row_in(VariantArchive, row))
    rows = data.get("version_changes", [])
    created = bulk_create_as_given(
        VersionChange,
        [VersionChange(game=game, by=users.get(r["by"] or ""), **row_in(VersionChange, r)) for r in rows],
        rows,
    )
    return {r["id"]: new.pk for r, new in zip(rows, created, strict=True) if "id" in r}


def _messages_import(
    game: Game, rows: list[dict[str, Any]], by_name: dict[str, Power], *, anonymous: bool
) -> dict[int, int]:
    """Creates the press in the order it was sent; exported message id -> new id."""
    fields = [
        {
            **row_in(Message, m),
            "phase_name": m.get("phase_name", m.get("phase")),
            # Exports made before the flag existed: anonymous press is whatever the game's was.
            "anonymous": m.get("anonymous", anonymous),
        }
        for m in rows
    ]
    created = bulk_create_as_given(
        Message,
        [
            Message(game=game, sender=by_name[m["sender"]] if m["sender"] else None, **f)
            for m, f in zip(rows, fields, strict=True)
        ],
        rows,
    )
    return {m["id"]: new.pk for m, new in zip(rows, created, strict=True) if "id" in m}


def _announcements_import(
    game: Game, rows: list[dict[str, Any]], new_ids: dict[int, int], changes: dict[int, int]
) -> None:
    """The untold events, each press one telling the new message and each version change one the new
    change (one whose message or change did not come is nobody's)."""
    rows = [
        a
        for a in rows
        if (a["message"] is None or a["message"] in new_ids)
        and (a.get("change") is None or a["change"] in changes)
    ]
    untold = [
        Announcement(
            game=game,
            message_id=new_ids.get(a["message"]),
            change_id=changes[a["change"]] if a.get("change") is not None else None,
            **row_in(Announcement, a),
        )
        for a in rows
    ]
    bulk_create_as_given(Announcement, untold, rows)


def _marks_import(rows: list[dict[str, Any]], by_name: dict[str, Power], new_ids: dict[int, int]) -> None:
    """A marker says "read up to message N": it becomes the new id of the last exported message up to N,
    so exactly the same messages are read and unread (ids grow in the order the press was sent)."""
    old = sorted(new_ids)

    def mapped(last_read: int) -> int:
        at = bisect.bisect_right(old, last_read)
        return new_ids[old[at - 1]] if at else 0

    marks = [
        PressMark(power=by_name[m["power"]], **{**row_in(PressMark, m), "last_read": mapped(m["last_read"])})
        for m in rows
    ]
    bulk_create_as_given(PressMark, marks, rows)


def game_replay(*, game_id: int) -> list[str]:
    """Re-adjudicate every processed phase from its stored snapshot and orders; the differences from the
    stored next snapshot, in words (empty: the history replays exactly)."""
    game = Game.objects.get(id=game_id)
    phases = list(Phase.objects.filter(game=game).order_by("index"))
    # A phase a newer studio version was given at opened as the older version left it (the earliest
    # change's record), and each phase plays the version it pinned.
    changes = VersionChange.objects.filter(game=game).order_by("-id")
    opened = {c.phase_index: c.snapshot_before for c in changes if c.snapshot_before is not None}
    problems = []
    for done, following in itertools.pairwise(phases):
        turn = turn_play(
            variant=phase_variant(game, done.variant_version),
            options=game.options,
            secret=game.secret,
            snapshot=done.snapshot,
            order_texts=done.orders,
            end_year=game.end_year,
        )
        if turn.next_snapshot != opened.get(following.index, following.snapshot):
            problems.append(f"phase {done.index} ({done.name}) does not replay to phase {following.index}")
    return problems
