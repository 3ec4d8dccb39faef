"""The site's Prometheus metrics, read at each scrape from the database and the broker.

Every process (gunicorn workers, Celery pool processes, beat) shares the database and the broker, so the
figures are the site's, whichever web process answers: nothing is counted in one process's memory.

The metrics, each with its meaning, are listed in the README's *Operations* section.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterator
from typing import Any

from django.apps import apps
from django.db.models import Count
from django.utils import timezone
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from dipserver.core.embedded_broker import queue_names
from dipserver.core.health import overdue_after

RECENT = dt.timedelta(minutes=15)
QUANTILES = (0.5, 0.9, 0.99, 1.0)


def metrics_text() -> tuple[bytes, str]:
    """The exposition body and its content type."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(SiteCollector())
    return generate_latest(registry), CONTENT_TYPE_LATEST


class SiteCollector(Collector):
    def collect(self) -> Iterator[Metric]:
        now = timezone.now()
        yield from _phases(now)
        yield from _queues()
        yield from _tasks()
        yield from _deliveries_and_mail()
        yield _heartbeats(now)


def _gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, documentation, value=value)


def _phases(now: dt.datetime) -> Iterator[Metric]:
    phase = apps.get_model("games", "Phase")
    open_ = phase.objects.filter(status="open", game__status="active", deadline__lte=now)
    yield _gauge("dipserver_phases_due", "Open phases of games in play past their deadline", open_.count())
    overdue = open_.filter(deadline__lt=now - overdue_after()).count()
    yield _gauge("dipserver_phases_overdue", "Phases past their deadline by more than the allowance", overdue)
    delays = sorted(
        (processed - deadline).total_seconds()
        for processed, deadline in phase.objects.filter(
            processed_at__gte=now - RECENT, deadline__isnull=False
        ).values_list("processed_at", "deadline")
        if processed >= deadline
    )
    family = GaugeMetricFamily(
        "dipserver_phase_processing_delay_seconds",
        "Seconds from deadline to processing, phases processed in the last 15 minutes",
        labels=["quantile"],
    )
    for q in QUANTILES:
        family.add_metric([str(q)], _quantile(delays, q))
    yield family
    yield _gauge(
        "dipserver_phases_processed_recently", "Phases processed in the last 15 minutes", len(delays)
    )


def _quantile(values: list[float], q: float) -> float:
    """The nearest-rank quantile of sorted ``values`` (0 when there are none)."""
    if not values:
        return 0.0
    return values[min(len(values) - 1, max(0, math.ceil(q * len(values)) - 1))]


def _queues() -> Iterator[Metric]:
    from dipserver.config.celery import app

    family = GaugeMetricFamily("dipserver_queue_messages", "Messages waiting in a queue", labels=["queue"])
    up = 0.0
    if not app.conf.task_always_eager:
        try:
            with app.connection_for_write() as conn:
                conn.ensure_connection(max_retries=1, timeout=3)
                channel = conn.default_channel
                for name in queue_names():
                    declared: Any = channel.queue_declare(queue=name, durable=True, auto_delete=False)
                    family.add_metric([name], declared.message_count)
            up = 1.0
        except Exception:  # kombu raises transport-specific errors; any of them means unreachable
            up = 0.0
    yield family
    yield _gauge("dipserver_broker_up", "1 when the broker answered this scrape", up)


def _tasks() -> Iterator[Metric]:
    from dipserver.core.models import TaskFailure

    failures = CounterMetricFamily("dipserver_task_failures", "Tasks that gave up", labels=["task"])
    retries = CounterMetricFamily("dipserver_task_retries", "Tasks retried", labels=["task"])
    for task, failed, retried in TaskFailure.objects.values_list("task", "failures", "retries"):
        failures.add_metric([task], failed)
        retries.add_metric([task], retried)
    yield failures
    yield retries


def _deliveries_and_mail() -> Iterator[Metric]:
    delivery = apps.get_model("webhooks", "Delivery")
    deliveries = GaugeMetricFamily(
        "dipserver_webhook_deliveries", "Webhook deliveries not delivered", labels=["status"]
    )
    counts = dict(
        delivery.objects.filter(status__in=["pending", "failed"])
        .order_by()
        .values("status")
        .annotate(n=Count("id"))
        .values_list("status", "n")
    )
    for status in ("pending", "failed"):
        deliveries.add_metric([status], counts.get(status, 0))
    yield deliveries
    mail = apps.get_model("mail", "Mail").objects.filter(sent_at__isnull=True)
    outbox = GaugeMetricFamily("dipserver_mail_outbox", "Mails not sent yet", labels=["state"])
    outbox.add_metric(["waiting"], mail.filter(attempts=0).count())
    outbox.add_metric(["retrying"], mail.filter(attempts__gt=0).count())
    yield outbox


def _heartbeats(now: dt.datetime) -> Metric:
    from dipserver.core.models import WorkerHeartbeat

    family = GaugeMetricFamily(
        "dipserver_heartbeat_age_seconds", "Seconds since beat and a worker last ran it", labels=["name"]
    )
    for name, beat_at in WorkerHeartbeat.objects.values_list("name", "beat_at"):
        family.add_metric([name], (now - beat_at).total_seconds())
    return family
