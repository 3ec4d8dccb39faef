"""The game masters' pages behind three admin tools: "Extend" (in the master's own time zone), the
confirmation page of "Process now" (which names the powers still to order or to say they are ready) and
the dry run's page (its results in words and the map pictures).

Kept out of ``admin.py`` so that module stays readable; the views are called by ``GameAdmin``.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse

from dipserver.accounts.selectors import user_zone
from dipserver.engine import event_text
from dipserver.games.admin_forms import ExtendForm
from dipserver.games.dry_run_pictures import dry_run_pictures
from dipserver.games.errors import GameError
from dipserver.games.models import Game
from dipserver.games.selectors import powers_not_ready, powers_waiting
from dipserver.games.services.phases import phase_deadline_extend, phase_dry_run, phase_process_now

if TYPE_CHECKING:
    _GameAdmin = admin.ModelAdmin[Game]
else:
    _GameAdmin = admin.ModelAdmin


def deadline_both(deadline: dt.datetime | None, zone: ZoneInfo) -> str:
    """Like 2030-01-01 19:00 Europe/Paris (2030-01-01 18:00 UTC), or that there is none."""
    if deadline is None:
        return "none (the phase waits for the game master)"
    there = f"{deadline.astimezone(zone):%Y-%m-%d %H:%M} {zone.key}"
    if zone.key == "UTC":
        return there
    return f"{there} ({deadline.astimezone(dt.UTC):%Y-%m-%d %H:%M} UTC)"


def extend_view(model_admin: _GameAdmin, request: HttpRequest, game_id: int) -> HttpResponse:
    """The current deadline in the master's zone and UTC, and a form read in that zone."""
    game = get_object_or_404(model_admin.get_queryset(request), id=game_id)
    zone = user_zone(request.user)  # the master's own: a bare time typed here is read in it
    form = ExtendForm(request.POST or None, zone=zone)
    if request.method == "POST" and form.is_valid():
        try:
            extended = phase_deadline_extend(game_id=game.id, deadline=form.cleaned_data["deadline"])
        except GameError as exc:
            form.add_error(None, str(exc))
        else:
            done = f"{game.name}: the deadline is now {deadline_both(extended.deadline, zone)}"
            model_admin.message_user(request, done, messages.SUCCESS)
            return HttpResponseRedirect(reverse("admin:games_game_change", args=[game.id]))
    phase = game.current_phase
    context = {
        **model_admin.admin_site.each_context(request),
        "title": f"Extend the deadline: {game.name}",
        "opts": model_admin.model._meta,
        "game": game,
        "form": form,
        "phase": phase,
        "current": deadline_both(phase.deadline if phase else None, zone),
    }
    return TemplateResponse(request, "admin/games/game_extend.html", context)


def process_now(model_admin: _GameAdmin, request: HttpRequest, games: QuerySet[Game]) -> HttpResponse | None:
    """First a page naming who has not ordered and who is not ready; its "Yes" posts back here, with the
    phase each game was in when the page was shown: a game that has moved on since is not processed."""
    if request.POST.get("post") == "yes":
        for game in games:
            try:
                phase_process_now(game_id=game.id, phase_name=request.POST.get(f"phase_{game.pk}") or None)
            except GameError as exc:
                model_admin.message_user(request, f"{game.name}: {exc}", messages.ERROR)
            else:
                model_admin.message_user(request, f"{game.name}: queued for processing", messages.SUCCESS)
        return None
    rows = [
        {
            "game": game,
            "not_ordered": sorted(powers_waiting(game=game)),
            "not_ready": sorted(powers_not_ready(game=game)),
        }
        for game in games.select_related("current_phase")
    ]
    context = {
        **model_admin.admin_site.each_context(request),
        "title": "Process the current phase now?",
        "opts": model_admin.model._meta,
        "rows": rows,
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
    }
    return TemplateResponse(request, "admin/games/game_process_confirm.html", context)


def dry_run(model_admin: _GameAdmin, request: HttpRequest, games: QuerySet[Game]) -> HttpResponse:
    """Each game's results in words (as messages) and its map pictures; nothing is saved."""
    rows = []
    for game in games.select_related("current_phase"):
        try:
            turn = phase_dry_run(game_id=game.id)
        except GameError as exc:
            model_admin.message_user(request, f"{game.name}: {exc}", messages.ERROR)
            continue
        lines = [f"{r['power']} {r['order']}: {r['outcome']}" for r in turn.results] or ["no orders"]
        lines += [event_text(e) for e in turn.events]
        summary = "; ".join(lines)
        model_admin.message_user(request, f"{game.name} → {turn.next_snapshot['phase']}: {summary}")
        snapshot = game.current_phase.snapshot if game.current_phase else turn.next_snapshot
        rows.append({"game": game, "pictures": dry_run_pictures(game=game, snapshot=snapshot, turn=turn)})
    context = {
        **model_admin.admin_site.each_context(request),
        "title": "Dry run: nothing is saved",
        "opts": model_admin.model._meta,
        "rows": rows,
    }
    return TemplateResponse(request, "admin/games/game_dry_run.html", context)
