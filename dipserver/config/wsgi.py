"""WSGI entry point (production settings unless DJANGO_SETTINGS_MODULE says otherwise)."""

import os

# Before any dipserver.config import: importing that package loads the Celery app, whose own default
# (local settings, for manage.py and development workers) would otherwise win.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dipserver.config.settings.production")

from django.core.wsgi import get_wsgi_application

from dipserver.config.env import exit_on_config_error

with exit_on_config_error():
    application = get_wsgi_application()
