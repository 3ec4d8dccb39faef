"""Site-level pages: the home page and the health check."""

import ipaddress
from datetime import timedelta

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from dipserver.api.throttling import client_address
from dipserver.core.health import ServiceStatus, broker_status, database_status, heartbeat_status

# Beat schedules the heartbeat every minute; allow a few misses before calling the worker stale.
HEARTBEAT_MAX_AGE = timedelta(minutes=5)


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "core/home.html")


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database and broker answer (and the database takes writes), 503 otherwise; the worker
    heartbeat is informational. Each service's ``detail`` only for staff and loopback (``details_shown``).

    The worker is reported but does not fail the check: the web container must become healthy before
    the worker's first heartbeat can exist.
    """
    database = database_status()
    broker = broker_status()
    worker = heartbeat_status(HEARTBEAT_MAX_AGE) if database.ok else None
    ok = database.ok and broker.ok
    shown = ServiceStatus.as_dict if details_shown(request) else ServiceStatus.without_detail
    body = {
        "status": "ok" if ok else "unavailable",
        "database": shown(database),
        "broker": shown(broker),
        "worker": shown(worker) if worker else None,
    }
    return JsonResponse(body, status=200 if ok else 503)


def details_shown(request: HttpRequest) -> bool:
    """The services' details (the broker's address, host names, database errors) are for the site's staff
    and for a check on this host (loopback, e.g. a container's health check); others see only what is up."""
    if request.user.is_authenticated and request.user.is_staff:
        return True
    try:
        return ipaddress.ip_address(client_address(request)).is_loopback
    except ValueError:
        return False
