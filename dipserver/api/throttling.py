"""Throttles for login, registration, writes and map pictures, with rates read from settings at request
time.

DRF's own throttles read their rates once, at import; reading ``settings.DIPSERVER_API_THROTTLES`` per
request lets tests and deployments change them. Counts live in Django's cache (``CACHE_URL``: shared by
every process in production, so three gunicorn workers do not triple a limit).

A client is counted by its address: ``REMOTE_ADDR``, or behind ``TRUSTED_PROXY_COUNT`` proxies the entry
of ``X-Forwarded-For`` the outermost of them wrote. Anything a client writes there itself is ignored.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle


def client_address(request: Any) -> str:
    """The address a request came from, believing only the proxies the settings name."""
    remote = str(request.META.get("REMOTE_ADDR") or "")
    proxies: int = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    if proxies <= 0:
        return remote
    header = str(request.META.get("HTTP_X_FORWARDED_FOR") or "")
    forwarded = [part.strip() for part in header.split(",")]
    forwarded = [part for part in forwarded if part]
    if not forwarded:
        return remote
    # Each proxy appends the address it was reached from: the outermost one's entry is n from the end.
    return forwarded[-min(proxies, len(forwarded))]


class _SettingsRateThrottle(SimpleRateThrottle):
    scope = ""

    def get_ident(self, request: Any) -> str:
        return client_address(request)

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


class PictureThrottle(_SettingsRateThrottle):
    """Map pictures read anonymously, per address: drawing one can take seconds."""

    scope = "pictures"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        if request.user and request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class UserPictureThrottle(_SettingsRateThrottle):
    """Map pictures read signed in, per user (wherever they come from), at a rate of their own: a player
    paging through a game's history reads many, but no login may keep the picture worker busy alone."""

    scope = "user_pictures"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        if not (request.user and request.user.is_authenticated):
            return None
        return self.cache_format % {"scope": self.scope, "ident": f"user-{request.user.pk}"}


class SandboxThrottle(_SettingsRateThrottle):
    """Every sandbox request, per user (per address for the anonymous visitors of a share link)."""

    scope = "sandboxes"

    def get_cache_key(self, request: Any, view: Any) -> str:
        user = request.user
        ident = f"user-{user.pk}" if user and user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class ScenarioThrottle(_SettingsRateThrottle):
    """A published version's tests run, per user (per address for the anonymous), reads too: each run
    plays its cases' phases, and anyone may read a published version."""

    scope = "scenario_runs"

    def get_cache_key(self, request: Any, view: Any) -> str:
        user = request.user
        ident = f"user-{user.pk}" if user and user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}
