"""Site-level pages: the home page and the health check."""

from datetime import timedelta

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from dipserver.core.health import broker_status, database_status, heartbeat_status

# Beat schedules the heartbeat every minute; allow a few misses before calling the worker stale.
HEARTBEAT_MAX_AGE = timedelta(minutes=5)


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "core/home.html")


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database and broker answer, 503 otherwise; the worker heartbeat is informational.

    The worker is reported but does not fail the check: the web container must become healthy before
    the worker's first heartbeat can exist.
    """
    database = database_status()
    broker = broker_status()
    worker = heartbeat_status(HEARTBEAT_MAX_AGE) if database.ok else None
    ok = database.ok and broker.ok
    body = {
        "status": "ok" if ok else "unavailable",
        "database": database.as_dict(),
        "broker": broker.as_dict(),
        "worker": worker.as_dict() if worker else None,
    }
    return JsonResponse(body, status=200 if ok else 503)
