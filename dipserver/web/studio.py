"""The variant studio's pages: my drafts and the published variants, a new draft, and the editor. The
editor's HTML is a shell: ``static/js/studio.js`` edits the draft through ``/api/v1/studio/`` as any
client would (autosave with the revision, the check beside each province, the SVG map, publishing)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from dipserver.games.variants import is_generated, playable_slugs
from dipserver.studio import services
from dipserver.studio.errors import StudioError
from dipserver.studio.selectors import draft_of, drafts_of, is_game_master, versions_visible


def _master_only(request: HttpRequest) -> None:
    if not is_game_master(request.user):
        raise PermissionDenied("The variant studio is for game masters.")


@login_required
@require_safe
def studio_home(request: HttpRequest) -> HttpResponse:
    _master_only(request)
    starts = [slug for slug in playable_slugs() if not is_generated(slug)]
    return render(
        request,
        "web/studio.html",
        {"drafts": drafts_of(request.user), "versions": versions_visible(request.user), "starts": starts},
    )


@login_required
@require_POST
def studio_draft_new(request: HttpRequest) -> HttpResponse:
    start = request.POST.get("start_from", "").strip()
    try:
        draft = services.draft_create(
            user=request.user,
            slug=request.POST.get("slug", "").strip(),
            name=request.POST.get("name", "").strip(),
            start_from=start or None,
        )
    except StudioError as exc:
        if exc.code == "not_game_master":
            raise PermissionDenied(str(exc)) from None
        messages.error(request, f"No draft made: {exc}")
        return redirect("studio")
    return redirect("studio-draft", draft.id)


@login_required
@require_safe
def studio_editor(request: HttpRequest, draft_id: int) -> HttpResponse:
    _master_only(request)
    try:
        draft = draft_of(request.user, draft_id)
    except StudioError:
        raise Http404(f"You have no draft {draft_id}") from None
    config = {"draft": draft.id, "api": "/api/v1/studio/", "variants": "/api/v1/variants/"}
    return render(request, "web/studio_editor.html", {"draft": draft, "config": config})
