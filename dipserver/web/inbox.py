"""The inbox page: my notifications across all games, newest first, and marking them read."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from dipserver.notices.selectors import notifications_of
from dipserver.notices.services import notification_read, notifications_read_all

if TYPE_CHECKING:
    from dipserver.accounts.models import User

SHOWN = 100  # the newest; the API pages through them all


@login_required
@require_http_methods(["GET", "HEAD"])
def inbox_page(request: HttpRequest) -> HttpResponse:
    rows = list(notifications_of(user=cast("User", request.user))[:SHOWN])
    return render(request, "web/inbox.html", {"notifications": rows})


@login_required
@require_POST
def inbox_read(request: HttpRequest, notification_id: int | None = None) -> HttpResponse:
    """Mark one notification read (and follow its link), or all of them (in one game, when given)."""
    user = cast("User", request.user)
    if notification_id is not None:
        notification_read(user=user, notification_id=notification_id)
        target = notifications_of(user=user).filter(id=notification_id).values_list("url", flat=True).first()
        return redirect(target or "inbox")
    game = request.POST.get("game", "")
    notifications_read_all(user=user, game_id=int(game) if game.isdigit() else None)
    return redirect("lobby" if request.POST.get("next") == "lobby" else "inbox")
