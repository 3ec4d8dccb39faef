"""The account page's webhooks: add one (its secret shown this once), remove one; the page lists each
with its latest deliveries."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from dipserver.webhooks.errors import WebhookError
from dipserver.webhooks.selectors import deliveries_of, webhooks_of
from dipserver.webhooks.services import webhook_create, webhook_delete, webhook_of

if TYPE_CHECKING:
    from dipserver.accounts.models import User

LOG_SHOWN = 5  # deliveries per hook on the page; the API has the whole log


def webhooks_shown(user: User) -> list[dict[str, Any]]:
    return [{"hook": h, "log": list(deliveries_of(webhook=h)[:LOG_SHOWN])} for h in webhooks_of(owner=user)]


@login_required
@require_POST
def webhook_add(request: HttpRequest) -> HttpResponse:
    user = cast("User", request.user)
    game = request.POST.get("game", "").strip()
    try:
        hook, secret = webhook_create(
            owner=user,
            url=request.POST.get("url", ""),
            name=request.POST.get("name", "").strip()[:100],
            game_id=int(game) if game.isdigit() else None,
        )
    except WebhookError as exc:
        messages.error(request, f"No webhook added: {exc}")
    else:
        messages.success(
            request, f"Webhook {hook.name or hook.url} added. Its signing secret, shown this once: {secret}"
        )
    return redirect("account")


@login_required
@require_POST
def webhook_remove(request: HttpRequest, webhook_id: int) -> HttpResponse:
    try:
        webhook_delete(webhook=webhook_of(owner=cast("User", request.user), webhook_id=webhook_id))
    except WebhookError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, "The webhook is removed.")
    return redirect("account")
