"""The Celery application; workers start it with ``celery -A dipserver.config worker``."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dipserver.config.settings.local")

# DjangoTask adds delay_on_commit/apply_async_on_commit, so tasks are sent only after the data exists.
app = Celery("dipserver", task_cls="celery.contrib.django.task:DjangoTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
