"""WSGI entry point for gunicorn."""

import os

from django.core.wsgi import get_wsgi_application

from dipserver.config.env import exit_on_config_error

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dipserver.config.settings.production")

with exit_on_config_error():
    application = get_wsgi_application()
