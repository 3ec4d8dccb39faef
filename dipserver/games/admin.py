"""The game masters' console (Django admin).

Superusers see every game. Members of the "Game masters" group see and manage only the games they are
master of; they need no model permissions. Every action goes through the services, like any other write.
"""

from __future__ import annotations

import datetime as dt
import functools
from typing import TYPE_CHECKING, Any, cast

from django.contrib import admin, messages
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef, Prefetch, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from dipserver.accounts.roles import GAME_MASTERS_GROUP
from dipserver.engine import Phase as EnginePhase
from dipserver.engine import VariantError, load_variant
from dipserver.games import admin_gm
from dipserver.games.admin_forms import GameForm, ReplaceForm, RevertForm, phase_label
from dipserver.games.errors import GameError
from dipserver.games.models import Game, Order, Phase, Power
from dipserver.games.selectors import change_words, supply_rows, timeline_rows
from dipserver.games.services.common import game_phase_title
from dipserver.games.services.games import game_pause, game_resume
from dipserver.games.services.phases import (
    phase_deadline_extend,
    phase_revert,
)
from dipserver.games.services.powers import power_civil_disorder_set, power_replace
from dipserver.games.turn import powers_to_act

if TYPE_CHECKING:
    from dipserver.accounts.models import User

    # The stubs make the admin classes generic; Django's own are not subscriptable at run time (that
    # takes django_stubs_ext.monkeypatch(), and django-stubs-ext is only a development dependency).
    _GameAdmin = admin.ModelAdmin[Game]
    _PowerAdmin = admin.ModelAdmin[Power]
    _PhaseAdmin = admin.ModelAdmin[Phase]
    _PowerInline = admin.TabularInline[Power, Game]
    _PhaseInline = admin.TabularInline[Phase, Game]
else:
    _GameAdmin = _PowerAdmin = _PhaseAdmin = admin.ModelAdmin
    _PowerInline = _PhaseInline = admin.TabularInline


@functools.lru_cache(maxsize=64)
def variant_name(slug: str) -> str:
    """A variant's name for people ("Wall of Ice"); a generated board has no files, so its slug in words."""
    try:
        return load_variant(slug).name
    except (VariantError, FileNotFoundError):
        return slug.replace("_", " ").title()


class VariantFilter(admin.SimpleListFilter):
    title = "variant"
    parameter_name = "variant"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        slugs = model_admin.get_queryset(request).order_by().values_list("variant", flat=True).distinct()
        return sorted(((slug, variant_name(slug)) for slug in slugs), key=lambda choice: choice[1])

    def queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> QuerySet[Game]:
        return queryset.filter(variant=self.value()) if self.value() else queryset


def is_game_master(user: Any) -> bool:
    if not (user.is_active and user.is_staff):
        return False
    return bool(user.is_superuser or user.groups.filter(name=GAME_MASTERS_GROUP).exists())


class GameMasterLoginForm(AdminAuthenticationForm):
    """The admin login: a player who typed their right password is told where they are, not that the
    password is wrong."""

    def confirm_login_allowed(self, user: Any) -> None:
        if user.is_active and not user.is_staff:
            raise ValidationError(
                "This console is for game masters only; %(username)s is a player account. "
                "Players give orders and read their games on the game pages of the site.",
                code="not_game_master",
                params={"username": user.get_username()},
            )
        super().confirm_login_allowed(user)


admin.site.login_form = GameMasterLoginForm


def _staff_user(request: HttpRequest) -> User:
    """The user of an admin page: never anonymous, since AdminSite.admin_view asks for a staff login."""
    return cast("User", request.user)


def masters_game(user: Any, game: Game) -> bool:
    return user.is_superuser or game.masters.filter(id=user.id).exists()


