"""Retreats, builds and disbands, scored on the same province values as the moves (``scoring.Worth``)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from dipserver.bot.scoring import CENTRE, REMOVED, Worth
from dipserver.bot.view import View

Option = Mapping[str, Any]


def retreat_orders(view: View, worth: Worth, options: Mapping[str, Any], rng: random.Random) -> list[str]:
    """Each dislodged unit retreats to the best place no other of ours retreats to, or disbands."""
    kinds = {u.location: u.kind for u in view.dislodged if u.power == view.power}
    offers = []
    for loc, opts in sorted(options.get("units", {}).items()):
        kind = kinds.get(loc, "F" if view.terrain.terrain.get(loc.split("/")[0]) == "sea" else "A")
        for option in opts:
            if option.get("kind") == "retreat":
                dest = str(option["dest"]).split("/")[0]
                score = worth.at(dest, kind) - 0.5 * view.enemy_reach.get(dest, 0)
                offers.append((score + rng.random() * 0.01, loc, dest, option))
    chosen: dict[str, str] = {}
    taken: set[str] = set()
    for score, loc, dest, option in sorted(offers, key=lambda o: -o[0]):
        if loc in chosen or dest in taken or score <= REMOVED / 2:
            continue
        chosen[loc] = option["text"]
        taken.add(dest)
    for loc, opts in sorted(options.get("units", {}).items()):
        if loc not in chosen:
            disband = [o for o in opts if o.get("kind") == "disband"]
            if disband:
                chosen[loc] = disband[0]["text"]
    return [chosen[loc] for loc in sorted(chosen)]


def adjustment_orders(view: View, worth: Worth, options: Mapping[str, Any], rng: random.Random) -> list[str]:
    due = int(options.get("adjustment", 0))
    if due < 0:
        return _disbands(view, worth, options, -due)
    if due > 0:
        return _builds(worth, options, due, rng)
    return []


def _disbands(view: View, worth: Worth, options: Mapping[str, Any], count: int) -> list[str]:
    """The ``count`` least useful units go: those furthest from a centre to take or defend, first those
    the timeline is about to remove or strand; a unit standing on a lasting centre of ours stays."""
    scored = []
    for loc, opts in sorted(options.get("units", {}).items()):
        unit = view.occupant.get(loc.split("/")[0])
        if unit is None or not opts:
            continue
        value = worth.at(unit.province, unit.kind, staying=True) + worth.usefulness(unit.province, unit.kind)
        if view.owned(unit.province) and unit.province in worth.lasting:
            value += CENTRE
        scored.append((value, loc, opts[0]["text"]))
    return [text for _, _, text in sorted(scored)[:count]]


def _builds(worth: Worth, options: Mapping[str, Any], due: int, rng: random.Random) -> list[str]:
    """The best ``due`` builds, one per province: a site is worth what the unit built there will be
    worth on the coming map. Where the variant wants the free home centres built first (Deluge, E13), they
    are; and no more go elsewhere than it allows."""
    first = set(options.get("builds_first") or ())
    room = options.get("builds_elsewhere")
    scored = []
    for option in options.get("builds", []):
        if option.get("kind") != "build":
            continue
        site = str(option["location"]).split("/")[0]
        kind = str(option.get("unit_type", "A"))
        value = worth.usefulness(site, kind) + worth.danger(site, kind)
        value += worth.threatened.get(site, 0.0) * 0.2
        scored.append((site not in first, -value - rng.random() * 0.01, site, option["text"]))
    chosen: list[str] = []
    used: set[str] = set()
    for elsewhere, _, site, text in sorted(scored):
        if len(chosen) == due:
            break
        if site in used:
            continue
        if elsewhere and room is not None:
            if room <= 0:
                continue
            room -= 1
        used.add(site)
        chosen.append(text)
    return chosen
