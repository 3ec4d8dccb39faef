"""Mail and webhooks go to a queue of their own, which only the deliveries worker reads (serve and compose
run it beside the worker for phases): a slow receiver or mail server never stands in front of a phase."""

from __future__ import annotations

import pytest

from dipserver.config import celery_app

DELIVERY_TASKS = [
    "dipserver.mail.send",
    "dipserver.mail.send_many",
    "dipserver.mail.outbox_sweep",
    "dipserver.webhooks.deliver",
    "dipserver.webhooks.deliver_many",
    "dipserver.webhooks.sweep",
]


def queue_of(task: str) -> str:
    return str(celery_app.amqp.router.route({}, task)["queue"].name)


@pytest.mark.parametrize("task", DELIVERY_TASKS)
def test_deliveries_are_routed_to_their_own_queue(task, settings):
    assert queue_of(task) == settings.CELERY_DELIVERIES_QUEUE == "deliveries"


@pytest.mark.parametrize(
    "task", ["dipserver.games.phase_process", "dipserver.games.phases_due_sweep", "dipserver.core.heartbeat"]
)
def test_phases_stay_on_the_default_queue(task):
    assert queue_of(task) == celery_app.conf.task_default_queue != "deliveries"
