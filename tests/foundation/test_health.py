"""/healthz and the heartbeat that beat schedules and a worker records."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from dipserver.config.celery import app as celery_app
from dipserver.core.health import worker_status
from dipserver.core.models import WorkerHeartbeat
from dipserver.core.tasks import heartbeat
from dipserver.core.worker_control import DATABASE_CHECK, database_check

pytestmark = pytest.mark.django_db


def test_healthy_site_answers_200_with_each_service(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"] == {"name": "database", "ok": True, "detail": "sqlite"}
    assert body["broker"]["ok"] is True
    assert body["worker"] == {"name": "worker", "ok": False, "detail": "no heartbeat recorded yet"}
    assert response["Cache-Control"].startswith("max-age=0")


def test_unreachable_broker_makes_the_site_unavailable(
    client: Client, celery_conf: Callable[..., None]
) -> None:
    celery_conf(task_always_eager=False, broker_url="redis://127.0.0.1:9/0")
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["broker"]["ok"] is False
    assert body["broker"]["detail"].startswith("redis://127.0.0.1:9/0: ")


def test_heartbeat_task_records_the_worker(client: Client) -> None:
    heartbeat.delay()  # eager in unit tests: runs here, exactly as a worker would
    row = WorkerHeartbeat.objects.get(name="celery")
    assert timezone.now() - row.beat_at < timedelta(seconds=5)
    worker = client.get("/healthz").json()["worker"]
    assert worker["ok"] is True
    assert worker["detail"].startswith("last heartbeat 0s ago from ")


def test_heartbeat_is_idempotent() -> None:
    heartbeat.delay()
    heartbeat.delay()
    assert WorkerHeartbeat.objects.count() == 1


def test_a_stale_heartbeat_fails_the_check(client: Client) -> None:
    """Beat or every worker is down: no deadline is kept, whatever the web processes reach."""
    WorkerHeartbeat.objects.create(name="celery", beat_at=timezone.now() - timedelta(hours=1), hostname="w1")
    response = client.get("/healthz")
    assert response.status_code == 503
    worker = response.json()["worker"]
    assert worker["ok"] is False
    assert worker["detail"] == "last heartbeat 3600s ago from w1"


def test_the_process_scope_asks_only_what_this_process_reaches(client: Client) -> None:
    """docker-compose's check of the web container, which must be healthy before beat and workers start."""
    WorkerHeartbeat.objects.create(name="celery", beat_at=timezone.now() - timedelta(hours=1), hostname="w1")
    response = client.get("/healthz?scope=process")
    assert response.status_code == 200
    assert set(response.json()) == {"status", "database", "broker"}


def test_details_are_for_loopback_and_staff_only(client: Client, django_user_model: Any) -> None:
    remote = client.get("/healthz", REMOTE_ADDR="203.0.113.5").json()
    assert remote["broker"] == {"name": "broker", "ok": True}
    assert remote["database"] == {"name": "database", "ok": True}
    staff = django_user_model.objects.create(username="ops", is_staff=True)
    client.force_login(staff)
    assert "detail" in client.get("/healthz", REMOTE_ADDR="203.0.113.5").json()["broker"]


def test_healthz_refuses_writes(client: Client) -> None:
    assert client.post("/healthz").status_code == 405


def test_beat_schedules_the_heartbeat_task_that_exists() -> None:
    schedule = celery_app.conf.beat_schedule
    assert schedule["worker-heartbeat"]["task"] == heartbeat.name
    assert heartbeat.name in celery_app.tasks


class TestCheckServicesHeartbeat:
    """`check_services --heartbeat-within` is beat's health check in docker-compose.yml."""

    def test_fails_in_one_line_without_a_recent_heartbeat(self, capsys: pytest.CaptureFixture[str]) -> None:
        WorkerHeartbeat.objects.create(
            name="celery", beat_at=timezone.now() - timedelta(minutes=10), hostname="w"
        )
        with pytest.raises(SystemExit) as exit_:
            call_command("check_services", "--heartbeat-within", "180")
        assert exit_.value.code == 2
        assert capsys.readouterr().err.strip() == (
            "dipserver: the Celery worker/beat: cannot reach worker: last heartbeat 600s ago from w"
        )

    def test_passes_after_a_heartbeat(self) -> None:
        heartbeat.delay()
        out = StringIO()
        call_command("check_services", "--heartbeat-within", "180", stdout=out)
        assert "worker ok (last heartbeat 0s ago" in out.getvalue()


class TestWorkerCheck:
    """`check_services --worker NODE` is the worker's health check in docker-compose.yml."""

    def test_a_worker_answers_with_its_own_database_check(self) -> None:
        assert database_check() == {"ok": True, "detail": "sqlite"}

    def test_the_worker_registers_it_as_a_remote_control_command(self) -> None:
        from celery.worker.control import Panel

        assert Panel.data[DATABASE_CHECK] is database_check

    def test_no_answer_from_the_worker_is_a_failure_that_names_it(
        self, celery_conf: Callable[..., None]
    ) -> None:
        celery_conf(task_always_eager=False)
        status = worker_status("celery@nowhere", timeout=0.5)
        assert (status.ok, status.detail) == (False, "celery@nowhere: no answer within 0.5s")
