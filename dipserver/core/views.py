"""Site-level pages: the home page, the health check and the metrics."""

from __future__ import annotations

import ipaddress
import secrets

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from dipserver.api.throttling import client_address
from dipserver.core.health import PROCESS_CHECKS, SITE_CHECKS, ServiceStatus


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "core/home.html")


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when every required check passes, 503 otherwise.

    What this process reaches (database, broker), then, with the database answering, whether the site keeps
    its deadlines (a recent heartbeat from beat and a worker, no phase overdue). ``?scope=process`` answers
    the first part only: docker-compose's check of the web container, which must turn healthy before the
    worker and beat exist. Details (the broker's address, host names, errors) only for staff or a client on
    loopback; anyone else sees each check's name and whether it passed.
    """
    found = [check() for check in PROCESS_CHECKS]
    database_ok = all(status.ok for status in found if status.name == "database")
    if request.GET.get("scope") != "process" and database_ok:
        found += [check() for check in SITE_CHECKS]
    ok = not any(status.failing for status in found)
    shown = ServiceStatus.as_dict if details_shown(request) else ServiceStatus.without_detail
    body: dict[str, object] = {"status": "ok" if ok else "unavailable"}
    for status in found:
        body[status.name] = shown(status)
    return JsonResponse(body, status=200 if ok else 503)


@never_cache
@require_safe
def metrics(request: HttpRequest) -> HttpResponse:
    """The Prometheus metrics (``core.metrics``), for staff, a client on loopback, or a scraper that sends
    ``Authorization: Bearer <METRICS_TOKEN>``."""
    from dipserver.core.metrics import metrics_text

    if not (details_shown(request) or _metrics_token_given(request)):
        return JsonResponse({"detail": "Metrics are for staff, loopback or METRICS_TOKEN"}, status=403)
    body, content_type = metrics_text()
    return HttpResponse(body, content_type=content_type)


def details_shown(request: HttpRequest) -> bool:
    """The services' details (the broker's address, host names, database errors) and the metrics are for
    the site's staff and for a check on this host (loopback, e.g. a container's health check; behind
    trusted proxies, the client they name); others see only what is up."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and user.is_staff:
        return True
    try:
        return ipaddress.ip_address(client_address(request)).is_loopback
    except ValueError:
        return False


def _metrics_token_given(request: HttpRequest) -> bool:
    token: str = getattr(settings, "METRICS_TOKEN", "")
    given = request.headers.get("Authorization", "")
    return bool(token) and secrets.compare_digest(given.encode(), f"Bearer {token}".encode())
