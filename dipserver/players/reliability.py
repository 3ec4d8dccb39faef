"""Reliability, read from the stored history: the phases a player owed orders in, and those they gave.

A phase is *due* from a player when they held the seat in it (``Tenure``), it has been processed, and its
power had a decision to make (``powers_to_act`` on the phase's stored snapshot: units to order, retreats,
builds or removals). It is *ordered* when an order row of that power exists for that phase. A *civil
disorder* is a run of due phases missed in a row that reached the game's ``missed_limit``. Nothing here is
a counter: a reverted phase, a replacement or an imported game is counted as the stored rows now say.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from dipserver.games.models import Order, Phase, Tenure
from dipserver.games.turn import powers_to_act


@dataclass(frozen=True)
class Reliability:
    phases_due: int
    phases_ordered: int
    civil_disorders: int

    @property
    def percent(self) -> int | None:
        """Phases ordered out of phases due, rounded down; None before any phase was due."""
        if not self.phases_due:
            return None
        return self.phases_ordered * 100 // self.phases_due

    def meets(self, minimum: int) -> bool:
        """Whether a game asking for ``minimum`` % takes this player. A newcomer, with nothing due yet,
        meets any minimum: everyone starts somewhere, and a rating minimum can keep them out."""
        percent = self.percent
        return percent is None or percent >= minimum


@dataclass(frozen=True)
class _Held:
    power_id: int
    power: str
    game_id: int
    missed_limit: int
    from_index: int
    until_index: int | None


def reliability_of(user: Any) -> Reliability:
    """The user's reliability over every seat they have held (three queries)."""
    return reliabilities_of([user.id]).get(user.id, Reliability(0, 0, 0))


def reliabilities_of(user_ids: Iterable[int]) -> dict[int, Reliability]:
    """Each user's reliability (users who never held a seat are left out), in three queries."""
    held: dict[int, list[_Held]] = {}
    rows = Tenure.objects.filter(user_id__in=list(user_ids)).values_list(
        "user_id", "power_id", "power__name", "power__game_id", "power__game__missed_limit", "from_index",
        "until_index",
    )  # fmt: skip
    for user_id, power_id, power, game_id, limit, first, until in rows:
        held.setdefault(user_id, []).append(_Held(power_id, power, game_id, limit, first, until))
    tenures = [t for ts in held.values() for t in ts]
    if not tenures:
        return {}
    phases = (
        Phase.objects.filter(game_id__in={t.game_id for t in tenures}, status=Phase.Status.PROCESSED)
        .order_by("game_id", "index")
        .values_list("id", "game_id", "index", "snapshot")
    )
    by_game: dict[int, list[tuple[int, int, set[str]]]] = {}
    for phase_id, game_id, index, snapshot in phases:
        by_game.setdefault(game_id, []).append((phase_id, index, powers_to_act(snapshot)))
    ordered = set(
        Order.objects.filter(power_id__in={t.power_id for t in tenures})
        .order_by()
        .values_list("phase_id", "power_id")
        .distinct()
    )
    return {
        user_id: _summed(_counted(t, by_game.get(t.game_id, []), ordered) for t in ts)
        for user_id, ts in held.items()
    }


def _counted(
    held: _Held, phases: list[tuple[int, int, set[str]]], ordered: set[tuple[int, int]]
) -> Reliability:
    due = given = disorders = streak = 0
    for phase_id, index, acting in phases:
        if index < held.from_index or (held.until_index is not None and index >= held.until_index):
            continue
        if held.power not in acting:
            continue
        due += 1
        if (phase_id, held.power_id) in ordered:
            given, streak = given + 1, 0
            continue
        streak += 1
        if streak == held.missed_limit:
            disorders += 1
    return Reliability(due, given, disorders)


def _summed(parts: Iterable[Reliability]) -> Reliability:
    due = given = disorders = 0
    for part in parts:
        due, given, disorders = (
            due + part.phases_due,
            given + part.phases_ordered,
            disorders + part.civil_disorders,
        )
    return Reliability(due, given, disorders)
