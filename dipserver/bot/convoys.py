"""Armies carried across one sea by a fleet of ours: where an army's convoyed move is worth more than its
plan by more than the fleet gives up by staying to carry it, the army sails and the fleet convoys.

Only a one-fleet crossing is planned (a fleet bordering both the army and the shore it lands on): a
longer chain may lean on other powers' fleets, which the options do not say.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dipserver.bot.plan import Plan
from dipserver.bot.scoring import Worth
from dipserver.bot.view import View

MARGIN = 1.0  # what a crossing must gain over the two units' own plans


def add_convoys(view: View, worth: Worth, options: Mapping[str, Any], plans: dict[str, Plan]) -> None:
    """Change ``plans`` in place: each worthwhile crossing's army move and fleet convoy."""
    carriers = _carriers(options)
    ends = {p.ends: loc for loc, p in plans.items()}
    busy: set[str] = set()
    for army, dest, gain, move in _crossings(view, worth, options, plans, ends):
        for fleet, convoy in carriers.get((army, dest), []):
            plan = plans.get(fleet)
            here = fleet.split("/")[0]
            if plan is None or fleet in busy or ends.get(here, fleet) != fleet:
                continue
            if not _beside(view, here, army, dest):
                continue
            cost = max(0.0, plan.score - worth.at(here, "F", staying=True))
            if gain <= cost + MARGIN or dest in ends:
                continue
            ends.pop(plans[army].ends, None)
            ends.pop(plan.ends, None)
            plans[army] = Plan(plans[army].score + gain, move, dest)
            plans[fleet] = Plan(plan.score, convoy, here)
            ends[dest], ends[here] = army, fleet
            busy.update({fleet, army})
            break


def _crossings(
    view: View, worth: Worth, options: Mapping[str, Any], plans: dict[str, Plan], ends: dict[str, str]
) -> list[tuple[str, str, float, Mapping[str, Any]]]:
    """(army, landing, what it gains over its plan, the move), best first."""
    found = []
    for loc, opts in options.get("units", {}).items():
        plan = plans.get(loc)
        if plan is None or plan.option.get("kind") not in ("move", "hold"):
            continue
        for option in opts:
            if option.get("kind") != "move" or not option.get("via_convoy"):
                continue
            dest = str(option["dest"]).split("/")[0]
            other = view.occupant.get(dest)
            if dest in ends or (other is not None):
                continue  # only onto a free shore: a bounce would waste two units
            gain = worth.at(dest, "A") - 0.5 * view.enemy_reach.get(dest, 0) - plan.score
            if gain > MARGIN:
                found.append((loc, dest, gain, option))
    return sorted(found, key=lambda f: (-f[2], f[0], f[1]))


def _carriers(options: Mapping[str, Any]) -> dict[tuple[str, str], list[tuple[str, Mapping[str, Any]]]]:
    """(army's province, landing) -> our fleets that may carry it there, with the convoy order."""
    found: dict[tuple[str, str], list[tuple[str, Mapping[str, Any]]]] = {}
    for loc, opts in sorted(options.get("units", {}).items()):
        for option in opts:
            if option.get("kind") == "convoy":
                key = (str(option["target"]), str(option["dest"]))
                found.setdefault(key, []).append((loc, option))
    return found


def _beside(view: View, sea: str, army: str, dest: str) -> bool:
    borders = view.terrain.borders.get(sea, ())
    return army in borders and dest in borders
