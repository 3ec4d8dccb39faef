"""Every migration of the project's apps, rolled back one step and applied again, keeps every row and
every value: the test fills each model as it stands after the migration (every field other than its
default), migrates back and forward, and compares. An app's first migration is left out: rolling it back
removes the app."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.db.models import Model

from tests.server.field_values import other_than_default

APPS = ("accounts", "core", "games", "mail", "notices", "players", "webhooks", "studio")

# Every migration back and forth: seconds each, run by .ci/run's second stage (on PostgreSQL).
pytestmark = pytest.mark.slow


def steps() -> list[tuple[str, str, str]]:
    """(app, migration, the one before it) for every migration but the first of each app, in order."""
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    out = []
    for app in APPS:
        for key in graph.forwards_plan(max(graph.leaf_nodes(app))):
            parents = [p for p in graph.node_map[key].parents if p.key[0] == app]
            if key[0] == app and parents:
                out.append((app, key[1], parents[0].key[1]))
    return out


def migrated(target: list[tuple[str, str]]) -> Any:
    """Migrate to ``target``; the models as the database now stands, every app's applied migrations (an
    app the target does not name stays where it was, newer than the target's own dependencies)."""
    executor = MigrationExecutor(connection)
    executor.migrate(target)
    executor.loader.build_graph()
    return executor.loader.project_state(sorted(executor.loader.applied_migrations)).apps


def project_models(apps: Any) -> list[type[Model]]:
    return [m for m in apps.get_models(include_auto_created=True) if m._meta.app_label in APPS]


def row_for(model: type[Model], made: dict[type[Model], Model]) -> Model:
    """One row of ``model`` with every field other than its default; related rows made first."""
    if model not in made:
        values = {}
        for field in model._meta.concrete_fields:
            if field.primary_key and field.auto_created:
                continue
            if field.is_relation:
                if not field.null:  # nullable ones are set once every row is there (they may form a loop)
                    values[field.name] = row_for(field.related_model, made)
            else:
                values[field.name] = other_than_default(field)
        made[model] = model._default_manager.create(**values)
        # auto_now(_add) stamped the time of creation: put the chosen value in, as a restore would have it.
        model._default_manager.filter(pk=made[model].pk).update(
            **{k: v for k, v in values.items() if not isinstance(v, Model)}
        )
    return made[model]


def rows(apps: Any) -> dict[str, list[dict[str, Any]]]:
    return {
        m._meta.label: list(
            m._default_manager.order_by("pk").values(*[f.attname for f in m._meta.concrete_fields])
        )
        for m in project_models(apps)
    }


