"""The real thing: PostgreSQL, Redis and a separate Celery worker process working together."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.test import Client

from dipserver.core.health import worker_status
from dipserver.core.models import WorkerHeartbeat
from dipserver.core.tasks import heartbeat

from .conftest import Worker, Workers

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_database_is_postgresql(postgres_url: str) -> None:
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        (version,) = cursor.fetchone()
    assert int(version.split(".")[0]) >= 13


def test_worker_runs_a_task_sent_through_redis_and_writes_to_postgres(
    celery_worker: Worker, wait_for: Callable[..., object]
) -> None:
    name = f"it-{uuid.uuid4().hex[:12]}"
    heartbeat.apply_async(args=[name], queue=celery_worker.queue)
    row = wait_for(lambda: WorkerHeartbeat.objects.filter(name=name).first(), what="the heartbeat row")
    assert isinstance(row, WorkerHeartbeat)
    # The separate worker process ran it (its log shows the task's return value), not this process. The
    # worker writes that line after the task has returned, so it may come a moment after the row.
    wait_for(
        lambda: any(
            "succeeded" in line and repr(name) in line for line in celery_worker.log.read_text().splitlines()
        ),
        what="the worker's log line of the task's success",
    )


def test_task_sent_on_commit_is_not_sent_when_the_transaction_rolls_back(
    celery_worker: Worker, wait_for: Callable[..., object]
) -> None:
    kept, dropped = f"it-kept-{uuid.uuid4().hex[:8]}", f"it-dropped-{uuid.uuid4().hex[:8]}"
    with pytest.raises(RuntimeError), transaction.atomic():
        heartbeat.apply_async_on_commit(args=[dropped], queue=celery_worker.queue)
        raise RuntimeError("roll back")
    with transaction.atomic():
        heartbeat.apply_async_on_commit(args=[kept], queue=celery_worker.queue)
    wait_for(lambda: WorkerHeartbeat.objects.filter(name=kept).exists(), what="the committed task")
    # The worker consumes one queue in order, so the dropped task would have run before the kept one.
    assert not WorkerHeartbeat.objects.filter(name=dropped).exists()


def test_healthz_reports_postgresql_and_redis(
    client: Client, redis_url: str, celery_conf: Callable[..., None]
) -> None:
    celery_conf(task_always_eager=False)
    response = client.get("/healthz")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["database"]["detail"] == "postgresql"
    assert body["broker"]["detail"].startswith("redis://")


def test_the_worker_health_check_passes_for_a_worker_that_reaches_postgres_through_redis(
    celery_worker: Worker,
) -> None:
    status = worker_status(celery_worker.nodename)
    assert status.ok, status.detail
    assert status.detail == f"{celery_worker.nodename} answers through the broker and reaches postgresql"
    out = StringIO()
    call_command("check_services", "--worker", celery_worker.nodename, stdout=out)
    assert f"worker ok ({celery_worker.nodename} answers" in out.getvalue()


def test_the_worker_health_check_fails_for_a_worker_that_cannot_reach_its_database(
    postgres_url: str, redis_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A worker that runs, answers pings and consumes from Redis, but whose database does not exist.
    lost = Workers(postgres_url.rsplit("/", 1)[0] + "/no_such_database", redis_url, tmp_path)
    try:
        lost.start()
        node = lost.nodenames[0]
        with pytest.raises(SystemExit) as exit_:
            call_command("check_services", "--worker", node)
    finally:
        lost.stop()
    assert exit_.value.code == 2
    assert f"cannot reach worker: {node} cannot reach the database: postgresql:" in capsys.readouterr().err
