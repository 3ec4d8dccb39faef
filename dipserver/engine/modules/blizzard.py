"""Blizzards (from Ice Lords' Blizzard Phase and its *Snow Storm* spell; variant-rulings §8.1).

When a movement phase opens, a dice expression (Ice Lords: 1d6) of provinces is drawn without replacement
from the current map's passable provinces, with the game's auditable randomness, and announced. On a board
of squares named like chess squares (Ice Lords: A1 to I9) the ``coordinates`` option rolls each blizzard's
square instead, as the seed does ("Roll 2D8 to determine coordinates"): one die for the column, one for
the row, so a blizzard may fall on any square the dice name, sea included, with the dice's odds; a square
rolled twice has one blizzard. Until the phase's retreats are over:

- no unit moves into, out of or through a blizzard, and no fleet in one convoys;
- a unit in a blizzard can only hold: it gives no support and cannot be attacked, so it is never dislodged;
- no retreat goes into a blizzard.

The adjudicator learns all of this from an *overlay* board on which the blizzards are closed (impassable)
for the season; ``screen_problem`` answers the forbidden orders first, in words. A sea under a blizzard
keeps its coastline, like an iceberg (E4/E21): it stops ships, it does not reshape the coast.

*Snow Storm* tokens (optional, ``snow_storm_tokens`` per power per game) place or remove one blizzard; they
are ordered with the previous phase's orders and take effect right after the draw.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from dipserver.engine.board import Board, MapState
from dipserver.engine.lateorders import Disband, Retreat
from dipserver.engine.modules.dice import Dice
from dipserver.engine.modules.orders import SnowStorm as SnowStorm
from dipserver.engine.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove
from dipserver.engine.randomness import draw as random_draw
from dipserver.engine.types import Phase, Terrain, province_of

ELIGIBLE = ("all", "land", "sea")
_ALLOWED_IN_BLIZZARD = (Hold, Disband)  # a snowed-in unit holds; a dislodged one may still disband


@dataclass(frozen=True, slots=True)
class BlizzardOptions:
    count: Dice = field(default_factory=lambda: Dice(1, 6))  # how many blizzards each movement phase
    eligible: str = "all"  # where they may fall: "all" passable provinces, "land" or "sea" only
    snow_storm_tokens: int = 0  # Snow Storm tokens each power gets for the whole game
    coordinates: Dice | None = None  # "2d8": each blizzard's square rolled, a die a coordinate (Ice Lords)

    @classmethod
    def from_data(cls, data: Mapping[str, Any] | bool | None) -> BlizzardOptions:
        """From game options such as ``{"count": "1d6-1", "eligible": "land", "snow_storm_tokens": 1}``."""
        if data is True or data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise ValueError("blizzards: give true or a table (count, eligible, snow_storm_tokens)")
        unknown = sorted(set(data) - {"count", "eligible", "snow_storm_tokens", "coordinates"})
        if unknown:
            raise ValueError(f"blizzards: unknown option {', '.join(unknown)}")
        eligible = data.get("eligible", "all")
        if eligible not in ELIGIBLE:
            raise ValueError(f"blizzards: 'eligible' must be one of {', '.join(ELIGIBLE)}, not {eligible!r}")
        tokens = data.get("snow_storm_tokens", 0)
        if not isinstance(tokens, int) or isinstance(tokens, bool) or tokens < 0:
            raise ValueError("blizzards: 'snow_storm_tokens' must be a whole number, 0 or more")
        try:
            count = Dice.parse(data.get("count", "1d6"))
        except ValueError as exc:
            raise ValueError(f"blizzards: 'count': {exc}") from None
        return cls(count, eligible, tokens, _coordinates(data.get("coordinates")))

    def to_data(self) -> dict[str, Any]:
        tokens = self.snow_storm_tokens
        data: dict[str, Any] = {
            "count": str(self.count),
            "eligible": self.eligible,
            "snow_storm_tokens": tokens,
        }
        if self.coordinates is not None:
            data["coordinates"] = str(self.coordinates)
        return data


def _coordinates(text: object) -> Dice | None:
    """The ``coordinates`` option: two dice, no bonus ("2d8"), one die a coordinate; ``None``: not given."""
    if text is None:
        return None
    try:
        dice = Dice.parse(text)  # type: ignore[arg-type]
    except ValueError as exc:
        raise ValueError(f"blizzards: 'coordinates': {exc}") from None
    if dice.count != 2 or dice.bonus:
        raise ValueError(
            f"blizzards: 'coordinates' are two dice, one a coordinate, like \"2d8\" (not {text!r})"
        )
    return dice


def eligible(board: Board, options: BlizzardOptions) -> list[str]:
    """Where blizzards may fall on this map, sorted (the draws index into this list)."""
    wanted = {"all": (Terrain.LAND, Terrain.SEA), "land": (Terrain.LAND,), "sea": (Terrain.SEA,)}
    kinds = wanted[options.eligible]
    return sorted(p for p in board.provinces if board.terrain(p) in kinds)


def draw(board: Board, phase: Phase, secret: str, options: BlizzardOptions) -> frozenset[str]:
    """The blizzards of movement phase ``phase``: ``options.count`` provinces drawn without replacement,
    or with ``options.coordinates`` that many squares rolled (``rolled``).

    Draw ids: ``blizzard/<phase>/count`` for the dice, ``blizzard/<phase>/<n>`` for the n-th province.
    """
    if options.coordinates is not None:
        return rolled(board, phase, secret, options, options.coordinates)
    pool = eligible(board, options)
    count = min(options.count.roll(secret, f"blizzard/{phase}/count"), len(pool))
    # pop() shrinks the pool, so each draw picks among the provinces not yet chosen
    return frozenset(
        pool.pop(int(random_draw(secret, f"blizzard/{phase}/{n}") * len(pool))) for n in range(1, count + 1)
    )


def rolled(board: Board, phase: Phase, secret: str, options: BlizzardOptions, dice: Dice) -> frozenset[str]:
    """The blizzards as the seed places them: for each of ``options.count``, a column die (A, B, ...) and a
    row die (1, 2, ...), each a ``dice.sides``-sided die, name a square; it is a blizzard if it is one of
    the eligible provinces of this map. A square rolled twice has one blizzard.

    Draw ids: ``blizzard/<phase>/count``, then ``blizzard/<phase>/<n>/column`` and ``.../row`` (one die
    each, ``Dice.roll``)."""
    die = Dice(1, dice.sides)
    pool = set(eligible(board, options))
    count = options.count.roll(secret, f"blizzard/{phase}/count")
    found = set()
    for n in range(1, count + 1):
        column = die.roll(secret, f"blizzard/{phase}/{n}/column")
        row = die.roll(secret, f"blizzard/{phase}/{n}/row")
        name = f"{chr(ord('A') + column - 1)}{row}"
        if name in pool:
            found.add(name)
    return frozenset(found)


def storm_problem(board: Board, storm: SnowStorm, tokens_left: int) -> str | None:
    """Why a Snow Storm order cannot be accepted, or ``None``."""
    if tokens_left <= 0:
        return f"{storm.power} has no Snow Storm token left"
    if storm.province not in board.provinces:
        return f"{storm.province} is not a province of this map"
    terrain = board.terrain(storm.province)
    if not terrain.passable:
        return f"{board.province_name(storm.province)} is {terrain.value}: no blizzard falls there"
    return None


def apply_storms(drawn: Iterable[str], storms: Iterable[SnowStorm], board: Board) -> frozenset[str]:
    """The drawn blizzards after the Snow Storms: a place and a remove on one province cancel out,
    repeated ones count once, and a storm on a province no longer passable (the map changed) lapses."""
    placed = {s.province for s in storms if s.place}
    removed = {s.province for s in storms if not s.place}
    result = set(drawn) | (placed - removed)
    result -= removed - placed
    return frozenset(p for p in result if board.terrain(p).passable)


def storm_effects(drawn: Iterable[str], storms: Iterable[SnowStorm], board: Board) -> list[dict[str, Any]]:
    """Each Snow Storm as announced with the draw, with what it did (``apply_storms``'s rules): ``placed``
    or ``removed`` a blizzard, ``cancelled`` (a place and a remove on one province), ``no_change`` (placed
    where one was drawn anyway, or removed where none was) or ``lapsed`` (the province is no longer
    passable)."""
    storms = tuple(storms)
    drawn = frozenset(drawn)
    both = {s.province for s in storms if s.place} & {s.province for s in storms if not s.place}
    report = []
    for storm in storms:
        if not board.terrain(storm.province).passable:
            effect = "lapsed"
        elif storm.province in both:
            effect = "cancelled"
        elif storm.place:
            effect = "no_change" if storm.province in drawn else "placed"
        else:
            effect = "removed" if storm.province in drawn else "no_change"
        row = {"power": storm.power, "province": storm.province, "place": storm.place, "effect": effect}
        report.append(row)
    return report


def blizzards_for(
    board: Board, phase: Phase, secret: str, options: BlizzardOptions, storms: Iterable[SnowStorm] = ()
) -> frozenset[str]:
    """What is announced when movement phase ``phase`` opens: the draw, then the Snow Storms."""
    return apply_storms(draw(board, phase, secret, options), storms, board)


@functools.lru_cache(maxsize=64)
def overlay(board: Board, blizzards: frozenset[str]) -> Board:
    """The board orders are judged on while ``blizzards`` last (closed for the season); ``board`` itself
    when there are none. A sea under a blizzard keeps its coastline (only ships are stopped), like an
    iceberg (E4/E21)."""
    if not blizzards:
        return board
    state = board.map_state
    terrain = {p: Terrain.IMPASSABLE if p in blizzards else t for p, t in state.terrain.items()}
    closed = MapState(terrain, state.coasts, state.supply_centres, state.homes)
    return Board(board.variant, closed, shores=blizzards & board.seas)


def order_problem(board: Board, blizzards: frozenset[str], order: Order) -> str | None:
    """Why a blizzard forbids ``order`` (movement or retreat phase), in words; ``None`` if it does not."""
    if not blizzards:
        return None
    here = province_of(getattr(order, "unit", ""))
    name = board.province_name
    if here in blizzards and type(order) not in _ALLOWED_IN_BLIZZARD:
        return f"{name(here)} is snowed in by a blizzard: its unit can only hold"
    if isinstance(order, Move | Retreat) and province_of(order.dest) in blizzards:
        return f"{name(province_of(order.dest))} is under a blizzard: no unit may enter it"
    if isinstance(order, SupportMove) and province_of(order.dest) in blizzards:
        return f"{name(province_of(order.dest))} is under a blizzard: no move into it can be supported"
    if isinstance(order, SupportMove | SupportHold) and province_of(order.target) in blizzards:
        return f"{name(province_of(order.target))} is snowed in by a blizzard: no support reaches its unit"
    if isinstance(order, Convoy):
        for end in (order.target, order.dest):
            if province_of(end) in blizzards:
                return f"{name(province_of(end))} is under a blizzard: no convoy to or from it"
    return None