@pytest.fixture
def latest_after(transactional_db):
    yield
    migrated(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.parametrize(("app", "name", "before"), steps(), ids=[f"{a}.{n}" for a, n, _ in steps()])
def test_rolling_a_migration_back_and_applying_it_again_keeps_every_value(latest_after, app, name, before):
    apps = migrated([(app, name)])
    made: dict[type[Model], Model] = {}
    for model in project_models(apps):
        row_for(model, made)
    for model in project_models(apps):
        nullable = [f for f in model._meta.concrete_fields if f.is_relation and f.null]
        model._default_manager.update(**{f.name: row_for(f.related_model, made) for f in nullable})
    kept = rows(apps)

    migrated([(app, before)])
    again = rows(migrated([(app, name)]))

    assert {k: len(v) for k, v in again.items()} == {k: len(v) for k, v in kept.items()}
    lost = [
        f"{label}.{field}: {old[field]!r} became {new.get(field)!r}"
        for label in kept
        for old, new in zip(kept[label], again[label], strict=True)
        for field in old
        if new.get(field) != old[field]
    ]
    assert lost == []


LATEST = [("games", "0004_press_anonymity_and_idempotency_keys")]
OLDER = [("games", "0003_press_marks")]


def press_game(apps: Any, press: str) -> tuple[int, dict[str, Any]]:
    game = apps.get_model("games", "Game").objects.create(
        name=press, variant="standard", variant_version="x", press=press, secret="s", commitment="c"
    )
    power = apps.get_model("games", "Power").objects
    return game.id, {n: power.create(game=game, name=n) for n in ("ENGLAND", "FRANCE", "GERMANY", "ITALY")}


def press_read(apps: Any) -> dict[str, list[Any]]:
    return {
        "marks": list(apps.get_model("games", "PressMark").objects.order_by("id").values_list()),
        "messages": list(apps.get_model("games", "Message").objects.order_by("id").values_list()),
    }


@pytest.mark.parametrize("read_meanwhile", [False, True], ids=["as it was", "read while rolled back"])
def test_rolled_back_press_reads_under_the_old_channel_names_and_comes_back(latest_after, read_meanwhile):
    apps = migrated(LATEST)
    message, mark = apps.get_model("games", "Message").objects, apps.get_model("games", "PressMark").objects
    open_id, seats = press_game(apps, "full")
    group = message.create(game_id=open_id, phase_name="S1901M", sender=seats["ENGLAND"], body="?",
                           recipients=["FRANCE", "GERMANY"], idempotency_key="retry-1").id  # fmt: skip
    mark.create(power=seats["FRANCE"], channel="ENGLAND,GERMANY", last_read=group)
    quiet_id, hidden = press_game(apps, "anonymous")
    sent = [
        message.create(
            game_id=quiet_id, phase_name="S1901M", sender=hidden[who], body="?", recipients=to, anonymous=True
        ).id
        for who, to in (("ENGLAND", ["FRANCE"]), ("GERMANY", ["FRANCE", "ITALY"]), ("ITALY", ["FRANCE"]))
    ]
    # Sent while the game still had full press: it names its sender, whatever the game's setting now.
    message.create(game_id=quiet_id, phase_name="S1901M", sender=hidden["ITALY"], body="!", recipients=[])
    mark.create(power=hidden["FRANCE"], channel="anonymous", last_read=sent[1])
    before = press_read(apps)

    older = migrated(OLDER)
    old_marks = older.get_model("games", "PressMark").objects
    assert dict(old_marks.filter(power_id=seats["FRANCE"].id).values_list("channel", "last_read")) == {
        "ENGLAND,FRANCE,GERMANY": group
    }
    assert dict(old_marks.filter(power_id=hidden["FRANCE"].id).values_list("channel", "last_read")) == {
        "ENGLAND": sent[0],
        "FRANCE,GERMANY,ITALY": sent[1],
    }
    if read_meanwhile:
        later = (
            older.get_model("games", "Message")
            .objects.create(
                game_id=open_id,
                phase_name="S1901M",
                sender_id=seats["GERMANY"].id,
                body="and?",
                recipients=["ENGLAND", "FRANCE"],
            )
            .id
        )
        old_marks.filter(power_id=seats["FRANCE"].id).update(last_read=later)

    after = press_read(migrated(LATEST))
    if not read_meanwhile:
        assert after == before
    else:
        assert after["messages"][: len(before["messages"])] == before["messages"]
        new_marks = apps.get_model("games", "PressMark").objects
        assert new_marks.get(power_id=seats["FRANCE"].id, channel="ENGLAND,GERMANY").last_read == later
        assert new_marks.get(power_id=hidden["FRANCE"].id, channel="anonymous").last_read == sent[1]


UNTOLD = [("games", "0011_announcements")]
TOLD_ONLY_BY_PHASE = [("games", "0010_phase_announce_due")]


def test_rolled_back_untold_events_come_back_but_for_those_of_a_game_deleted_meanwhile(latest_after):
    apps = migrated(UNTOLD)
    kept_id, seats = press_game(apps, "full")
    gone_id, _ = press_game(apps, "public")
    message = apps.get_model("games", "Message").objects.create(
        game_id=kept_id, phase_name="S1901M", sender=seats["ENGLAND"], body="?"
    )
    untold = apps.get_model("games", "Announcement").objects
    due = dt.datetime(2026, 3, 1, 12, 5, tzinfo=dt.UTC)
    untold.create(game_id=kept_id, sender="game_started_send", due=due)  # of the game: no message
    untold.create(game_id=kept_id, message=message, sender="press_send", due=due)
    untold.create(game_id=gone_id, sender="game_ended_send", due=due)
    before = list(untold.order_by("id").values_list())

    older = migrated(TOLD_ONLY_BY_PHASE)
    older.get_model("games", "Game").objects.filter(id=gone_id).delete()

    after = list(migrated(UNTOLD).get_model("games", "Announcement").objects.order_by("id").values_list())
    assert after == before[:2]
