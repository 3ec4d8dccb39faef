"""The deadlines feed (fetched by calendar apps, signed address, no sign-in) and renewing its address."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods, require_POST

from dipserver.accounts.calendar import calendar_ics, calendar_owner
from dipserver.accounts.services import calendar_key_renew

if TYPE_CHECKING:
    from dipserver.accounts.models import User


@require_http_methods(["GET", "HEAD"])
def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    """``text/calendar``: the deadlines of the games the token's owner plays; 404 for a token that is not
    ours, was altered, or was replaced by a new address."""
    user = calendar_owner(token)
    if user is None:
        raise Http404("No such calendar.")
    response = HttpResponse(calendar_ics(user), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="dipserver-deadlines.ics"'
    response["Cache-Control"] = "private, no-cache"  # deadlines move: a calendar asks each time
    response["X-Robots-Tag"] = "noindex"
    return response


@login_required
@require_POST
def calendar_renew(request: HttpRequest) -> HttpResponse:
    calendar_key_renew(user=cast("User", request.user))
    messages.success(request, "Your calendar has a new address; the old one works no more.")
    return redirect("account")
