"""A player's profile: their games and how each went for them, per variant, with their reliability.

An outcome is the player's, not the seat's: a seat they handed on (replaced after civil disorder, or
given to someone else) is ``replaced`` whatever became of the power later. A game whose players the site
keeps secret (anonymous press, still running) is counted but never listed, except to the player
themself and to the game's masters.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from dipserver.games.models import Game, Power, Tenure
from dipserver.players.reliability import Reliability, reliability_of

OUTCOMES = ("playing", "won", "drawn", "survived", "eliminated", "replaced")
RECENT = 20


@dataclass(frozen=True)
class GameRow:
    game_id: int
    name: str
    variant: str
    status: str
    power: str
    outcome: str


@dataclass(frozen=True)
class Tally:
    """Games played, and how many ended each way (``OUTCOMES``); ``finished``: games over while theirs."""

    played: int = 0
    finished: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Profile:
    user: Any
    reliability: Reliability
    totals: Tally
    per_variant: dict[str, Tally]
    recent: list[GameRow]


def outcome_of(game: Game, seat: Power, holds: bool) -> str:
    """How the game went for a player who held ``seat`` (``holds``: and holds it still)."""
    if not holds:
        return "replaced"
    if seat.status == Power.Status.ELIMINATED:
        return "eliminated"
    if game.status != Game.Status.FINISHED:
        return "playing"
    if seat.name in game.winners:
        return "drawn" if game.result == Game.Result.DRAW else "won"
    return "survived"


def profile_of(user: Any, viewer: Any = None) -> Profile:
    """``user``'s profile as ``viewer`` may see it (None: a visitor)."""
    last: dict[int, Tenure] = {}
    tenures = Tenure.objects.filter(user=user).select_related("power__game").order_by("from_index", "id")
    for tenure in tenures:
        last[tenure.power.game_id] = tenure  # the latest seat they took in each game decides
    rows = [
        GameRow(
            t.power.game_id,
            t.power.game.name,
            t.power.game.variant,
            t.power.game.status,
            t.power.name,
            outcome_of(t.power.game, t.power, t.until_index is None and t.power.user_id == user.id),
        )
        for t in last.values()
    ]
    rows.sort(key=lambda r: -r.game_id)
    shown = _shown_game_ids([t.power.game for t in last.values()], user, viewer)
    variants = sorted({r.variant for r in rows})
    return Profile(
        user=user,
        reliability=reliability_of(user),
        totals=_tally(rows),
        per_variant={v: _tally([r for r in rows if r.variant == v]) for v in variants},
        recent=[r for r in rows if r.game_id in shown][:RECENT],
    )


def _tally(rows: list[GameRow]) -> Tally:
    counts = Counter(r.outcome for r in rows)
    finished = sum(1 for r in rows if r.status == Game.Status.FINISHED and r.outcome != "replaced")
    return Tally(played=len(rows), finished=finished, outcomes={o: counts.get(o, 0) for o in OUTCOMES})


def _shown_game_ids(games: list[Game], user: Any, viewer: Any) -> set[int]:
    """The games ``viewer`` may see ``user`` in: all to themself and to superusers; else all but the
    anonymous ones still running, unless the viewer masters that game."""
    if viewer is not None and viewer.is_authenticated and (viewer.id == user.id or viewer.is_superuser):
        return {g.id for g in games}
    secret = {g.id for g in games if g.press == Game.Press.ANONYMOUS and g.status != Game.Status.FINISHED}
    if secret and viewer is not None and viewer.is_authenticated:
        secret -= set(
            Game.masters.through.objects.filter(game_id__in=secret, user_id=viewer.id).values_list(
                "game_id", flat=True
            )
        )
    return {g.id for g in games} - secret
