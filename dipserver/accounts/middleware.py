"""Show times in the signed-in player's own time zone (stored on the account)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.http import HttpRequest, HttpResponse
from django.utils import timezone


class TimeZoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        zone = getattr(request.user, "time_zone", "") if hasattr(request, "user") else ""
        timezone.deactivate()
        if zone:  # a zone the system no longer knows leaves UTC, as for everyone else
            with contextlib.suppress(ZoneInfoNotFoundError, ValueError):
                timezone.activate(ZoneInfo(zone))
        return self.get_response(request)
