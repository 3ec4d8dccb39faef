"""A game's life outside phase processing: create, join, leave, start, pause, resume, draw, concede."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from django.contrib.auth.hashers import check_password, make_password
from django.db import transaction
from django.utils import timezone

from dipserver import engine
from dipserver.engine import Variant, commitment, draw, load_timeline, open_modules
from dipserver.games.deadlines import deadline_after, phase_minutes_checked, zone_checked
from dipserver.games.endings import game_end_hooks_run, phase_open_hooks_run
from dipserver.games.errors import GameError
from dipserver.games.join_rules import join_rules_check
from dipserver.games.mappers import modules_json, snapshot_from
from dipserver.games.models import Game, Phase, Power, Tenure
from dipserver.games.services.announcements import announcement_later
from dipserver.games.services.common import (
    game_locked,
    phase_locked,
    phase_named_or_conflict,
    powers_locked,
    seat_of,
)
from dipserver.games.variants import (
    game_modules,
    game_variant,
    options_checked,
    source_of,
    studio_version_published,
    variant_pinned,
)
from dipserver.studio.models import VariantVersion


def game_create(
    *,
    name: str,
    variant: str,
    created_by: Any = None,
    options: dict[str, Any] | None = None,
    press: str = Game.Press.FULL,
    phase_minutes: dict[str, int] | None = None,
    deadline_time: dt.time | None = None,
    deadline_zone: str = "UTC",
    grace_minutes: int = 0,
    join_password: str = "",
    assignment: str = Game.Assignment.RANDOM,
    missed_limit: int = 2,
    vacation_days: int = 0,
    end_year: int | None = None,
    min_reliability: int = 0,
    min_rating: float | None = None,
    rated: bool = True,
    replacement_approval: bool = False,
    replacement_grace_minutes: int = 1440,
    bots_fill_seats: bool = False,
    bots_play_disorder: bool = False,
    masters: Iterable[Any] = (),
    powers: int | None = None,
    seed: str | None = None,
    studio_version: int | None = None,
) -> Game:
    """A new game waiting for players; every setting is checked and explained when wrong.

    The variant's version is pinned and its files archived (``variants.variant_pinned``). ``options`` may
    switch on rule modules (``{"blizzards": {"count": "1d6"}, "supply_lines": true}``); ``powers`` is for
    the generated Ice Lords board only (2 to 6, default 6), which has blizzards on unless told otherwise;
    ``seed`` deals that board from a seed of the creator's choosing (the same seed, the same board) instead
    of the game secret. ``studio_version`` (the id of a published studio version) plays a variant authored
    in the studio instead of ``variant``: the game pins that version for good.
    """
    if not name.strip():
        raise GameError("A game needs a name")
    secret = engine.new_secret()  # looked up on each call: the tests fix it (tests/conftest.py)
    studio, engine_variant, board = _variant_pinned(variant, studio_version, secret, powers, seed)
    options = {**source_of(studio.slug if studio else variant).default_options, **(options or {})}
    resolved = options_checked(load_timeline(engine_variant), options)
    _choices_checked(press, assignment, deadline_zone, min_reliability)
    end_year = end_year_checked(engine_variant, end_year)
    with transaction.atomic():
        game = Game.objects.create(
            name=name.strip(),
            variant=engine_variant.slug,
            variant_version=engine_variant.version,
            studio_version=studio,
            options=resolved,
            board=board,
            press=press,
            phase_minutes=phase_minutes_checked(phase_minutes),
            deadline_time=deadline_time,
            deadline_zone=deadline_zone,
            grace_minutes=grace_minutes,
            join_password=make_password(join_password) if join_password else "",
            assignment=assignment,
            missed_limit=missed_limit,
            vacation_days=vacation_days,
            end_year=end_year,
            min_reliability=min_reliability,
            min_rating=min_rating,
            rated=rated,
            replacement_approval=replacement_approval,
            replacement_grace_minutes=replacement_grace_minutes,
            bots_fill_seats=bots_fill_seats,
            bots_play_disorder=bots_play_disorder,
            secret=secret,
            commitment=commitment(secret),
            created_by=created_by,
        )
        masters = list(masters)
        if masters:
            game.masters.add(*masters)
    return game


def _variant_pinned(
    slug: str, studio_version: int | None, secret: str, powers: int | None, seed: str | None
) -> tuple[VariantVersion | None, Variant, dict[str, Any] | None]:
    """The game's variant, pinned: a shipped variant by its slug, or a published studio version."""
    if (studio_version is None) == (not slug):
        raise GameError("A game plays a variant or a studio variant version: name one of them")
    studio = None if studio_version is None else studio_version_published(studio_version)
    if studio is not None:
        slug = studio.slug
    engine_variant, board = variant_pinned(slug=slug, secret=secret, powers=powers, seed=seed, studio=studio)
    return studio, engine_variant, board


