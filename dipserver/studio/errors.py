"""The one error type the studio's services raise for anything a game master can cause."""

from __future__ import annotations

from typing import Any


class StudioError(ValueError):
    """A studio request refused; the message is for the person asking, ``code`` for their client (the API
    maps codes to statuses in ``dipserver/api/errors.py``). ``provinces`` names the provinces the mistake
    concerns, so the studio shows it beside them."""

    def __init__(
        self,
        message: str,
        *,
        code: str = "refused",
        provinces: tuple[str, ...] = (),
        problems: tuple[dict[str, Any], ...] = (),
    ) -> None:
        super().__init__(message)
        self.code = code
        self.provinces = provinces
        self.problems = problems  # each mistake on its own, {"message", "provinces"}, when there are several
