"""Development on one machine: DEBUG on, SQLite and the embedded broker unless told otherwise."""

from dipserver.config.env import flag
from dipserver.config.settings.base import *  # noqa: F403

DEBUG = flag("DEBUG", default=True)
