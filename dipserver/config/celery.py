"""The Celery application; workers start it with ``celery -A dipserver.config worker``."""

import os
from typing import Any

from celery import Celery

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
