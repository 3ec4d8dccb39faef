"""The lobby, creating and joining a game, and the game page's shell (the page itself runs on the API)."""

from __future__ import annotations

from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from dipserver.accounts.models import User
from dipserver.games import selectors
from dipserver.games.errors import GameError
from dipserver.games.models import Game, Order, Power, SeatRequest
from dipserver.games.services import games as game_services
from dipserver.games.services import seats as seat_services
from dipserver.games.services.common import phase_title
from dipserver.games.services.mutes import game_mute
from dipserver.games.variants import game_variant, studio_versions_published
from dipserver.notices.selectors import press_unread_of, unread_of
from dipserver.players import house_bots
from dipserver.web.first_answers import first_answers
from dipserver.web.forms import GameCreateForm
from dipserver.web.variants import studio_choices, studio_facts, variant_choices, variant_facts


@require_safe
def lobby(request: HttpRequest) -> HttpResponse:
    forming = Game.objects.filter(status=Game.Status.FORMING).annotate(seats=Count("powers"))
    mine: list[dict[str, Any]] = []
    chosen = _filter_of(request)
    if chosen["variant"]:
        forming = forming.filter(variant=chosen["variant"])
    if chosen["status"] not in ("", Game.Status.FORMING):
        forming = forming.none()
    if request.user.is_authenticated:
        forming = forming.exclude(powers__user=request.user)
        mine = _with_unread(request.user, _my_games(request.user, **chosen))
    open_games = []
    for game in forming.order_by("-id")[:50]:
        facts = _game_facts(game)
        open_games.append({"game": game, "seats": game.seats, "size": len(facts["powers"]), **_label(facts)})
    # A newcomer's first question is what each variant does: its rules page is one click away here.
    variants = [variant_facts(slug) for slug, _ in variant_choices()]
    context = {
        "open_games": open_games,
        "my_games": mine,
        "filtered": any(chosen.values()),
        "variants": variants,
        "open_seats": selectors.open_seats(exclude_user=request.user),
        "seat_requests": _seat_requests(request.user),
        **_watchable(request.user, **chosen),
    }
    return render(request, "web/lobby.html", context)


def _seat_requests(user: Any) -> list[SeatRequest]:
    """Requests for open seats in the games ``user`` masters, for them to decide."""
    if not user.is_authenticated:
        return []
    asks = SeatRequest.objects.filter(power__game__masters=user).select_related("power__game", "user")
    return list(asks.order_by("id")[:50])


@login_required
@require_POST
def seat_take(request: HttpRequest, game_id: int, seat_id: int) -> HttpResponse:
    """Take an open seat (the API's POST .../seats/<seat>/take)."""
    if not Power.objects.filter(id=seat_id, game_id=game_id).exists():
        raise Http404(f"There is no seat {seat_id} in game {game_id}.")
    try:
        taken = seat_services.seat_take(power_id=seat_id, user=request.user)
    except GameError as exc:
        messages.error(request, f"You could not take the seat: {exc}.")
        return redirect("lobby")
    if isinstance(taken, SeatRequest):
        messages.success(request, "You asked for the seat; a game master of the game decides.")
        return redirect("lobby")
    messages.success(request, f"You play {taken.name.title()} now: its press is yours to read.")
    return redirect("game", game_id=game_id)


@login_required
@require_POST
def seat_request_decide(request: HttpRequest, request_id: int) -> HttpResponse:
    """A game master approves (``approve=1``) or declines a request for a seat in their game."""
    ask = SeatRequest.objects.filter(id=request_id, power__game__masters=request.user.id).first()
    if ask is None:
        raise Http404(f"There is no seat request {request_id} in a game you master.")
    try:
        if request.POST.get("approve"):
            seat_services.seat_request_approve(request_id=ask.id)
            messages.success(request, f"{ask.user} plays {ask.power.name.title()} now.")
        else:
            seat_services.seat_request_decline(request_id=ask.id)
            messages.success(request, f"You declined {ask.user}'s request.")
    except GameError as exc:
        messages.error(request, str(exc))
    return redirect("lobby")


