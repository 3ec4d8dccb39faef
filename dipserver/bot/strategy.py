"""The bot's orders for one phase, from what its player sees: the options, the board, the map's graph and
the timeline's coming changes (``view.py`` says the shapes). Pure: no I/O, and the same choice for the
same data and the same seeded ``rng``.

Movement: each unit's hold and moves are scored by where they leave it (``scoring.Worth``); moves are
assigned best first so that no two units of ours aim at one province and no unit moves into one of ours
that stays; units with nothing better then support the contested moves and the threatened holds. Retreats
go to the most valuable safe place; builds to the sites nearest the centres to take, of the kind that will
still be of use on the coming map; disbands remove the least useful units. Beside those, the variant's
conversion orders are used where the other kind will serve better on the coming map (a fleet about to be
stranded becomes an army).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from dipserver.bot.adjustments import adjustment_orders, retreat_orders
from dipserver.bot.conversions import conversion_orders, replaced
from dipserver.bot.convoys import add_convoys
from dipserver.bot.plan import Option, Plan
from dipserver.bot.scoring import Worth
from dipserver.bot.timeline_view import outlook_of
from dipserver.bot.view import Seen, UnitSeen, View, view_of

ATTACK_ODDS = 0.35  # a lone move into a unit that stays: it bounces more often than not
BACKED_ODDS = 0.75  # the same move with a unit of ours beside the place, able to support it
SUPPORT_SHARE = 0.6  # how much of a contested move's value a support secures
SUPPORTS_WANTED = 2


def choose(seen: Seen, options: Mapping[str, Any], rng: random.Random) -> list[str]:
    """The orders of one power for the open phase (their texts, as the options give them)."""
    view = view_of(seen)
    worth = Worth(view, outlook_of(view))
    if options.get("adjustment", 0) != 0 or view.phase_type == "A":
        orders = adjustment_orders(view, worth, options, rng)
        return orders + conversion_orders(view, worth, options, holding=set())
    if view.phase_type == "R":
        orders = retreat_orders(view, worth, options, rng)
        return orders + conversion_orders(view, worth, options, holding=set())
    plans = movement_plans(view, worth, options, rng)
    holding = {view.occupant[_province(loc)].location for loc, p in plans.items() if _stays(p.option)}
    extra = conversion_orders(view, worth, options, holding=holding)
    instead = {
        str(o.get("unit")) for o in options.get("conversions", []) if o["text"] in extra and replaced(o)
    }
    return [p.option["text"] for loc, p in sorted(plans.items()) if loc not in instead] + extra


def movement_plans(
    view: View, worth: Worth, options: Mapping[str, Any], rng: random.Random
) -> dict[str, Plan]:
    """Every unit's order for a movement phase, by the unit's location."""
    ranked = {
        loc: _ranked(view, worth, view.occupant[_province(loc)], opts, rng)
        for loc, opts in options.get("units", {}).items()
        if opts and _province(loc) in view.occupant
    }
    plans = _assign(ranked, {_province(loc) for loc in ranked})
    add_convoys(view, worth, options, plans)
    backed = _support(view, worth, options, plans)
    _call_off(view, ranked, plans, backed)
    return plans


def _ranked(view: View, worth: Worth, unit: UnitSeen, opts: list[Option], rng: random.Random) -> list[Plan]:
    """The unit's hold and moves (by land or sea, not by convoy), best first."""
    found = []
    for option in opts:
        kind = option.get("kind")
        if kind == "hold":
            score, ends = worth.at(unit.province, unit.kind, staying=True), unit.province
        elif kind == "move" and not option.get("via_convoy"):
            ends = _province(str(option["dest"]))
            score = worth.at(ends, unit.kind)
            other = view.occupant.get(ends)
            if other is not None and other.power != view.power:
                # Alone it bounces; with a unit of ours beside the place to support it, it may well win.
                score *= BACKED_ODDS if _helpers(view, unit, ends) else ATTACK_ODDS
            score -= 0.5 * view.enemy_reach.get(ends, 0)  # a place others can reach is a place to lose
        else:
            continue
        found.append(Plan(score + rng.random() * 0.01, option, ends))
    if not found:  # a unit with only supports, convoys or module orders: the first is as good as any
        found.append(Plan(0.0, opts[0], unit.province))
    return sorted(found, key=lambda p: -p.score)


def _assign(ranked: dict[str, list[Plan]], ours: set[str]) -> dict[str, Plan]:
    """Best plans first, one unit per province: a unit moves into a province of ours only once the unit
    there is known to leave it (and not to swap places with it), so none of our moves bounce on our own."""
    plans: dict[str, Plan] = {}
    claimed: dict[str, str] = {}  # province -> the unit location ending there
    for _ in range(3):  # a move deferred for a unit not yet placed gets another look
        pairs = sorted(
            ((plan, loc) for loc, options in ranked.items() if loc not in plans for plan in options),
            key=lambda pair: -pair[0].score,
        )
        for plan, loc in pairs:
            if loc in plans or plan.ends in claimed:
                continue
            here = _province(loc)
            if plan.ends != here and plan.ends in ours:
                leaving = next((p for q, p in plans.items() if _province(q) == plan.ends), None)
                if leaving is None or leaving.ends in (plan.ends, here):
                    continue
            plans[loc] = plan
            claimed[plan.ends] = loc
    for loc, options in ranked.items():
        if loc not in plans:  # nothing free: it holds (nobody of ours moved in, see above)
            plans[loc] = next((p for p in options if p.ends == _province(loc)), options[-1])
    return plans


