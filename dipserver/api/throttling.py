"""Throttles for login, registration and writes, with rates read from settings at request time.

DRF's own throttles read their rates once, at import; reading ``settings.DIPSERVER_API_THROTTLES`` per
request lets tests and deployments change them. Counts live in Django's cache (per process with the
default local-memory cache: configure a shared cache, e.g. Redis, to throttle across gunicorn workers).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle


class _SettingsRateThrottle(SimpleRateThrottle):
    scope = ""

    def get_rate(self) -> str | None:
        return getattr(settings, "DIPSERVER_API_THROTTLES", {}).get(self.scope)

    def allow_request(self, request: Any, view: Any) -> bool:
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)


class LoginThrottle(_SettingsRateThrottle):
    """Password guessing: per client address."""

    scope = "login"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class RegisterThrottle(LoginThrottle):
    scope = "register"


class WriteThrottle(_SettingsRateThrottle):
    """Writes (POST, PUT, PATCH, DELETE) per user, or per address for the anonymous; reads are free."""

    scope = "writes"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return None
        user = request.user
        ident = f"user-{user.pk}" if user and user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}
