"""The one error type services raise for anything a player or game master can cause."""

from __future__ import annotations

from typing import Any


class GameError(ValueError):
    """A request the rules or the game's state refuse; the message is meant for the person asking.

    ``code`` is the stable, machine-readable name of the refusal (``refused`` unless a client may want to
    tell it apart); ``dipserver/api/errors.py`` maps codes to HTTP statuses. ``problems``: each thing
    that refuses it, as data (``{"code", "message", ...}``), when there are several to name."""

    def __init__(
        self, message: str, *, code: str = "refused", problems: tuple[dict[str, Any], ...] = ()
    ) -> None:
        super().__init__(message)
        self.code = code
        self.problems = problems