def _choices_checked(press: str, assignment: str, deadline_zone: str, min_reliability: int) -> None:
    """The settings that are one of a list or within a range, each refused with what it may be."""
    if press not in Game.Press.values:
        raise GameError(f"Press must be one of {', '.join(Game.Press.values)}, not {press!r}")
    if assignment not in Game.Assignment.values:
        raise GameError(f"Power assignment is 'random' or 'preference', not {assignment!r}")
    zone_checked(deadline_zone)
    if not 0 <= min_reliability <= 100:
        raise GameError(f"The minimum reliability is a percentage from 0 to 100, not {min_reliability}")


def end_year_checked(variant: Variant, end_year: int | None) -> int | None:
    """A game's last year: given, else the variant's default; a variant with a default (Ice Lords) always
    has one, so that no game of it runs forever. Never before the game starts."""
    if end_year is None:
        return variant.default_end_year
    if end_year < variant.start.phase.year:
        raise GameError(f"The last year {end_year} is before the game starts")
    return end_year


@transaction.atomic
def game_end_year_set(*, game_id: int, end_year: int | None) -> Game:
    """The game master changes the game's last year (none: the variant's default, if it has one)."""
    game = game_locked(game_id)
    if game.status == Game.Status.FINISHED:
        raise GameError(f"{game.name} is over; its last year no longer matters", code="not_in_play")
    game.end_year = end_year_checked(game_variant(game), end_year)
    game.save(update_fields=["end_year"])
    return game


@transaction.atomic
def game_join(
    *,
    game_id: int,
    user: Any,
    password: str = "",
    preferences: Sequence[str] = (),
    now: dt.datetime | None = None,
) -> Power:
    """Take a seat; the game starts, powers assigned, when the last seat is taken."""
    game = game_locked(game_id)
    if game.status != Game.Status.FORMING:
        raise GameError(
            f"{game.name} has already started; ask its game master about an open seat", code="already_started"
        )
    if game.join_password and not check_password(password, game.join_password):
        raise GameError("Wrong password for this game", code="wrong_password")
    seats = powers_locked(game)
    if any(p.user_id == user.id for p in seats):
        raise GameError("You have already joined this game", code="already_joined")
    variant = game_variant(game)
    unknown = [p for p in preferences if p.upper() not in variant.powers]
    if unknown:
        raise GameError(
            f"Unknown power(s) {', '.join(unknown)}; this variant has {', '.join(variant.powers)}"
        )
    if len(seats) >= len(variant.powers):
        raise GameError(f"{game.name} is full", code="game_full")
    join_rules_check(game, user)
    seat = Power.objects.create(game=game, user=user, preferences=[p.upper() for p in preferences])
    if getattr(user, "is_bot", False) and not game.bots_seated:
        game.bots_seated = True
        game.save(update_fields=["bots_seated"])
    if len(seats) + 1 == len(variant.powers):
        game_start(game=game, seats=[*seats, seat], now=now or timezone.now())
    return seat


@transaction.atomic
def game_leave(*, game_id: int, user: Any) -> None:
    game = game_locked(game_id)
    if game.status != Game.Status.FORMING:
        raise GameError(
            "Once a game has started you cannot leave it; ask the game master to replace you",
            code="already_started",
        )
    seat = seat_of(powers_locked(game), user)
    seat.delete()


def game_start(*, game: Game, seats: list[Power], now: dt.datetime) -> Phase:
    """Assign powers and open the first phase. Call while holding the Game row and seat locks."""
    variant = game_variant(game)
    names = _assign(game, seats, list(variant.powers))
    for seat in seats:
        seat.name = names[seat.id]
        seat.vacation_days_left = game.vacation_days
    Power.objects.bulk_update(seats, ["name", "vacation_days_left"])
    Tenure.objects.bulk_create(Tenure(power=seat, user_id=seat.user_id, from_index=0) for seat in seats)
    phase = Phase.objects.create(
        game=game,
        index=0,
        name=str(variant.start.phase),
        deadline=deadline_after(
            now, game.phase_minutes[variant.start.phase.type.value], game.deadline_time, game.deadline_zone
        ),
        variant_version=variant.version,
        snapshot=_first_snapshot(game, variant),
    )
    game.status = Game.Status.ACTIVE
    game.started_at = now
    game.current_phase = phase
    game.save(update_fields=["status", "started_at", "current_phase"])
    announcement_later("game_started_send", game_id=game.id, now=now)
    phase_open_hooks_run(game)
    return phase


def _first_snapshot(game: Game, variant: Variant) -> dict[str, Any]:
    snapshot = snapshot_from(variant.map_state, variant.start)
    modules = game_modules(game)
    if modules.any:
        opened = open_modules(variant, variant.map_state, variant.start, modules, secret=game.secret)
        snapshot["modules"] = modules_json(opened)
    return snapshot