def _with_unread(user: Any, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each of my games with its unread press and notifications."""
    press = press_unread_of(user=user, game_ids=[row["game"].id for row in rows])
    notes = unread_of(user=user).games
    return [
        {**row, "unread_press": press.get(row["game"].id, 0), "unread_notes": notes.get(row["game"].id, 0)}
        for row in rows
    ]


# The lobby's filters apply to my games and to the games in play alike; the games in play are only ever
# in play or paused, so "waiting" and "finished" narrow my games alone.
_STATUSES = [
    ("", "Any status"),
    (Game.Status.ACTIVE, "In play"),
    (Game.Status.PAUSED, "Paused"),
    (Game.Status.FORMING, "Waiting for players"),
    (Game.Status.FINISHED, "Finished"),
]


def _filter_of(request: HttpRequest) -> dict[str, str]:
    """The lobby's ?variant= and ?status= (an unknown status is no filter)."""
    status = request.GET.get("status", "")
    return {"variant": request.GET.get("variant", ""), "status": status if status in dict(_STATUSES) else ""}


def _watchable(user: Any, *, variant: str, status: str) -> dict[str, Any]:
    """Games in play that anyone may watch (not mine: those are above), filtered by variant and status.
    Players are named only where the game shows them (never in anonymous games before the end)."""
    games = selectors.games_watchable(variant=variant, status=status, exclude_user=user)
    rows = []
    for game in games[:50]:
        phase = game.current_phase
        rows.append(
            {
                "game": game,
                "phase": phase_title(phase.name) if phase else "",
                "deadline": phase.deadline if phase and game.status == Game.Status.ACTIVE else None,
                **_label(_game_facts(game)),
            }
        )
    return {
        "watch_games": rows,
        "watch_filter": {"variant": variant, "status": status},
        "watch_statuses": _STATUSES,
        # The generated board (Ice Lords) among them, and the studio's published variants (by slug).
        "watch_variants": variant_choices() + [(v.slug, v.name) for v in studio_versions_published()],
    }


def _game_facts(game: Game) -> dict[str, Any]:
    """The variant's facts, or those of the board generated for this game (Ice Lords)."""
    facts = variant_facts(game.variant)
    # A generated board's page facts describe a sample deal: the game has its own board and powers.
    return facts if facts and not facts["generated"] else _generated_facts(game)


def _label(facts: dict[str, Any]) -> dict[str, Any]:
    """The variant's own name for a game row, and its rules page when it has one (a generated board
    has no folder, so no page: a link would be a 404)."""
    return {"variant_name": facts["name"], "variant_slug": facts.get("slug", "")}


def _my_games(user: Any, *, variant: str = "", status: str = "") -> list[dict[str, Any]]:
    """My games, unfinished first, of ``variant`` and ``status`` when given: the phase, whether I have
    ordered and am ready, and the deadline."""
    mine = Game.objects.filter(Q(powers__user=user) | Q(masters=user))
    if variant:
        mine = mine.filter(variant=variant)
    if status:
        mine = mine.filter(status=status)
    games = mine.distinct().select_related("current_phase").order_by("status", "-id")[:100]
    seats = {p.game_id: p for p in Power.objects.filter(user=user, game__in=[g.id for g in games])}
    phases = [g.current_phase_id for g in games if g.current_phase_id]
    ordered = set(Order.objects.filter(phase_id__in=phases).values_list("phase_id", "power_id").distinct())
    rows = []
    for game in games:
        seat, phase = seats.get(game.id), game.current_phase
        acting, deadline, has_ordered, ready = False, None, False, False
        if phase is not None and game.status == Game.Status.ACTIVE and seat is not None:
            acting, deadline = True, phase.deadline
            has_ordered, ready = (phase.id, seat.id) in ordered, seat.ready
        rows.append(
            {
                "game": game,
                "power": seat.name if seat else "",
                "phase": phase_title(phase.name) if phase else "",
                "deadline": deadline,
                "ordered": has_ordered,
                "ready": ready,
                "acting": acting,
                "paused": game.status == Game.Status.PAUSED,
                "may_leave": seat is not None and game.status == Game.Status.FORMING,
                **_label(_game_facts(game)),
            }
        )
    return rows


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def game_new(request: HttpRequest) -> HttpResponse:
    choices = variant_choices() + studio_choices()  # the studio's published variants after the shipped
    form = GameCreateForm(request.POST or None, variants=choices, initial={"variant": "sahara"})
    if request.method == "POST" and form.is_valid():
        try:
            game = game_services.game_create(
                created_by=request.user, masters=[request.user], **form.game_settings()
            )
        except GameError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, f"{game.name} is created. Join it to take a seat.")
            return redirect("game", game_id=game.id)
    facts = {slug: variant_facts(slug) or studio_facts(slug) for slug, _ in choices}
    return render(request, "web/game_new.html", {"form": form, "variants": facts})


@login_required
@require_POST
def game_join(request: HttpRequest, game_id: int) -> HttpResponse:
    if not Game.objects.filter(id=game_id).exists():
        raise Http404(f"There is no game {game_id}.")
    try:
        game_services.game_join(game_id=game_id, user=request.user, password=request.POST.get("password", ""))
    except GameError as exc:
        messages.error(request, f"You could not join: {exc}.")
    else:
        messages.success(request, "You have taken a seat.")
    return redirect("game", game_id=game_id)


@login_required
@require_POST
def game_leave(request: HttpRequest, game_id: int) -> HttpResponse:
    """Give up my seat in a game that has not started (the API's POST .../leave)."""
    if not Game.objects.filter(id=game_id).exists():
        raise Http404(f"There is no game {game_id}.")
    try:
        game_services.game_leave(game_id=game_id, user=request.user)
    except GameError as exc:
        messages.error(request, f"You could not leave: {exc}.")
        return redirect("game", game_id=game_id)
    messages.success(request, "You have left the game; your seat is free again.")
    return redirect("lobby")


