"""Migration 0004 carries press read before it over to the channels as readers now see them: nothing
read becomes unread again, nothing unread becomes read, and old anonymous press stays anonymous."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("games", "0003_press_marks")]
AFTER = [("games", "0004_press_anonymity_and_idempotency_keys")]


def migrated(target):
    executor = MigrationExecutor(connection)
    executor.migrate(target)
    executor.loader.build_graph()
    return executor.loader.project_state(target).apps


@pytest.fixture
def old_apps(transactional_db):
    """The models as of 0003, on a database migrated back to it; migrated to the newest after the test."""
    yield migrated(BEFORE)
    migrated(MigrationExecutor(connection).loader.graph.leaf_nodes())


def seats(apps, press: str, name: str) -> dict[str, object]:
    game = apps.get_model("games", "Game").objects.create(
        name=name, variant="standard", variant_version="x", press=press, secret="s", commitment="c"
    )
    power = apps.get_model("games", "Power")
    return {n: power.objects.create(game=game, name=n) for n in ("ENGLAND", "FRANCE", "GERMANY", "ITALY")}


def test_group_read_markers_lose_the_readers_own_name(old_apps):
    powers = seats(old_apps, "full", "Open")
    marks = old_apps.get_model("games", "PressMark").objects
    marks.create(power=powers["FRANCE"], channel="ENGLAND,FRANCE,GERMANY", last_read=7)
    marks.create(power=powers["FRANCE"], channel="ENGLAND", last_read=5)

    new = migrated(AFTER).get_model("games", "PressMark").objects
    assert dict(new.filter(power_id=powers["FRANCE"].id).values_list("channel", "last_read")) == {
        "ENGLAND,GERMANY": 7,
        "ENGLAND": 5,
    }


def test_old_anonymous_press_is_flagged_and_its_inbox_marker_stops_at_the_first_unread(old_apps):
    powers = seats(old_apps, "anonymous", "Quiet")
    game_id = powers["FRANCE"].game_id
    message = old_apps.get_model("games", "Message").objects
    sent = [
        message.create(game_id=game_id, phase_name="S1901M", sender=powers[who], recipients=to, body="?").id
        for who, to in (
            ("ENGLAND", ["FRANCE"]),  # read: France's ENGLAND marker is past it
            ("GERMANY", ["FRANCE", "ITALY"]),  # read: the old group channel's marker is past it
            ("ITALY", ["FRANCE"]),  # unread: France never marked ITALY
            ("ENGLAND", ["FRANCE"]),  # read, but after an unread one
        )
    ]
    marks = old_apps.get_model("games", "PressMark").objects
    marks.create(power=powers["FRANCE"], channel="ENGLAND", last_read=sent[3])
    marks.create(power=powers["FRANCE"], channel="FRANCE,GERMANY,ITALY", last_read=sent[1])

    apps = migrated(AFTER)
    assert set(apps.get_model("games", "Message").objects.values_list("anonymous", flat=True)) == {True}
    new = apps.get_model("games", "PressMark").objects
    assert new.get(power_id=powers["FRANCE"].id, channel="anonymous").last_read == sent[1]
