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
