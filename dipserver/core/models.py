"""Operational state of the site itself (not game data)."""

from django.db import models


class WorkerHeartbeat(models.Model):
    """The last time a Celery worker ran the periodic heartbeat task that beat schedules.

    A recent row proves the whole chain — beat, broker, worker, database — is working.
    """

    name = models.CharField(max_length=64, primary_key=True)
    beat_at = models.DateTimeField()
    hostname = models.CharField(max_length=255)

    def __str__(self) -> str:
        return f"{self.name} on {self.hostname} at {self.beat_at:%Y-%m-%d %H:%M:%S}"


class TaskFailure(models.Model):
    """How often a Celery task failed (gave up) or was retried, for /metrics: written by the worker's
    signal handlers (``dipserver.config.celery``), one row per task name."""

    task = models.CharField(max_length=200, primary_key=True)
    failures = models.PositiveBigIntegerField(default=0)
    retries = models.PositiveBigIntegerField(default=0)
    last_at = models.DateTimeField()
    last_error = models.TextField(blank=True)

    def __str__(self) -> str:
        return f"{self.task}: {self.failures} failed, {self.retries} retried"
