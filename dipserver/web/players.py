"""Player pages: a profile (games, outcomes per variant, reliability)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from dipserver.players.profiles import OUTCOMES, profile_of


@require_safe
def profile_page(request: HttpRequest, username: str) -> HttpResponse:
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    if user is None:
        raise Http404(f"There is no player {username!r}")
    profile = profile_of(user, request.user)
    return render(request, "web/player.html", {"profile": profile, "outcomes": OUTCOMES})
