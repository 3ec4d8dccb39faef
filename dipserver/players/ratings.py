"""Ratings per variant family, updated when a rated game ends (the method: docs/ratings.md).

The game's players are placed: a solo winner (or the power conceded to) first and the other survivors
after; in a draw, or a game that reached its last year, the survivors share first place; eliminated
powers come after every survivor, the later out the better (the last phase their power still stood in),
those out in the same phase sharing a place. openskill's Plackett-Luce model turns the places into new
ratings. Each seat is rated for the player who held it at the end; a game is rated once
(``RatingChange`` rows; a revert that puts it back in play takes its rating back), and only when it
is ``rated``, no bot ever held a seat in it, and at least two players are rated.

Lock order: the game's row (held by ``game_finish``), then ``Rating`` rows by user id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import F, QuerySet, Sum
from django.utils import timezone
from openskill.models import PlackettLuce

from dipserver.games.models import Game, Phase, Power, Tenure
from dipserver.games.variants import game_variant
from dipserver.players.models import MU, SIGMA, Rating, RatingChange

MODEL = PlackettLuce(mu=MU, sigma=SIGMA)
LEADERBOARD = 100


@dataclass(frozen=True)
class Standing:
    power: str
    user_id: int
    eliminated: bool


def family_of(game: Game) -> str:
    """The variant a game's variant is built on (itself if it has no base): they share a rating."""
    return game_variant(game).base or game.variant


def places(game: Game, standings: list[Standing], last_seen: dict[str, int]) -> dict[int, int]:
    """user id -> place (1 first; equal places share a number)."""
    survivors = [s for s in standings if not s.eliminated]
    groups: list[list[Standing]] = []
    if game.result in (Game.Result.SOLO, Game.Result.CONCESSION):
        groups = [
            [s for s in survivors if s.power in game.winners],
            [s for s in survivors if s.power not in game.winners],
        ]
    else:  # a draw, or no winner by the last year: the survivors share first place
        groups = [survivors]
    out = sorted((s for s in standings if s.eliminated), key=lambda s: -last_seen.get(s.power, -1))
    for seen in sorted({last_seen.get(s.power, -1) for s in out}, reverse=True):
        groups.append([s for s in out if last_seen.get(s.power, -1) == seen])
    ranks: dict[int, int] = {}
    for place, group in enumerate((g for g in groups if g), start=1):
        ranks.update({s.user_id: place for s in group})
    return ranks


def _last_seen(game: Game) -> dict[str, int]:
    """Each power's last phase (index) with a unit, a dislodged unit or a centre."""
    seen: dict[str, int] = {}
    for index, snapshot in Phase.objects.filter(game=game).order_by("index").values_list("index", "snapshot"):
        units = snapshot.get("units", []) + snapshot.get("dislodged", [])
        for power in {u["power"] for u in units} | set(snapshot.get("owners", {}).values()):
            seen[power] = index
    return seen


def game_rate(game: Game) -> list[RatingChange]:
    """Rate an ended game (a ``game_finish`` hook, in its transaction); nothing if it does not count."""
    if not game.rated or game.result == Game.Result.NONE:
        return []
    if RatingChange.objects.filter(game=game).exists():
        return []
    if Tenure.objects.filter(power__game=game, user__is_bot=True).exists():
        return []  # a bot held a seat at some point: not a game between people
    seats = Power.objects.filter(game=game, user__isnull=False).order_by("id")
    standings = [Standing(p.name, p.user_id, p.status == Power.Status.ELIMINATED) for p in seats if p.user_id]
    if len(standings) < 2:
        return []
    family = family_of(game)
    ranks = places(game, standings, _last_seen(game))
    users = sorted(ranks)
    Rating.objects.bulk_create([Rating(user_id=u, family=family) for u in users], ignore_conflicts=True)
    ratings = list(
        Rating.objects.select_for_update().filter(family=family, user_id__in=users).order_by("user_id")
    )
    teams = MODEL.rate(
        [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings], ranks=[ranks[r.user_id] for r in ratings]
    )
    changes, now = [], timezone.now()
    for rating, [new] in zip(ratings, teams, strict=True):
        changes.append(
            RatingChange(
                game=game, user_id=rating.user_id, family=family, rank=ranks[rating.user_id],
                mu_before=rating.mu, sigma_before=rating.sigma, mu_after=new.mu, sigma_after=new.sigma,
            )
        )  # fmt: skip
        rating.mu, rating.sigma, rating.games, rating.updated_at = new.mu, new.sigma, rating.games + 1, now
    Rating.objects.bulk_update(ratings, ["mu", "sigma", "games", "updated_at"])
    return RatingChange.objects.bulk_create(changes)


def game_unrate(game: Game) -> int:
    """Take back what an ended game did to its players' ratings (a ``game_reopen`` hook: a game master
    reverted it into play); it is rated afresh when it ends again. A rating nothing else has moved since
    is restored exactly; one that later games moved keeps their part and loses this game's: its ``mu``
    less the game's gain, its ``sigma`` as much wider as the game narrowed it. Returns the ratings
    changed. Locks as ``game_rate`` does: the game's row (held by the revert), then ``Rating`` rows by
    user id."""
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    if not changes:
        return 0
    family = next(iter(changes.values())).family
    ratings = list(
        Rating.objects.select_for_update().filter(family=family, user_id__in=changes).order_by("user_id")
    )
    now = timezone.now()
    for rating in ratings:
        change = changes[rating.user_id]
        if (rating.mu, rating.sigma) == (change.mu_after, change.sigma_after):
            rating.mu, rating.sigma = change.mu_before, change.sigma_before
        else:
            rating.mu -= change.mu_after - change.mu_before
            rating.sigma = min(SIGMA, rating.sigma + change.sigma_before - change.sigma_after)
        rating.games, rating.updated_at = max(0, rating.games - 1), now
    Rating.objects.bulk_update(ratings, ["mu", "sigma", "games", "updated_at"])
    RatingChange.objects.filter(game=game).delete()
    return len(ratings)


def rating_value_of(user: Any, family: str) -> float:
    """The user's rating in ``family`` (a newcomer's: 0)."""
    rating = Rating.objects.filter(user=user, family=family).first()
    return rating.value if rating else Rating(mu=MU, sigma=SIGMA).value


def ratings_of(user: Any) -> list[Rating]:
    return list(Rating.objects.filter(user=user).order_by("family"))


def leaderboard(family: str) -> QuerySet[Rating]:
    """The family's rated players, best rating first (ties: more games first)."""
    return (
        Rating.objects.filter(family=family, games__gt=0)
        .select_related("user")
        .annotate(shown=F("mu") - 3 * F("sigma"))
        .order_by("-shown", "-games", "user__username")[:LEADERBOARD]
    )


def busiest_family() -> str:
    """The family with the most rated games, the leaderboard's default; "" before any game is rated."""
    row = (
        Rating.objects.filter(games__gt=0)
        .values("family")
        .annotate(played=Sum("games"))
        .order_by("-played", "family")
        .first()
    )
    return str(row["family"]) if row else ""


def families() -> list[str]:
    """Every family someone has a rating in."""
    return list(
        Rating.objects.filter(games__gt=0).order_by("family").values_list("family", flat=True).distinct()
    )
