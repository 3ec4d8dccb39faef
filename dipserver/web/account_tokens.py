"""The account page's API tokens (make one, its secret shown this once; revoke one) and the vacation
left in each game I play."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from dipserver.accounts.selectors import tokens_active
from dipserver.accounts.tokens import TokenError, token_create, token_of, token_revoke
from dipserver.games.selectors import seats_unfinished

if TYPE_CHECKING:
    from dipserver.accounts.models import User


def tokens_and_vacation(user: User) -> dict[str, Any]:
    return {"tokens": list(tokens_active(user=user)), "seats": list(seats_unfinished(user=user))}


@login_required
@require_POST
def token_add(request: HttpRequest) -> HttpResponse:
    name = request.POST.get("name", "").strip()[:100] or "made on the account page"
    try:
        _, secret = token_create(user=cast("User", request.user), name=name)
    except TokenError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"Token {name} made. Its secret, shown this once: {secret}")
    return redirect("account")


@login_required
@require_POST
def token_remove(request: HttpRequest, token_id: int) -> HttpResponse:
    try:
        token_revoke(token=token_of(user=cast("User", request.user), token_id=token_id))
    except TokenError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, "The token is revoked: it works no more.")
    return redirect("account")
