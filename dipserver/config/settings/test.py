"""The test suite: fast and self-contained; integration tests opt into real services via the environment."""

import os

from dipserver.config.env import flag
from dipserver.config.settings.base import *  # noqa: F403

DEBUG = False
SECRET_KEY = "test-secret-key-not-used-anywhere-else"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed over strength in tests
# Mail stays in memory, unless EMAIL_URL names a server (the integration stage's workers and their SMTP
# server on loopback).
if not os.environ.get("EMAIL_URL", "").strip():
    EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

# Unit tests run tasks in-process; the integration stage sets CELERY_BROKER_URL and turns this off.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "").strip() or "memory://"
CELERY_BROKER_TRANSPORT_OPTIONS = {}
# The integration stage's worker and beat processes set it to false: a worker runs what its tasks queue
# (and Celery's retries, with their countdowns) through the broker, as in production.
CELERY_TASK_ALWAYS_EAGER = flag("CELERY_TASK_ALWAYS_EAGER", default=True)
CELERY_TASK_EAGER_PROPAGATES = True

# Serve static files straight from static/ (no collectstatic in tests), as DEBUG does locally.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# The webhook tests post to a receiver they start on loopback (private addresses stay refused).
DIPSERVER_WEBHOOKS_ALLOW_LOOPBACK = True

# The API parses JSON only, so DRF's test client sends JSON unless a test names another format.
REST_FRAMEWORK = {**REST_FRAMEWORK, "TEST_REQUEST_DEFAULT_FORMAT": "json"}  # noqa: F405
