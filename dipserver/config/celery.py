"""The Celery application; workers start it with ``celery -A dipserver.config worker``."""

import os
from typing import Any

from celery import Celery, signals

from dipserver.config.env import exit_on_config_error

# DjangoTask adds delay_on_commit/apply_async_on_commit, so tasks are sent only after the data exists.
app = Celery("dipserver", task_cls="celery.contrib.django.task:DjangoTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.on_configure.connect  # type: ignore[untyped-decorator]  # Celery ships no type hints
def _settings_load_or_exit(**kwargs: Any) -> None:
    """Load Django's settings before Celery reads them, so a bad one stops `celery worker`/`beat` with one
    line (like manage.py) instead of a traceback. Runs once, on the app's first configuration.

    The local-settings default is applied here, not at import time: importing ``dipserver.config`` (as
    wsgi.py does) must not decide the settings module before the entry point has chosen its own.
    """
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dipserver.config.settings.local")
    from django.conf import settings

    with exit_on_config_error():
        settings.INSTALLED_APPS  # noqa: B018 - the attribute access is what loads the settings


@signals.task_prerun.connect  # type: ignore[untyped-decorator]  # Celery ships no type hints
def _database_connections_checked(sender: Any = None, **kwargs: Any) -> None:
    """Before each task a worker runs: drop a kept database connection that had errors, outlived
    CONN_MAX_AGE or fails Django's health check (CONN_HEALTH_CHECKS), so that the task opens a new one.

    Django does this at the start of each request. Workers keep their connection across tasks
    (CELERY_DB_REUSE_MAX), and a connection that a PostgreSQL restart killed would otherwise fail every
    task until the count closes it. The check runs here, before the task, because Django's own lazy check
    cannot replace a connection once the task's first query is inside ``transaction.atomic``.
    """
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return  # in-process (unit tests): the caller's connection and transaction are not ours to touch
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        connection.close_if_unusable_or_obsolete()
        connection.close_if_health_check_failed()
