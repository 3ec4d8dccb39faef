"""The embedded broker (kombu's SQLAlchemy transport on SQLite) keeps the messages it handed out; the
hourly tidy deletes those taken long ago and nothing a worker has not taken."""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path

from django.conf import settings as django_settings
from kombu import Connection

from dipserver.core.embedded_broker import embedded_broker_tidied


def _rows(path: Path) -> list[tuple[int, str]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT visible, payload FROM kombu_message ORDER BY id").fetchall()


def test_messages_taken_long_ago_are_deleted_and_waiting_ones_kept(tmp_path: Path, settings) -> None:
    path = tmp_path / "broker.sqlite3"
    settings.CELERY_BROKER_URL = f"sqla+sqlite:///{path}"
    with Connection(settings.CELERY_BROKER_URL) as conn:
        queue = conn.SimpleQueue("celery")
        queue.put("taken")
        queue.put("waiting")
        queue.get(timeout=5).ack()
        queue.close()
    assert [visible for visible, _ in _rows(path)] == [0, 1]
    assert embedded_broker_tidied() == 0  # taken a moment ago: kept for an hour
    assert embedded_broker_tidied(taken_before=dt.datetime.now() + dt.timedelta(seconds=1)) == 1
    assert [visible for visible, _ in _rows(path)] == [1]


def test_another_broker_is_left_alone(settings) -> None:
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:9/0"
    assert embedded_broker_tidied() == 0


def test_a_broker_never_used_has_nothing_to_tidy(tmp_path: Path, settings) -> None:
    settings.CELERY_BROKER_URL = f"sqla+sqlite:///{tmp_path / 'new.sqlite3'}"
    assert embedded_broker_tidied() == 0


def test_beat_tidies_hourly() -> None:
    entry = django_settings.CELERY_BEAT_SCHEDULE["embedded-broker-tidy"]
    assert (entry["task"], entry["schedule"]) == ("dipserver.core.embedded_broker_tidy", 3600.0)


def test_check_services_creates_the_queues_before_any_process_uses_them(manage, clean_env) -> None:
    """A web process and a worker starting together once raced to create the same queue."""
    assert manage("check_services").returncode == 0
    path = Path(clean_env["DIPSERVER_VAR_DIR"]) / "celery-broker.sqlite3"
    with sqlite3.connect(path) as db:
        queues = {name for (name,) in db.execute("SELECT name FROM kombu_queue")}
    assert {"celery", "deliveries", "pictures"} <= queues
