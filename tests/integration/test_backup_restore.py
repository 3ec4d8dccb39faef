"""A whole site backed up and restored as the README says: ``pg_dump -Fc`` of a live database with games
in progress, ``pg_restore`` into an empty database, Django pointed at that one, and every game plays on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from dipserver.games.models import Game, PressMark
from dipserver.games.services.games import game_create, game_join
from dipserver.games.services.orders import orders_submit, power_ready_set
from dipserver.games.services.phases import phase_process
from dipserver.games.services.press import message_send, press_mark_read
from dipserver.games.services.transfer import game_export

from .conftest import ROOT

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

# Run by Django on the restored database: each game as it stands, then its next phase processed.
PLAY_ON = """
import json
from django.utils import timezone
from dipserver.games.models import Game, Phase
from dipserver.games.services.phases import phase_process
from dipserver.games.services.transfer import game_export
out = {}
for game in Game.objects.order_by("id"):
    exported = game_export(game_id=game.id)
    phase_process(phase_id=game.current_phase_id, now=timezone.now(), force=True)
    game.refresh_from_db()
    done = Phase.objects.get(game=game, index=game.current_phase.index - 1)
    out[game.id] = {"export": exported, "now": game.current_phase.index, "done": done.status}
print("PLAYED", json.dumps(out))
"""


def in_progress(tag: str, variant: str, seats: int) -> Game:
    """A started game one phase in: orders, readiness, press and a read mark in its open phase."""
    users = [
        get_user_model().objects.create(username=f"{tag}-{i}-{uuid.uuid4().hex[:6]}") for i in range(seats)
    ]
    game = game_create(
        name=f"Backup {tag}", variant=variant, **({"powers": seats} if variant == "ice_lords" else {})
    )
    for user in users:
        game_join(game_id=game.id, user=user)
    game.refresh_from_db()
    phase_process(phase_id=game.current_phase_id, now=timezone.now(), force=True)
    game.refresh_from_db()
    first, second = sorted({u["power"] for u in game.current_phase.snapshot["units"]})[:2]
    seat = {p.name: p.user for p in game.powers.select_related("user")}
    holds = [
        f"{u['type']} {u['location']} H" for u in game.current_phase.snapshot["units"] if u["power"] == first
    ]
    assert orders_submit(game_id=game.id, user=seat[first], text="\n".join(holds)).ok
    power_ready_set(game_id=game.id, user=seat[first])
    message_send(game_id=game.id, user=seat[second], body="Backed up?", recipients=[first])
    press_mark_read(game_id=game.id, user=seat[first], channel=second)
    return Game.objects.get(id=game.id)


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def run(command: list[str], **env: str) -> str:
    done = subprocess.run(
        command, cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_a_dump_restored_into_an_empty_database_plays_every_game_on(
    postgres_url: str, tmp_path: Path
) -> None:
    games = [in_progress("standard", "standard", 7), in_progress("ice", "ice_lords", 4)]
    exported = {str(g.id): game_export(game_id=g.id) for g in games}
    dump = tmp_path / "site.dump"
    run(["pg_dump", "-Fc", "--no-owner", "-f", str(dump), postgres_url])

    restored = f"{urlsplit(postgres_url).path.lstrip('/')}_restored_{uuid.uuid4().hex[:6]}"
    restored_url = with_database(postgres_url, restored)
    run(
        ["createdb", "-T", "template0", "--maintenance-db", with_database(postgres_url, "postgres"), restored]
    )
    try:
        run(["pg_restore", "--no-owner", "--exit-on-error", "-d", restored_url, str(dump)])
        django = {"DATABASE_URL": restored_url, "DJANGO_SETTINGS_MODULE": "dipserver.config.settings.test"}
        run([sys.executable, "manage.py", "migrate", "--check"], **django)
        output = run([sys.executable, "manage.py", "shell", "-c", PLAY_ON], **django)
        played = json.loads(output.rpartition("PLAYED ")[2])
    finally:
        run(
            [
                "dropdb",
                "--if-exists",
                "--force",
                "--maintenance-db",
                with_database(postgres_url, "postgres"),
                restored,
            ]
        )

    assert set(played) == set(exported)
    for game in games:
        after = played[str(game.id)]
        assert after["export"] == exported[str(game.id)], "the restored game differs from the original"
        assert after["done"] == "processed"
        assert after["now"] == game.current_phase.index + 1


def test_a_table_a_rollback_dropped_takes_new_rows_after_its_rows_come_back(postgres_url: str) -> None:
    """PostgreSQL gives a re-created table a new id sequence: the restored rows must not collide with
    the next one (games 0003, whose read marks a rollback keeps in the stash)."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    from tests.server.test_migrations_round_trip import migrated

    game = in_progress("rollback", "standard", 7)
    marks = PressMark.objects.filter(power__game=game)
    assert marks.count() == 1
    try:
        migrated([("games", "0002_variant_archive_and_board")])
        apps = migrated([("games", "0003_press_marks")])
    finally:
        migrated(MigrationExecutor(connection).loader.graph.leaf_nodes())
    assert marks.count() == 1
    apps.get_model("games", "PressMark").objects.create(
        power_id=game.powers.get(name="ENGLAND").id, channel="x"
    )
