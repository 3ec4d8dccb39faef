"""The benchmark's positions: movement phases of seeded random games, each a request of the command line's
``adjudicate`` (``scripts/bench_engine.py`` times them; ``check_answers.py``, ``count_engine.py`` and
``bench_resolver.py`` replay them). The orders are random but legal, from ``options.py``: most units move,
the rest support or convoy what their neighbours do."""

from __future__ import annotations

import random
from typing import Any


def play_games(slug: str, wanted: int, years: int, seed: int) -> list[dict[str, Any]]:
    """Movement-phase requests (orders included) from seeded random games, ``wanted`` of them."""
    from dipserver.adjudicator.jsonio import position_data
    from dipserver.engine.adjudicate import adjudicate
    from dipserver.engine.board import board_for
    from dipserver.engine.variant import load_variant

    variant = load_variant(slug)
    board = board_for(variant, variant.map_state)
    rng = random.Random(seed)
    requests: list[dict[str, Any]] = []
    while len(requests) < wanted:
        position = variant.start
        last = position.phase.year + years - 1
        while position.phase.year <= last and len(requests) < wanted:
            texts, orders = random_orders(board, position, rng)
            if position.phase.type.value == "M":
                request = position_data(variant, position, board)
                request["orders"] = texts
                requests.append(request)
            position = adjudicate(board, position, orders).position
    return requests


def random_orders(
    board: Any, position: Any, rng: random.Random
) -> tuple[dict[str, list[str]], dict[str, Any]]:
    """One random legal order set for every power: (texts, orders) by power.

    Movement: six units in ten move, one holds, the rest support or convoy an order another unit was given
    when one fits (else any support), so that the resolver meets real contests, not only void supports.
    """
    from dipserver.engine.lateorders import Build
    from dipserver.engine.options import phase_options
    from dipserver.engine.orders import Convoy, Move, SupportHold, SupportMove
    from dipserver.engine.types import province_of

    powers = sorted({u.power for u in position.units.values()} | set(position.owners.values()))
    every = phase_options(board, position)
    choices = {p: every[p] for p in powers}
    picked: dict[str, Any] = {}  # unit (or build site) -> (power, option)
    kind = position.phase.type.value
    if kind == "M":
        helpers = []
        for power, opts in choices.items():
            for loc, options in opts.units.items():
                roll = rng.random()
                moves = [o for o in options if isinstance(o.order, Move) and not o.order.via_convoy]
                # A convoy is asked for only where no land route leads: the rule sets differ on the rest.
                convoyed = [
                    o
                    for o in options
                    if isinstance(o.order, Move) and o.order.via_convoy and not _by_land(board, o.order)
                ]
                if roll < 0.55 and moves:
                    picked[loc] = (power, rng.choice(moves))
                elif roll < 0.6 and convoyed:
                    picked[loc] = (power, rng.choice(convoyed))
                elif roll < 0.7:
                    picked[loc] = (power, options[0])  # options list the hold first
                else:
                    helpers.append((power, loc, options))
        given = {_aim(o.order) for _, o in picked.values()}
        given |= {("move", *aim[1:]) for aim in given if aim[:1] == ("convoy",)}  # supports of convoyed moves
        for power, loc, options in helpers:
            helping = [o for o in options if isinstance(o.order, SupportHold | SupportMove | Convoy)]
            matching = [o for o in helping if _aim(o.order) in given]
            picked[loc] = (power, rng.choice(matching or helping or options))
        # Every fleet that can carry an army ordered to go by convoy does, whatever else it meant to do.
        for power, opts in choices.items():
            for loc, options in opts.units.items():
                carrying = [o for o in options if isinstance(o.order, Convoy) and _aim(o.order) in given]
                if carrying:
                    picked[loc] = (power, rng.choice(carrying))
    elif kind == "R":
        for power, opts in choices.items():
            for loc, options in opts.units.items():
                picked[loc] = (power, rng.choice(options))
    else:
        for power, opts in choices.items():
            if opts.adjustment.due < 0:
                for loc in rng.sample(sorted(opts.units), -opts.adjustment.due):
                    picked[loc] = (power, opts.units[loc][0])
            builds = [(o, o.order.location) for o in opts.adjustment.builds if isinstance(o.order, Build)]
            rng.shuffle(builds)
            for option, location in builds:
                site = province_of(location)
                if (
                    site not in picked
                    and sum(1 for p, _ in picked.values() if p == power) < opts.adjustment.due
                ):
                    picked[site] = (power, option)
    texts: dict[str, list[str]] = {}
    orders: dict[str, list[Any]] = {}
    for power, option in picked.values():
        texts.setdefault(power, []).append(option.text)
        orders.setdefault(power, []).append(option.order)
    return texts, orders


def _by_land(board: Any, move: Any) -> bool:
    return move.dest in board.army_moves(move.unit)


def _aim(order: Any) -> tuple[str, ...]:
    """What a move or hold does, and what a support or convoy needs done: equal when they match."""
    from dipserver.engine.orders import Convoy, Hold, Move, SupportHold, SupportMove
    from dipserver.engine.types import province_of

    if isinstance(order, Move):
        if order.via_convoy:
            return ("convoy", province_of(order.unit), province_of(order.dest))
        return ("move", province_of(order.unit), province_of(order.dest))
    if isinstance(order, SupportMove):
        return ("move", order.target, province_of(order.dest))
    if isinstance(order, Convoy):
        return ("convoy", order.target, order.dest)
    if isinstance(order, Hold | SupportHold):
        return ("stay", province_of(order.unit) if isinstance(order, Hold) else order.target)
    return ()