def _assign(game: Game, seats: list[Power], powers: list[str]) -> dict[int, str]:
    """Seat -> power. Drawn from the game secret, so the assignment is auditable after the game."""
    order = sorted(seats, key=lambda s: draw(game.secret, f"assign/seat/{s.id}"))
    free = sorted(powers, key=lambda p: draw(game.secret, f"assign/power/{p}"))
    names: dict[int, str] = {}
    for seat in order:
        wanted = seat.preferences if game.assignment == Game.Assignment.PREFERENCE else []
        choice = next((p for p in wanted if p in free), free[0])
        free.remove(choice)
        names[seat.id] = choice
    return names


@transaction.atomic
def game_pause(*, game_id: int, now: dt.datetime | None = None) -> Game:
    game = game_locked(game_id)
    if game.status != Game.Status.ACTIVE:
        raise GameError(
            f"Only a game in play can be paused; {game.name} is {game.get_status_display().lower()}",
            code="not_in_play",
        )
    game.status = Game.Status.PAUSED
    game.paused_at = now or timezone.now()
    game.save(update_fields=["status", "paused_at"])
    return game


@transaction.atomic
def game_resume(*, game_id: int, now: dt.datetime | None = None) -> Game:
    """Back in play; the open phase's deadline moves on by as long as the pause lasted."""
    now = now or timezone.now()
    game = game_locked(game_id)
    if game.status != Game.Status.PAUSED:
        raise GameError(f"{game.name} is not paused", code="not_paused")
    phase = phase_locked(game)
    if phase.status == Phase.Status.OPEN and phase.deadline and game.paused_at:
        phase.deadline += now - game.paused_at
        phase.save(update_fields=["deadline"])
    game.status = Game.Status.ACTIVE
    game.paused_at = None
    game.save(update_fields=["status", "paused_at"])
    return game


@transaction.atomic
def game_draw_vote(
    *, game_id: int, user: Any, vote: bool, phase: str | None = None, now: dt.datetime | None = None
) -> bool:
    """Record a secret draw vote, cast while looking at ``phase`` (refused with code ``conflict`` once the
    game has moved on: the player may vote otherwise on the new position). Returns whether the game ended
    in a draw (all survivors agreed)."""
    game = game_locked(game_id)
    _in_play(game)
    if phase is not None:
        phase_named_or_conflict(game, phase_locked(game).name, phase)
    powers = powers_locked(game)
    seat = seat_of(powers, user)
    _surviving(seat)
    seat.draw_vote = vote
    seat.save(update_fields=["draw_vote"])
    survivors = [p for p in powers if p.status != Power.Status.ELIMINATED]
    if vote and all(p.draw_vote for p in survivors):
        game_finish(game=game, result=Game.Result.DRAW, winners=[p.name for p in survivors], now=now)
        return True
    return False


@transaction.atomic
def game_concede(*, game_id: int, user: Any, to: str, now: dt.datetime | None = None) -> bool:
    """Concede the game to a power; when every other survivor has, that power wins."""
    game = game_locked(game_id)
    _in_play(game)
    powers = powers_locked(game)
    seat = seat_of(powers, user)
    _surviving(seat)
    survivors = [p for p in powers if p.status != Power.Status.ELIMINATED]
    to = to.upper()
    if to == seat.name or to not in {p.name for p in survivors}:
        raise GameError(f"You can concede only to another surviving power, not {to!r}")
    seat.concede_to = to
    seat.save(update_fields=["concede_to"])
    if all(p.concede_to == to for p in survivors if p.name != to):
        game_finish(game=game, result=Game.Result.CONCESSION, winners=[to], now=now)
        return True
    return False


def game_finish(*, game: Game, result: str, winners: list[str], now: dt.datetime | None = None) -> None:
    """End the game (reveals the secret). Call while holding the Game row lock."""
    game.status = Game.Status.FINISHED
    game.result = result
    game.winners = winners
    game.finished_at = now or timezone.now()
    game.save(update_fields=["status", "result", "winners", "finished_at"])
    announcement_later("game_ended_send", game_id=game.id, now=game.finished_at)
    game_end_hooks_run(game)  # ratings (players app), in this transaction
    if game.current_phase_id:
        Phase.objects.filter(id=game.current_phase_id, status=Phase.Status.OPEN).update(deadline=None)


def _in_play(game: Game) -> None:
    if game.status not in (Game.Status.ACTIVE, Game.Status.PAUSED):
        raise GameError(f"{game.name} is not in play", code="not_in_play")


def _surviving(seat: Power) -> None:
    if seat.status == Power.Status.ELIMINATED:
        raise GameError(f"{seat.name.title()} has been eliminated", code="eliminated")
