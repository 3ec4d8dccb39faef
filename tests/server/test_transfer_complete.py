"""games_export and games_import carry everything a game has. The comparison is written from the models'
fields, and every field is given a value other than its default first, so a field added to a model that
the export does not carry fails here."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.apps import apps
from django.db import models

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
from dipserver.games.services.games import game_concede, game_create, game_draw_vote, game_join, game_pause
from dipserver.games.services.orders import orders_submit, power_ready_set
from dipserver.games.services.phases import phase_process, phase_reminders_sweep
from dipserver.games.services.powers import power_civil_disorder_set, power_seat_take
from dipserver.games.services.press import message_send, press_mark_read, press_post
from dipserver.games.services.transfer import game_export, game_import
from tests.server.conftest import START, seat
from tests.server.field_values import other_than_default


def holds(game: Game, name: str) -> str:
    return "\n".join(
        f"{u['type']} {u['location']} H" for u in game.current_phase.snapshot["units"] if u["power"] == name
    )


def built(users: list[Any], variant: str) -> Game:
    """A game with a processed phase and an open one, orders, readiness, a draw vote, a concession,
    public and private press with an idempotency key, read marks, deadline reminders, two masters, a
    pause, and its start and press not yet told (their tasks never ran)."""
    game = game_create(
        name="Everything", variant=variant, created_by=users[0], masters=[users[5], users[6]],
        deadline_time=dt.time(18, 30), deadline_zone="Europe/Paris", grace_minutes=30, vacation_days=3,
        missed_limit=3, end_year=1910, phase_minutes={"M": 1440, "R": 720, "A": 720},
        **({"powers": 4} if variant == "ice_lords" else {}),
    )  # fmt: skip
    for user in users:
        game.refresh_from_db()
        if game.status != Game.Status.FORMING:
            break
        game_join(game_id=game.id, user=user, now=START)
    names = list(Power.objects.filter(game=game).order_by("name").values_list("name", flat=True))
    first, second, third = (seat(game, n) for n in names[:3])
    orders_submit(game_id=game.id, user=first.user, text=holds(game, first.name), now=START)
    message_send(game_id=game.id, user=first.user, body="Hello all")
    phase_process(phase_id=game.current_phase_id, now=START + dt.timedelta(days=1))
    game.refresh_from_db()
    when = START + dt.timedelta(days=1, hours=2)
    orders_submit(game_id=game.id, user=second.user, text=holds(game, second.name), now=when)
    power_ready_set(game_id=game.id, user=second.user, now=when)
    game_draw_vote(game_id=game.id, user=first.user, vote=True, now=when)
    game_concede(game_id=game.id, user=third.user, to=first.name, now=when)
    press_post(game_id=game.id, user=second.user, body="Psst", recipients=[first.name], idempotency_key="k-1")
    message_send(game_id=game.id, user=third.user, body="Later", recipients=[first.name])
    press_mark_read(game_id=game.id, user=first.user, channel="public")
    press_mark_read(game_id=game.id, user=first.user, channel=second.name)
    game.refresh_from_db()
    phase_reminders_sweep(now=game.current_phase.deadline - dt.timedelta(hours=1))
    power_civil_disorder_set(power_id=third.id)
    Game.objects.filter(id=game.id).update(replacement_approval=True)
    power_seat_take(power_id=third.id, user=users[-1])  # waits for a master's approval
    game_pause(game_id=game.id, now=when + dt.timedelta(hours=1))
    # The record of a newer studio version given to the game (only a studio game has one; carried as rows).
    VersionChange.objects.create(
        game=game, phase_index=1, phase_name=game.current_phase.name, by=users[5],
        from_version={"id": 1, "slug": "small", "number": 1, "version": "a" * 64},
        to_version={"id": 2, "slug": "small", "number": 2, "version": "b" * 64},
        diff={"same": True}, snapshot_before=game.current_phase.snapshot,
    )  # fmt: skip
    return Game.objects.get(id=game.id)


def rows_of(game: Game) -> dict[type[models.Model], Any]:
    """Every row the game has, per model, ordered by its natural key."""
    return {
        Game: Game.objects.filter(id=game.id),
        VariantArchive: VariantArchive.objects.filter(version=game.variant_version),
        Power: Power.objects.filter(game=game).order_by("id"),
        Phase: Phase.objects.filter(game=game).order_by("index"),
        Order: Order.objects.filter(phase__game=game).order_by("phase__index", "id"),
        Message: Message.objects.filter(game=game).order_by("id"),
        PressMark: PressMark.objects.filter(power__game=game).order_by("power__name", "channel"),
        Reminder: Reminder.objects.filter(phase__game=game).order_by("phase__index", "user__username"),
        Announcement: Announcement.objects.filter(game=game).order_by("id"),
        Tenure: Tenure.objects.filter(power__game=game).order_by("power__name", "from_index"),
        SeatRequest: SeatRequest.objects.filter(power__game=game).order_by("power__name", "user__username"),
        VersionChange: VersionChange.objects.filter(game=game).order_by("id"),
    }


def unset_fields_filled(game: Game) -> None:
    """Every field whose value is its default in all of the game's rows gets another value in its first."""
    for model, rows in rows_of(game).items():
        for field in model._meta.concrete_fields:
            if field.is_relation or field.primary_key or not rows.exists():
                continue
            default = field.get_default()
            if all(field.value_from_object(r) == default for r in rows):
                model.objects.filter(pk=rows.first().pk).update(**{field.name: other_than_default(field)})


