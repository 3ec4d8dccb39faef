"""The sandbox pages: my sandboxes (and a new one from a variant's start), one sandbox to play in, and the
read-only page of a shared one. The page itself talks to the API (``static/js/sandbox.js``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from dipserver.api.sandboxes import cleanup_due, summary
from dipserver.games.errors import GameError
from dipserver.sandbox import services
from dipserver.sandbox.models import Sandbox
from dipserver.sandbox.selectors import powers_of, sandbox_seen, sandbox_shared, sandboxes_of
from dipserver.web.forms import SandboxCreateForm
from dipserver.web.variants import variant_choices, variant_facts


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def sandbox_list(request: HttpRequest) -> HttpResponse:
    """My sandboxes, and the form that opens one at a variant's start."""
    choices = variant_choices()
    first = choices[0][0] if choices else ""  # the form starts on the first variant listed (no name in code)
    form = SandboxCreateForm(request.POST or None, variants=choices, initial={"variant": first})
    if request.method == "POST" and form.is_valid():
        try:
            sandbox = services.sandbox_from_variant(owner=request.user, **form.sandbox_settings())
        except GameError as exc:
            form.add_error(None, str(exc))
        else:
            return redirect("sandbox", sandbox_id=sandbox.id)
    rows = [summary(s, True) for s in sandboxes_of(request.user)]
    facts = {slug: variant_facts(slug) for slug, _ in choices}
    return render(request, "web/sandboxes.html", {"form": form, "rows": rows, "variants": facts})


@login_required
@require_POST
def sandbox_from_game(request: HttpRequest, game_id: int) -> HttpResponse:
    """A sandbox of a game's phase (``phase``: its index; the current one by default), as the user sees it."""
    raw = request.POST.get("phase", "")
    try:
        index = int(raw) if raw.strip() else None
        sandbox = services.sandbox_from_game(owner=request.user, game_id=game_id, index=index)
    except (ValueError, GameError) as exc:
        messages.error(request, f"No sandbox was opened: {exc}")
        return redirect("game", game_id=game_id)
    return redirect("sandbox", sandbox_id=sandbox.id)


@login_required
@require_safe
def sandbox_page(request: HttpRequest, sandbox_id: int) -> HttpResponse:
    try:
        sandbox, _ = sandbox_seen(sandbox_id=sandbox_id, user=request.user)
    except GameError as exc:
        raise Http404(str(exc)) from exc
    services.sandbox_touch(sandbox)
    return _page(request, sandbox, mine=True, token=None)


@require_safe
def sandbox_shared_page(request: HttpRequest, token: str) -> HttpResponse:
    try:
        sandbox = sandbox_shared(token)
    except GameError as exc:
        raise Http404(str(exc)) from exc
    mine = request.user.is_authenticated and sandbox.owner_id == request.user.id
    return _page(request, sandbox, mine=mine, token=token)


def _page(request: HttpRequest, sandbox: Sandbox, *, mine: bool, token: str | None) -> HttpResponse:
    config: dict[str, Any] = {
        "sandboxId": sandbox.id,
        "api": reverse("api:sandbox", args=[sandbox.id]),
        "token": token,
        "editable": mine and token is None,
        "loggedIn": request.user.is_authenticated,
        "powers": [
            {"name": p["name"], "display": p["display_name"], "colour": p["colour"]}
            for p in powers_of(sandbox)
        ],
        "variant": sandbox.variant,
        "blizzards": bool(sandbox.options.get("blizzards")),
        "supplyLines": bool(sandbox.options.get("supply_lines")),
        "modules": bool(sandbox.options.get("blizzards") or sandbox.options.get("supply_lines")),
        # What the game page's components read (static/js/game/page.js): set per step and power by the page.
        "power": None,
        "seated": True,
        "timelineUrl": "",
        "phaseIndex": None,
        "phaseOpen": False,
    }
    context = {
        "sandbox": sandbox,
        "config": config,
        "mine": mine and token is None,
        "cleanup_due": cleanup_due(sandbox) if mine else None,
    }
    return render(request, "web/sandbox.html", context)
