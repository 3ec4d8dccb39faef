"""Demo games for `./dip serve`: one per variant and a generated Ice Lords board, each started with the
demo players (topped up with bots) and a few phases already played from seeded orders, so the history,
the map changes so far and the changes to come can be seen at once. Running it again changes nothing.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from dipserver.engine import load_variant, variant_slugs
from dipserver.games.mappers import board_of
from dipserver.games.models import Game, Phase, Power
from dipserver.games.notifications import notifications_muted
from dipserver.games.services.games import game_create, game_join
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.phases import phase_process
from dipserver.games.variants import game_variant, sample_variant, source_of

BOT_PASSWORD = "bot-password"  # public, printed: bots exist only in local demo databases
PLAYED_UNTIL = 1903  # phases are played until this year's Spring opens: two years of history


@dataclass(frozen=True)
class DemoGame:
    name: str
    variant: str
    options: dict[str, Any] | None = None
    powers: int | None = None  # generated boards only
    formerly: str | None = None  # the name older databases were seeded with


def demo_specs() -> list[DemoGame]:
    sources = [source_of(slug) for slug in variant_slugs()]
    specs = [
        DemoGame(f"Demo: {load_variant(s.slug).name}", s.slug, formerly=f"Demo: {_title(s.slug)}")
        for s in sources
        if not s.generated
    ]
    specs += [
        DemoGame(f"Demo: {sample_variant(s.slug).name}", s.slug, powers=4) for s in sources if s.generated
    ]
    standard = load_variant("standard").name
    specs.append(
        DemoGame(
            f"Demo: {standard} with supply lines",
            "standard",
            {"supply_lines": True},
            formerly="Demo: Standard With Supply Lines",
        )
    )
    return specs


def _title(slug: str) -> str:
    """How demo names were made from slugs before they used the variant's name ("Wall Of Ice")."""
    return slug.replace("_", " ").title()


def _demo_game(spec: DemoGame) -> Game | None:
    """The game seeded for ``spec``, renamed if an older run gave it the old name."""
    game = Game.objects.filter(name=spec.name).first()
    if game is None and spec.formerly and spec.formerly != spec.name:
        game = Game.objects.filter(name=spec.formerly, variant=spec.variant).first()
        if game is not None:
            game.name = spec.name
            game.save(update_fields=["name"])
    return game


def demo_games_seed(*, game_master: Any, players: Sequence[Any]) -> list[str]:
    """Create, fill, start and play the demo games that are not there yet (idempotent)."""
    lines = []
    bots: list[Any] = []  # the bots made or repaired in this run
    _quick_commits()
    # The demo's history is not news: nobody is mailed about it.
    with notifications_muted():
        for spec in demo_specs():
            game = _demo_game(spec)
            if game is None:
                game = game_create(
                    name=spec.name,
                    variant=spec.variant,
                    options=spec.options,
                    powers=spec.powers,
                    created_by=game_master,
                    masters=[game_master],
                )
            _seats_fill(game, players, bots)
            game.refresh_from_db()
            if game.status == Game.Status.ACTIVE:
                _play(game)
                game.refresh_from_db()
            phase = game.current_phase.name if game.current_phase else "not started"
            seats = Power.objects.filter(game=game).count()
            lines.append(
                f"{game.name} (#{game.id}, {game.get_status_display().lower()}, {phase}, {seats} players)"
            )
    logins = list(
        get_user_model()
        .objects.filter(username__regex=r"^bot[0-9]+$", seats__game__name__startswith="Demo: ")
        .distinct()
        .order_by("username")
        .values_list("username", flat=True)
    )
    if logins:
        lines.append(f"Bot logins (they fill the other seats): {', '.join(logins)} / password {BOT_PASSWORD}")
    return lines


def _quick_commits() -> None:
    """Seeding commits a few hundred small transactions; on SQLite (the local demo database) waiting for
    each one to reach the disk took most of a minute on a busy machine. Demo data can be made again."""
    if connection.vendor == "sqlite" and not connection.in_atomic_block:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA synchronous = OFF")


def _seats_fill(game: Game, players: Sequence[Any], bots: list[Any]) -> None:
    if game.status != Game.Status.FORMING:
        return
    wanted = len(game_variant(game).powers)
    taken = set(Power.objects.filter(game=game).values_list("user_id", flat=True))
    candidates = [*players]
    for n in range(1, wanted + 1):
        if len(candidates) >= wanted:
            break
        candidates.append(_bot(n, bots))
    for user in candidates[:wanted]:
        if user.id not in taken:
            game_join(game_id=game.id, user=user)


def _bot(n: int, bots: list[Any]) -> Any:
    made = next((b for b in bots if b.username == f"bot{n}"), None)
    if made is not None:
        return made  # checking a password costs a third of a second: once per bot and run
    user, created = get_user_model().objects.get_or_create(username=f"bot{n}")
    if created or not user.check_password(BOT_PASSWORD):
        user.set_password(BOT_PASSWORD)
        user.save()
    bots.append(user)
    return user


def _play(game: Game) -> None:
    """Seeded orders for every power, then processing, until Spring of ``PLAYED_UNTIL`` opens."""
    now = timezone.now()
    for _ in range(12):  # at most two years of phases
        # cast: only a started (ACTIVE) game is played, and a started game has a current phase.
        phase = Phase.objects.get(id=cast(int, game.current_phase_id))
        if int(phase.name[1:5]) >= PLAYED_UNTIL or game.status != Game.Status.ACTIVE:
            return
        if phase.name.endswith("M"):
            _orders_give(game, phase)
        phase_process(phase_id=phase.id, now=now, force=True)
        game.refresh_from_db()
        now += dt.timedelta(seconds=1)


def _orders_give(game: Game, phase: Phase) -> None:
    """Every unit moves to a neighbour drawn from a seed of the game and phase (refused moves just hold)."""
    board = board_of(game_variant(game), phase.snapshot)
    rng = random.Random(f"{game.name}/{phase.name}")
    by_power: dict[str, list[str]] = {}
    for unit in phase.snapshot["units"]:
        here = unit["location"]
        moves = board.army_moves(here) if unit["type"] == "A" else board.fleet_moves(here)
        if moves:
            by_power.setdefault(unit["power"], []).append(
                f"{unit['type']} {here} - {rng.choice(sorted(moves))}"
            )
    seats = {p.name: p.user for p in Power.objects.filter(game=game).select_related("user")}
    for power, lines in by_power.items():
        if seats.get(power) is not None:
            orders_submit(game_id=game.id, user=seats[power], text="\n".join(lines), phase=phase.name)
