"""How a game ends, as data (ruling E17): the variant's ``[[victory]]`` conditions judged after a phase.

Condition types (``variants/<slug>/timeline.toml``; the centre majority comes from ``variant.toml``):

- ``province_control`` — ``provinces`` owned by one power wins; with ``when = "only_centres"`` it is
  judged only once they are the last centres on the board; ``split = "draw"`` makes the game a draw
  between their owners when each is owned by a different power (Wall of Ice, E18);
- ``unit_in_province`` — at ``phase`` (a Winter, e.g. ``"W1911A"``) the power with a unit in
  ``province`` wins, if it also owns it when ``must_own`` (Sahara); otherwise nobody wins;
- ``sole_survivor`` — the one power still in play wins: at once without ``phase`` (Ice Lords); with one
  (Deluge, "the survivor after W1908"), at that phase, or earlier only once the timeline has no change
  left that could still drown it; several survivors at ``phase`` draw; if nobody is left, nobody wins;
- ``no_winner_after`` — the game ends without a winner after ``phase`` (a house limit, usually switched
  on by a game option: ``only_with``).

The variant's own conditions (``Variant.victory``: a generated board has no timeline file) are judged
before its timeline's. A game's last year (its own, else ``Variant.default_end_year``) ends it with no
winner once that year is over, if nothing else has ended it.

An ending is decided only when it is final (E17, corrected): a power is in play while it has a unit on the
board, a dislodged unit with somewhere to retreat, or a centre it owns on which it may build (a home centre
under the ``home`` build rule, any owned centre under ``owned``) — even one occupied now, since the
occupier may leave before a Winter. So a power is out only once the retreats and adjustments have taken
its last unit and its last centre it could build on. In every variant a board on which no power is in
play ends the game with no winner.

An ending is an ``Outcome`` with its ``Result`` (``ending.py``, loaded with the first game that ends).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from dipserver.engine.board import MapState, board_for
from dipserver.engine.buildsites import build_sites
from dipserver.engine.definition import Variant
from dipserver.engine.hooks import _HOOK_POINT as HOOK_POINTS
from dipserver.engine.hooks import _PHASE_POINT as PHASE_POINTS
from dipserver.engine.position import Position
from dipserver.engine.timelinecache import load_timeline
from dipserver.engine.types import Phase

if TYPE_CHECKING:
    from dipserver.engine.ending import Outcome


class VictoryError(ValueError):
    """A ``[[victory]]`` table the engine cannot judge."""


def game_outcome(
    variant: Variant,
    map_state: MapState,
    position: Position,
    done: Phase,
    end_year: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> Outcome | None:
    """``judge`` with the variant's own conditions: call it after every phase (and its hooks).
    ``end_year`` is the game's last year; ``None`` takes the variant's default (which may be none).
    ``options`` are the game's timeline options: a condition with ``only_with = "<option>"`` counts only
    in a game that switched that option on (a house rule, such as Wall of Ice's 1915 limit)."""
    chosen = options or {}
    written = variant.victory + load_timeline(variant).victory
    conditions = (
        tuple(c for c in written if "only_with" not in c or chosen.get(c["only_with"])) if written else ()
    )
    last = variant.default_end_year if end_year is None else end_year
    outcome = judge(variant, conditions, map_state, position, done)
    if outcome is None and last is not None and position.phase.year > last:
        return _ended("no_winner", (), f"The game's last year, {last}, is over.")
    return outcome


def _ended(result: Literal["win", "draw", "no_winner"], powers: tuple[str, ...], reason: str) -> Outcome:
    """The game's end: ``Outcome(Result(result), powers, reason)``. The values' module is loaded here, the
    first time a game ends (``ending.py``): a phase that ends none, nearly every one, never defines them."""
    from dipserver.engine.ending import Outcome, Result

    return Outcome(Result(result), powers, reason)


def judge(
    variant: Variant,
    conditions: tuple[Mapping[str, Any], ...],
    map_state: MapState,
    position: Position,
    done: Phase,
) -> Outcome | None:
    """The game's end after phase ``done`` (``position`` is where play would go on), or ``None``.

    Year-end conditions are judged once the year's last phase is over: after a Winter, or after the
    Autumn when the Winter is skipped (``position.phase`` is in a later year).
    """
    survivors = powers_in_play(variant, map_state, position)
    if not survivors:
        return _ended("no_winner", (), "No power is left with a unit or a centre to build on.")
    year_over = position.phase.year > done.year
    drowning = _changes_to_come(variant, position.phase)
    for condition in conditions:
        outcome = _judge_one(condition, map_state, position, done, survivors, year_over, drowning)
        if outcome is not None:
            return outcome
    if variant.victory_centres > 0 and year_over:
        owned = Counter(position.owners.values())  # each power's centres, counted in one pass
        for power in sorted(variant.powers):
            if owned[power] >= variant.victory_centres:
                return _ended("win", (power,), f"{power} owns {variant.victory_centres} centres.")
    return None


def powers_in_play(variant: Variant, map_state: MapState, position: Position) -> list[str]:
    """The powers still in the game at ``position`` (E17), sorted: a unit on the board, a dislodged unit
    with somewhere to retreat, or an owned centre it may build on (occupied or not)."""
    playing = {u.power for u in position.units.values()}
    if position.dislodged:
        playing.update(d.unit.power for d in position.dislodged.values() if d.retreats)
    owning = set(position.owners.values()) - playing
    if owning:  # most often every power that owns a centre has a unit too: no board needed
        board = board_for(variant, map_state)
        for power in owning:
            if build_sites(board, {}, position.owners, power, variant.build_rule):
                playing.add(power)
    return sorted(playing)


def _changes_to_come(variant: Variant, following: Phase) -> bool:
    """Whether the timeline may still change the map once play goes on at ``following`` (the hooks before
    it have run): an event dated later, one whose chance may still fall later, or a conditional one whose
    years are not over. Until then a power alone in play may yet lose everything."""
    events = load_timeline(variant).events
    if not events:
        return False
    point = (following.year, PHASE_POINTS[following.season.value + following.type.value])
    for event in events:
        if event.when is not None:  # it may fire in any year up to its last, if it has one
            years = [event.until] if event.until is not None else [following.year + 1]
        else:
            years = [event.year] if event.year is not None else [year for year, _ in event.chance]
        if any((year, HOOK_POINTS[event.hook]) > point for year in years):
            return True
    return False


def _year_of(condition: Mapping[str, Any]) -> int:
    try:
        return Phase.parse(condition["phase"]).year
    except (KeyError, ValueError) as exc:
        raise VictoryError(f"victory condition {dict(condition)}: needs phase = 'W1908A' or similar") from exc


def _judge_one(
    condition: Mapping[str, Any],
    map_state: MapState,
    position: Position,
    done: Phase,
    survivors: list[str],
    year_over: bool,
    drowning: bool = False,
) -> Outcome | None:
    kind = condition.get("type")
    if kind == "province_control":
        return _province_control(condition, map_state, position, year_over)
    if kind == "unit_in_province":
        if not (year_over and done.year >= _year_of(condition)):
            return None
        prov = condition["province"]
        unit = position.units.get(prov)
        if unit is not None and (not condition.get("must_own") or position.owners.get(prov) == unit.power):
            return _ended("win", (unit.power,), f"{unit.power} holds {prov} with a unit at the end.")
        return _ended("no_winner", (), f"Nobody holds {prov} with a unit of its own at the end.")
    if kind == "sole_survivor":
        at_the_end = "phase" in condition and year_over and done.year >= _year_of(condition)
        if len(survivors) == 1 and (at_the_end or "phase" not in condition or not drowning):
            return _ended("win", (survivors[0],), f"{survivors[0]} is the only power left in play.")
        if at_the_end:
            return _ended("draw", tuple(survivors), "Several powers survived to the end.")
        return None  # before the end a lone survivor the map may still drown is not yet the winner
    if kind == "no_winner_after":
        if year_over and done.year >= _year_of(condition):
            return _ended("no_winner", (), f"The game reached its last year ({done.year}) undecided.")
        return None
    raise VictoryError(f"unknown victory condition type {kind!r}")


def _province_control(
    condition: Mapping[str, Any], map_state: MapState, position: Position, year_over: bool
) -> Outcome | None:
    provinces = tuple(condition["provinces"])
    if not year_over:
        return None
    if condition.get("when") == "only_centres" and map_state.supply_centres != set(provinces):
        return None
    owners = [position.owners.get(p) for p in provinces]
    names = " and ".join(provinces)
    if owners[0] is not None and len(set(owners)) == 1:
        return _ended("win", (owners[0],), f"{owners[0]} controls {names}.")
    if None in owners:
        if not any(position.owners.get(p) for p in map_state.supply_centres):
            return _ended("no_winner", (), f"Nobody owns {names}, the last centres.")
        return None  # a neutral one is still to be taken (E18)
    if condition.get("split") == "draw":
        powers = tuple(sorted({o for o in owners if o is not None}))
        return _ended("draw", powers, f"{names} are split between {' and '.join(powers)}.")
    return None
