"""The Celery app's configuration: JSON only, bounded, safe to redeliver, Django-aware tasks."""

from __future__ import annotations

from celery.contrib.django.task import DjangoTask

from dipserver.config import celery_app
from dipserver.core.tasks import heartbeat


def test_only_json_crosses_the_broker() -> None:
    conf = celery_app.conf
    assert conf.accept_content == ["json"]
    assert conf.task_serializer == "json"
    assert conf.result_serializer == "json"


def test_tasks_are_time_limited_and_acknowledged_late() -> None:
    conf = celery_app.conf
    assert 0 < conf.task_soft_time_limit < conf.task_time_limit
    assert conf.task_acks_late is True
    assert conf.task_reject_on_worker_lost is True
    assert conf.worker_prefetch_multiplier == 1


def test_tasks_can_wait_for_the_transaction_to_commit() -> None:
    assert isinstance(heartbeat, DjangoTask)
    assert callable(heartbeat.delay_on_commit)


def test_unit_tests_run_tasks_in_process() -> None:
    assert celery_app.conf.task_always_eager is True
    assert celery_app.conf.broker_url == "memory://"
