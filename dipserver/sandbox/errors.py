"""The sandbox's refusals: a ``GameError`` with a code of its own, so the API maps them as it maps every
other service's (``dipserver/api/errors.py``)."""

from dipserver.games.errors import GameError


class SandboxError(GameError):
    """Something a sandbox's owner (or a visitor) asked that the sandbox refuses; the message says why."""
