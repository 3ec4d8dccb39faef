"""Player pages: a profile (games, outcomes per variant, reliability, ratings) and the leaderboard."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from dipserver.players.profiles import OUTCOMES, profile_of
from dipserver.players.ratings import busiest_family, families, leaderboard, ratings_of


@require_safe
def profile_page(request: HttpRequest, username: str) -> HttpResponse:
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    if user is None:
        raise Http404(f"There is no player {username!r}")
    profile = profile_of(user, request.user)
    context = {"profile": profile, "outcomes": OUTCOMES, "ratings": ratings_of(user)}
    return render(request, "web/player.html", context)


@require_safe
def leaderboard_page(request: HttpRequest) -> HttpResponse:
    """The best-rated players of one variant family (?family=; by default the one most played rated)."""
    family = request.GET.get("family", "")[:50] or busiest_family()
    rows = list(leaderboard(family))
    return render(request, "web/leaderboard.html", {"family": family, "families": families(), "rows": rows})
