#!/usr/bin/env python
"""Django's command-line utility; defaults to the local development settings."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dipserver.config.settings.local")
    from django.conf import settings
    from django.core.management import execute_from_command_line

    from dipserver.config.env import exit_on_config_error

    with exit_on_config_error():
        settings.INSTALLED_APPS  # noqa: B018 - load settings now so a bad one stops us with one line
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