def _masters(game: Game, user: Any) -> bool:
    """Whether ``user`` is one of the game's masters (a superuser masters every game)."""
    return bool(user.is_authenticated and (user.is_superuser or game.masters.filter(id=user.id).exists()))


@login_required
@require_POST
def game_fill_with_bots(request: HttpRequest, game_id: int) -> HttpResponse:
    """A game master starts a forming game now, the site's bots in its empty seats (the API's POST
    .../fill-with-bots), where the game was created to take them."""
    game = Game.objects.filter(id=game_id).first()
    if game is None or not _masters(game, request.user):
        raise Http404(f"There is no game {game_id} that you master.")
    try:
        house_bots.game_fill_with_bots(game_id=game_id)
    except GameError as exc:
        messages.error(request, f"The bots could not take the seats: {exc}.")
    else:
        messages.success(request, "The game has started: the site's bots play the seats that were empty.")
    return redirect("game", game_id=game_id)


@login_required
@require_POST
def game_mute_toggle(request: HttpRequest, game_id: int) -> HttpResponse:
    """Mute (``muted=1``) or unmute (``muted=0``) the game's news, from its page (the API's PUT .../mute)."""
    if not Game.objects.filter(id=game_id).exists():
        raise Http404(f"There is no game {game_id}.")
    muted = request.POST.get("muted") == "1"
    try:
        game_mute(game_id=game_id, user=request.user, muted=muted)
    except GameError as exc:
        messages.error(request, f"{exc}")
    else:
        messages.success(
            request,
            "This game is muted: no mail and nothing in your inbox from it until you unmute it."
            if muted
            else "This game is no longer muted: you hear its news again.",
        )
    return redirect("game", game_id=game_id)


def _generated_facts(game: Game) -> dict[str, Any]:
    """Names and colours of a board generated for this game (Ice Lords), which has no variant folder."""
    try:
        variant = game_variant(game)
    except GameError:
        return {"name": game.variant, "powers": []}
    powers = [{"name": key, "display": p.name, "colour": p.colour} for key, p in variant.powers.items()]
    return {"name": variant.name, "powers": powers, "start_phase": str(variant.start.phase)}


@require_safe
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = Game.objects.select_related("current_phase").filter(id=game_id).first()
    if game is None:
        raise Http404(f"There is no game {game_id}.")
    user = request.user
    seat = Power.objects.filter(game=game, user=user).first() if user.is_authenticated else None
    facts = _game_facts(game)
    phase = game.current_phase
    config = {
        "gameId": game.id,
        "api": reverse("api:game", args=[game.id]),
        "power": seat.name if seat else None,
        "seated": seat is not None,
        "phaseIndex": phase.index if phase else None,
        "phaseOpen": bool(phase and phase.status == "open" and game.status == Game.Status.ACTIVE),
        # The timeline comes from the API (GET .../timeline), which keeps random draws secret.
        "timelineUrl": reverse("api:timeline", args=[game.id]),
        "blizzards": bool(game.options.get("blizzards")),
        "supplyLines": bool(game.options.get("supply_lines")),
        "modules": bool(game.options.get("blizzards") or game.options.get("supply_lines")),
        "powers": facts["powers"],
        "startPhase": facts.get("start_phase", "S1901M"),
        # A generated board (Ice Lords) has no variant folder, so no season maps: the page says so instead.
        "startMap": reverse("variant-season-map", args=[game.variant, 0]) if facts.get("slug") else None,
    }
    is_master = _masters(game, user)
    # Its players and masters may mute its news (mail and the inbox); the page says which it is.
    muted = cast(User, user).id in game.muted_by if seat or is_master else None
    context = {
        "game": game,
        "seat": seat,
        "variant": facts,
        "config": config,
        "is_master": is_master,
        # The page starts from these instead of asking for them (first_answers.py); the map, a picture,
        # is asked for by a preload link in its head, beside the scripts.
        "muted": muted,
        "first_answers": first_answers(request, _first_paths(config)),
        "map_url": reverse("api:map-svg", args=[game.id, phase.index]) if phase else None,
    }
    response = render(request, "web/game.html", context)
    # The page holds the viewer's own state (orders, options): never shared, never shown again unasked.
    patch_cache_control(response, private=True, no_cache=True)
    return response


def _first_paths(config: dict[str, Any]) -> list[str]:
    """The API addresses static/js/game.js asks for first: the game, and my options and orders to play."""
    paths = [config["api"]]
    if config["seated"] and config["power"] and config["phaseOpen"]:
        game_id = config["gameId"]
        paths += [reverse("api:options", args=[game_id]), reverse("api:orders", args=[game_id])]
    return paths