def natural(obj: models.Model, field: models.Field[Any, Any], game: Game) -> Any:
    """A field's value as it must survive a move to another database: relations by their natural keys,
    a read marker by how many of the game's messages it covers."""
    value = field.value_from_object(obj)
    if isinstance(field, models.ForeignKey):
        target = getattr(obj, field.name)
        if field.related_model is Message and target is not None:  # its place in the game's press
            return Message.objects.filter(game=game, id__lte=target.id).count()
        key = {Power: "name", Phase: "index"}.get(field.related_model, "username")
        return None if target is None else getattr(target, key)
    if isinstance(field, models.ManyToManyField):
        return sorted(u.username for u in value)
    if obj.__class__ is PressMark and field.name == "last_read":
        return Message.objects.filter(game=game, id__lte=value).count()
    return value


def state(game: Game) -> dict[str, list[dict[str, Any]]]:
    out = {}
    for model, rows in rows_of(game).items():
        fields = [
            f for f in [*model._meta.concrete_fields, *model._meta.many_to_many]
            if not (f.primary_key and f.auto_created) and f.name != "game"
        ]  # fmt: skip
        out[model.__name__] = [{f.name: natural(r, f, game) for f in fields} for r in rows]
    return out


@pytest.mark.parametrize("variant", ["ice_lords", "standard"])
def test_an_import_into_an_empty_database_holds_every_field_of_every_row(users, variant):
    game = built(users, variant)
    unset_fields_filled(game)
    before = state(game)
    for name, rows in before.items():
        if name != "VariantArchive" or variant != "ice_lords":  # a generated board has no files to archive
            assert rows, f"the game has no {name} to carry"
    assert set(before) == {m.__name__ for m in apps.get_app_config("games").get_models()}
    data = json.loads(json.dumps(game_export(game_id=game.id)))

    Game.objects.all().delete()
    VariantArchive.objects.all().delete()
    copy = game_import(data=data)

    after = state(copy)
    assert {n: len(rows) for n, rows in after.items()} == {n: len(rows) for n, rows in before.items()}
    lost = [
        f"{name}[{at}].{field}: {old[field]!r} became {new[field]!r}"
        for name in before
        for at, (old, new) in enumerate(zip(before[name], after[name], strict=True))
        for field in old
        if new[field] != old[field]
    ]
    assert lost == []


def test_an_export_in_the_first_format_still_imports(users):
    """``dipserver-game/1``: open orders only, messages with ``phase``, no read marks or message ids."""
    game = built(users, "standard")
    data = json.loads(json.dumps(game_export(game_id=game.id)))
    first = {
        **{k: data[k] for k in ("game", "variant_files", "powers", "phases", "open_orders")},
        "format": "dipserver-game/1",
        "messages": [
            {
                "phase": m["phase_name"],
                **{k: m[k] for k in ("sender", "recipients", "body", "sent_at", "anonymous")},
            }
            for m in data["messages"]
        ],
    }
    first["game"] = {
        k: v for k, v in data["game"].items() if k not in ("created_by", "masters", "current_phase")
    }
    Game.objects.all().delete()
    VariantArchive.objects.all().delete()

    copy = game_import(data=first)

    again = game_export(game_id=copy.id)
    assert again["open_orders"] == data["open_orders"]
    assert [p["snapshot"] for p in again["phases"]] == [p["snapshot"] for p in data["phases"]]
    assert [(m["phase_name"], m["body"], m["sent_at"]) for m in again["messages"]] == [
        (m["phase_name"], m["body"], m["sent_at"]) for m in data["messages"]
    ]
    assert copy.current_phase.index == data["game"]["current_phase"]
