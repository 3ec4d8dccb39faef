"""Show times in the signed-in player's own time zone (stored on the account)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from dipserver.accounts.selectors import user_zone


class TimeZoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        timezone.deactivate()
        # Only a session with a key can hold a signed-in user: without one (an API client's token, say)
        # the user is anonymous, so neither the session nor the user is looked up.
        session = getattr(request, "session", None)
        if session is not None and session.session_key is not None:
            user = getattr(request, "user", None)
            if getattr(user, "time_zone", ""):
                timezone.activate(user_zone(user))  # an unknown zone gives UTC, as for everyone else
        return self.get_response(request)