class GameMasterPermissions:
    """Game masters manage their own games (and those games' rows); superusers manage all."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_game_master(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_game_master(request.user) and (obj is None or masters_game(request.user, _game_of(obj)))

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_view_permission(request, obj)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # games are created through the service, which checks every setting

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_superuser


def _game_of(obj: Any) -> Game:
    return obj if isinstance(obj, Game) else obj.game


class PowerInline(GameMasterPermissions, _PowerInline):
    model = Power
    extra = 0
    fields = ("name", "user", "status", "missed_phases", "seat_open", "vacation_days_left", "replace")
    readonly_fields = fields
    show_change_link = True

    @admin.display(description="Player")
    def replace(self, power: Power) -> str:
        return format_html(
            '<a href="{}">Replace the player</a>', reverse("admin:games_power_replace", args=[power.id])
        )


class PhaseInline(GameMasterPermissions, _PhaseInline):
    model = Phase
    extra = 0
    fields = ("index", "name", "status", "deadline", "processed_at")
    readonly_fields = fields
    show_change_link = True
    ordering = ("-index",)


@admin.register(Game)
class GameAdmin(GameMasterPermissions, _GameAdmin):
    form = GameForm
    list_display = ("name", "variant_shown", "status", "phase_name", "deadline", "waiting", "next_change")
    list_filter = ("status", VariantFilter)
    search_fields = ("name",)
    list_select_related = ("current_phase",)
    inlines = (PowerInline, PhaseInline)
    actions = ("process_now", "dry_run", "extend_day", "pause", "resume")
    readonly_fields = (
        "variant",
        "variant_version",
        "options",
        "status",
        "result",
        "winners",
        "commitment",
        "revealed_secret",
        "current_phase",
        "timeline",
        "current_orders",
        "supply",
        "gm_links",
    )
    exclude = ("secret", "join_password")
    filter_horizontal = ("masters",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        # Every seat with whether it has ordered in the current phase, in one query for the whole page
        # (the "Not ordered" column used to cost two queries per game).
        ordered = Order.objects.filter(phase_id=OuterRef("game__current_phase_id"), power_id=OuterRef("id"))
        seats = Power.objects.order_by("id").annotate(has_ordered=Exists(ordered))
        games = super().get_queryset(request).prefetch_related(Prefetch("powers", queryset=seats))
        return games if request.user.is_superuser else games.filter(masters=_staff_user(request))

    @admin.display(description="Variant", ordering="variant")
    def variant_shown(self, game: Game) -> str:
        return variant_name(game.variant)

    @admin.display(description="Phase")
    def phase_name(self, game: Game) -> str:
        if game.current_phase is None:
            return "—"
        return f"{game.current_phase.name} ({game_phase_title(game, game.current_phase.name)})"

    @admin.display(description="Deadline")
    def deadline(self, game: Game) -> str:
        phase = game.current_phase
        return f"{phase.deadline:%Y-%m-%d %H:%M}" if phase and phase.deadline else "—"

    @admin.display(description="Not ordered")
    def waiting(self, game: Game) -> str:
        phase = game.current_phase
        if phase is None or phase.status != Phase.Status.OPEN:
            return "—"
        acting = powers_to_act(phase.snapshot)
        late = [
            p.name
            for p in game.powers.all()
            # has_ordered is annotated by get_queryset's Prefetch, which the stubs do not follow.
            if p.name in acting and p.status == Power.Status.ACTIVE and not p.has_ordered  # type: ignore[attr-defined]
        ]
        return ", ".join(late) or "—"

    @admin.display(description="Next map change")
    def next_change(self, game: Game) -> str:
        if game.current_phase is None:
            return "—"
        year_now = EnginePhase.parse(game.current_phase.name).year
        try:
            rows = timeline_rows(game=game)
        except GameError as exc:
            return str(exc)
        row = next((r for r in rows if r["year"] is not None and r["year"] >= year_now), None)
        return change_words(row) if row else "—"

    @admin.display(description="Secret (revealed at the end)")
    def revealed_secret(self, game: Game) -> str:
        return game.secret_revealed or "hidden until the game ends"

    @admin.display(description="Timeline (what changes when)")
    def timeline(self, game: Game) -> str:
        rows = timeline_rows(game=game)
        if not rows:
            return "This variant's map never changes."
        return format_html(
            "<table><tr><th>Year</th><th>When</th><th>Province</th><th>Change</th></tr>{}</table>",
            format_html_join(
                "",
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                ((r["year"] or "?", r["hook"], r["province"] or "all", r["change"]) for r in rows),
            ),
        )

    @admin.display(description="Orders in the current phase")
    def current_orders(self, game: Game) -> str:
        orders = Order.objects.filter(phase=game.current_phase).select_related("power")
        return (
            format_html_join("", "<div>{}: {}</div>", ((o.power.name, o.text) for o in orders)) or "none yet"
        )

    @admin.display(description="Supply lines (as the phase opened)")
    def supply(self, game: Game) -> str:
        if game.current_phase is None:
            return "—"
        rows = supply_rows(game=game, phase=game.current_phase)
        return format_html_join("", "<div>{}</div>", ((r,) for r in rows)) or "This game has no supply lines."

    @admin.display(description="Game master")
    def gm_links(self, game: Game) -> str:
        return format_html(
            '<a href="{}">Extend the deadline</a> · <a href="{}">Revert to an earlier phase</a>',
            reverse("admin:games_game_extend", args=[game.pk]),
            reverse("admin:games_game_revert", args=[game.pk]),
        )

    # --- actions ----------------------------------------------------------------------------------

    def _each(self, request: HttpRequest, games: QuerySet[Game], action: Any, done: str) -> None:
        for game in games:
            try:
                action(game)
            except GameError as exc:
                self.message_user(request, f"{game.name}: {exc}", messages.ERROR)
            else:
                self.message_user(request, f"{game.name}: {done}", messages.SUCCESS)

    @admin.action(description="Process the current phase now (asks first, naming who has not ordered)")
    def process_now(self, request: HttpRequest, games: QuerySet[Game]) -> HttpResponse | None:
        return admin_gm.process_now(self, request, games)

    @admin.action(description="Dry run: show the results and the map without saving")
    def dry_run(self, request: HttpRequest, games: QuerySet[Game]) -> HttpResponse:
        return admin_gm.dry_run(self, request, games)

    @admin.action(description="Extend the deadline by 24 hours (from now, if it has passed)")
    def extend_day(self, request: HttpRequest, games: QuerySet[Game]) -> None:
        def extend(game: Game) -> None:
            phase, now = game.current_phase, timezone.now()
            base = max(phase.deadline, now) if phase and phase.deadline else now  # an overdue phase: from now
            phase_deadline_extend(game_id=game.id, deadline=base + dt.timedelta(hours=24), now=now)

        self._each(request, games, extend, "deadline extended by 24 hours")

    @admin.action(description="Pause")
    def pause(self, request: HttpRequest, games: QuerySet[Game]) -> None:
        self._each(request, games, lambda g: game_pause(game_id=g.id), "paused")

    @admin.action(description="Resume (deadline shifted by the pause)")
    def resume(self, request: HttpRequest, games: QuerySet[Game]) -> None:
        self._each(request, games, lambda g: game_resume(game_id=g.id), "resumed")

    # --- views with a form ------------------------------------------------------------------------

    def get_urls(self) -> list[Any]:
        own = [
            path(
                "<int:game_id>/extend/",
                self.admin_site.admin_view(self.extend_view),
                name="games_game_extend",
            ),
            path(
                "<int:game_id>/revert/",
                self.admin_site.admin_view(self.revert_view),
                name="games_game_revert",
            ),
        ]
        return own + super().get_urls()

    def extend_view(self, request: HttpRequest, game_id: int) -> HttpResponse:
        return admin_gm.extend_view(self, request, game_id)

    def revert_view(self, request: HttpRequest, game_id: int) -> HttpResponse:
        """Choose a phase, see what reverting deletes, then confirm."""
        game = get_object_or_404(self.get_queryset(request), id=game_id)
        form = RevertForm(request.POST or None, game=game)
        doomed: list[str] = []
        reopens = ""
        if request.method == "POST" and form.is_valid():
            index = form.cleaned_data["index"]
            if form.cleaned_data["confirm"]:
                try:
                    phase = phase_revert(game_id=game.id, index=index)
                except GameError as exc:
                    form.add_error(None, str(exc))
                else:
                    reopened = f"{game.name}: {phase_label(game, phase)} is open again"
                    self.message_user(request, reopened, messages.SUCCESS)
                    return HttpResponseRedirect(reverse("admin:games_game_change", args=[game.id]))
            if not form.errors:
                target = game.phases.get(index=index)
                reopens = phase_label(game, target)
                doomed = [phase_label(game, p) for p in game.phases.filter(index__gt=index).order_by("index")]
                form = RevertForm({"index": index, "confirm": True}, game=game)
        context = {
            **self.admin_site.each_context(request),
            "title": f"Revert {game.name} to an earlier phase",
            "opts": self.model._meta,
            "game": game,
            "form": form,
            "doomed": doomed,
            "reopens": reopens,
        }
        return TemplateResponse(request, "admin/games/game_revert.html", context)


@admin.register(Power)
class PowerAdmin(GameMasterPermissions, _PowerAdmin):
    list_display = ("name", "game", "user", "status", "missed_phases", "seat_open")
    list_filter = ("status", "seat_open")
    list_select_related = ("game", "user")
    fields = ("game", "name", "user", "status", "missed_phases", "seat_open", "vacation_days_left")
    readonly_fields = ("game", "name", "user", "status", "missed_phases")  # draw votes stay secret, even here
    actions = ("civil_disorder",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Power]:
        powers = super().get_queryset(request)
        return powers if request.user.is_superuser else powers.filter(game__masters=_staff_user(request))

    @admin.action(description="Put in civil disorder (offer the seat)")
    def civil_disorder(self, request: HttpRequest, powers: QuerySet[Power]) -> None:
        for power in powers:
            try:
                power_civil_disorder_set(power_id=power.id)
            except GameError as exc:
                self.message_user(request, str(exc), messages.ERROR)

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view(self.replace_view)
        return [path("<int:power_id>/replace/", view, name="games_power_replace"), *super().get_urls()]

    def replace_view(self, request: HttpRequest, power_id: int) -> HttpResponse:
        power = get_object_or_404(self.get_queryset(request), id=power_id)
        form = ReplaceForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            user = get_user_model().objects.filter(username=form.cleaned_data["username"]).first()
            if user is None:
                form.add_error("username", "No such user")
            else:
                try:
                    power_replace(power_id=power.id, user=user)
                except GameError as exc:
                    form.add_error(None, str(exc))
                else:
                    self.message_user(request, f"{user} now plays {power.name}", messages.SUCCESS)
                    return HttpResponseRedirect(reverse("admin:games_game_change", args=[power.game_id]))
        context = {
            **self.admin_site.each_context(request),
            "title": f"Replace the player of {power}",
            "form": form,
        }
        return TemplateResponse(request, "admin/games/game_form.html", context)


@admin.register(Phase)
class PhaseAdmin(GameMasterPermissions, _PhaseAdmin):
    """Every phase with its snapshot, orders, results and map changes, read-only."""

    list_display = ("game", "index", "name", "status", "deadline")
    list_filter = ("status",)
    list_select_related = ("game",)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [f.name for f in Phase._meta.fields]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Phase]:
        phases = super().get_queryset(request)
        return phases if request.user.is_superuser else phases.filter(game__masters=_staff_user(request))
