"""ASGI entry point."""

import os

from django.core.asgi import get_asgi_application

from dipserver.config.env import exit_on_config_error

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dipserver.config.settings.production")

with exit_on_config_error():
    application = get_asgi_application()
