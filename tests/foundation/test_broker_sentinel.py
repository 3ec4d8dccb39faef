"""The broker's sentinel: one message in a queue no worker reads; its absence means the broker lost what
it held (Redis started again empty), and the deadline sweep queues again what was in flight."""

from __future__ import annotations

from pathlib import Path

from kombu import Connection

from dipserver.core.broker_sentinel import broker_lost_messages, sentinel_missing, sentinel_queue_name


def _broker(tmp_path: Path) -> Connection:
    return Connection(f"sqla+sqlite:///{tmp_path / 'broker.sqlite3'}")


def test_a_new_broker_has_no_sentinel_and_gets_one(tmp_path: Path) -> None:
    with _broker(tmp_path) as conn:
        assert sentinel_missing(conn, "site.sentinel")
        assert not sentinel_missing(conn, "site.sentinel")
        assert not sentinel_missing(conn, "site.sentinel")  # still one message, checked not taken


def test_a_broker_that_lost_its_messages_is_noticed_once(tmp_path: Path) -> None:
    with _broker(tmp_path) as conn:
        sentinel_missing(conn, "site.sentinel")
        conn.default_channel.queue_purge("site.sentinel")  # what a restart without data leaves
        assert sentinel_missing(conn, "site.sentinel")
        assert not sentinel_missing(conn, "site.sentinel")


def test_each_site_has_its_own_sentinel_beside_its_queue(settings) -> None:
    from dipserver.config.celery import app

    assert sentinel_queue_name() == f"{app.conf.task_default_queue}.sentinel"


def test_tasks_run_in_process_have_no_broker_to_lose() -> None:
    assert not broker_lost_messages()