def _support(
    view: View, worth: Worth, options: Mapping[str, Any], plans: dict[str, Plan]
) -> dict[tuple[str, str], int]:
    """Units whose own plan is worth less than the help they can give support our contested moves and
    holds instead. A unit supports only from a province no unit of ours moves into. Returns how many
    supports each (unit's province, where it ends) got."""
    wanted = _wanted(view, worth, plans)
    ends = {p.ends: loc for loc, p in plans.items()}
    offers = []
    for loc, opts in options.get("units", {}).items():
        here, plan = _province(loc), plans.get(loc)
        if plan is None or ends.get(here, loc) != loc or not _moves(plan.option):
            continue
        staying = worth.at(here, view.occupant[here].kind, staying=True)
        cost = max(0.0, plan.score - staying)
        for option in opts:
            aim = _aim(option)
            if aim in wanted and wanted[aim][0] > cost:
                offers.append((wanted[aim][0] - cost, loc, aim, option))
    given: dict[tuple[str, str], int] = {}
    helping: set[str] = set()  # provinces of the units turned to supporting: their own moves are off
    for _, loc, aim, option in sorted(offers, key=lambda o: (-o[0], o[1])):
        if _province(loc) in helping or aim[0] in helping or given.get(aim, 0) >= wanted[aim][1]:
            continue
        if any(backed[0] == _province(loc) for backed in given):
            continue  # a unit others already support keeps its own order
        if plans[loc].ends != _province(loc) and ends.get(_province(loc)) not in (None, loc):
            continue
        ends.pop(plans[loc].ends, None)
        plans[loc] = Plan(plans[loc].score, option, _province(loc))
        ends[_province(loc)] = loc
        given[aim] = given.get(aim, 0) + 1
        helping.add(_province(loc))
    return given


def _call_off(
    view: View, ranked: dict[str, list[Plan]], plans: dict[str, Plan], backed: dict[tuple[str, str], int]
) -> None:
    """A move into an enemy unit that got no support bounces: the unit holds instead, and so does each
    unit of ours that was to move into the place it now keeps, and each that was to support it."""
    for loc, plan in plans.items():
        other = view.occupant.get(plan.ends)
        attacks = plan.option.get("kind") == "move" and other is not None and other.power != view.power
        if attacks and not backed.get((_province(loc), plan.ends)):
            plans[loc] = _hold(ranked[loc], loc, plan)
    changed = True
    while changed:
        changed = False
        kept = {_province(loc) for loc, p in plans.items() if p.ends == _province(loc)}
        for loc, plan in plans.items():
            if plan.ends != _province(loc) and plan.ends in kept:
                held = _hold(ranked[loc], loc, plan)
                changed = changed or held is not plan
                plans[loc] = held
    going = {(_province(loc), p.ends) for loc, p in plans.items() if p.option.get("kind") == "move"}
    for loc, plan in plans.items():
        aim = _aim(plan.option)
        if plan.option.get("kind") == "support_move" and aim not in going:
            plans[loc] = _hold(ranked[loc], loc, plan)  # the move it was to support is off


def _hold(ranked: list[Plan], loc: str, instead: Plan) -> Plan:
    """The unit's hold plan (or ``instead`` where it has none)."""
    return next((p for p in ranked if p.ends == _province(loc) and p.option.get("kind") == "hold"), instead)


def _wanted(view: View, worth: Worth, plans: dict[str, Plan]) -> dict[tuple[str, str], tuple[float, int]]:
    """(unit's province, where it ends) -> (what a support is worth, how many are wanted)."""
    wanted = {}
    for loc, plan in plans.items():
        here, there = _province(loc), plan.ends
        rivals = view.enemy_reach.get(there, 0)
        defender = view.occupant.get(there)
        if defender is not None and defender.power == view.power:
            defender = None  # our unit moving out
        if plan.option.get("kind") == "move" and (rivals or defender):
            gain = worth.at(there, view.occupant[here].kind) * SUPPORT_SHARE
            wanted[(here, there)] = (max(gain, 1.0), SUPPORTS_WANTED if defender else 1)
        elif _stays(plan.option) and there in worth.threatened and _pressed(view, there):
            wanted[(here, here)] = (worth.threatened[there] * SUPPORT_SHARE, 1)
    return wanted


def _pressed(view: View, place: str) -> bool:
    """Whether a unit of ours holding ``place`` needs help: centres change hands in the Autumn; in the
    Spring only two attackers can dislodge it."""
    return view.season == "F" or view.enemy_reach.get(place, 0) >= 2


def _helpers(view: View, unit: UnitSeen, place: str) -> int:
    """Our other units that border ``place`` and so might support a move there."""
    return sum(1 for u in view.mine if u != unit and place in view.terrain.neighbours(u.province, u.kind))


def _aim(option: Option) -> tuple[str, str] | None:
    """A support's (supported unit's province, where it ends)."""
    if option.get("kind") == "support_move":
        return str(option["target"]).split("/")[0], _province(str(option["dest"]))
    if option.get("kind") == "support_hold":
        target = str(option["target"]).split("/")[0]
        return target, target
    return None


def _moves(option: Option) -> bool:
    """A hold or a move by land or sea: the orders a support may replace (a convoyed army's fleet is
    waiting for it)."""
    return option.get("kind") in ("hold", "move") and not option.get("via_convoy")


def _stays(option: Option) -> bool:
    return option.get("kind") in ("hold", "support_hold", "support_move", "convoy")


def _province(location: str) -> str:
    return location.split("/")[0]
