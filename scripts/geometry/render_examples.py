"""Render the PNGs of key phases kept in docs/maps/ (look at them after changing the geometry or styles).

python3 scripts/geometry/render_examples.py [--out docs/maps]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from dipserver.engine.board import MapState
from dipserver.engine.dislodged import Dislodged
from dipserver.engine.orders import Convoy, Hold, Move, OrderResult, Outcome, SupportHold, SupportMove
from dipserver.engine.position import Position
from dipserver.engine.timeline import Hook, walk
from dipserver.engine.types import Phase, Unit, UnitType
from dipserver.engine.variant import Variant, load_variant
from dipserver.render import render_png

A, F = UnitType.ARMY, UnitType.FLEET


def timeline_at(variant: Variant, year: int, hook: Hook) -> tuple[MapState, Position, list]:
    """The exact-mode map after ``hook`` of ``year``, and the events of the next hook that changes it."""
    steps = walk(variant, {"mode": "exact"})
    index = next(i for i, (y, h, _) in enumerate(steps) if (y, h) == (year, hook))
    result = steps[index][2]
    upcoming = next((r.events for _, _, r in steps[index + 1 :] if r.events), [])
    return result.map_state, result.position, list(upcoming)


def autumn_1901() -> tuple[Position, list[OrderResult]]:
    """A made-up Autumn 1901: a convoy, bounces, a cut support and a dislodgement."""
    units = [
        Unit("ENGLAND", F, "NTH"), Unit("ENGLAND", A, "YOR"), Unit("ENGLAND", F, "ENG"),
        Unit("FRANCE", A, "BUR"), Unit("FRANCE", A, "PIC"), Unit("FRANCE", F, "MAO"),
        Unit("FRANCE", F, "SPA/SC"), Unit("GERMANY", A, "MUN"), Unit("GERMANY", A, "RUH"),
        Unit("GERMANY", F, "DEN"), Unit("RUSSIA", F, "STP/SC"), Unit("RUSSIA", A, "WAR"),
        Unit("RUSSIA", F, "SEV"), Unit("TURKEY", F, "BLA"), Unit("TURKEY", A, "BUL"),
        Unit("ITALY", A, "TYR"), Unit("AUSTRIA", A, "VIE"), Unit("AUSTRIA", F, "TRI"),
    ]  # fmt: skip
    position = Position(
        Phase.parse("F1901M"), {u.province: u for u in units}, load_variant("standard").start.owners
    )
    results = [
        OrderResult("ENGLAND", Convoy("NTH", "YOR", "NWY"), Outcome.SUCCESS),
        OrderResult("ENGLAND", Move("YOR", "NWY", via_convoy=True), Outcome.SUCCESS),
        OrderResult("ENGLAND", Move("ENG", "BEL"), Outcome.BOUNCE),
        OrderResult("FRANCE", Move("PIC", "BEL"), Outcome.BOUNCE),
        OrderResult("FRANCE", SupportMove("BUR", "PIC", "BEL"), Outcome.CUT),
        OrderResult("FRANCE", Move("SPA/SC", "WES"), Outcome.SUCCESS),
        OrderResult("FRANCE", Move("MAO", "SPA/NC"), Outcome.SUCCESS),
        OrderResult("GERMANY", Move("RUH", "BUR"), Outcome.SUCCESS),
        OrderResult("GERMANY", SupportMove("MUN", "RUH", "BUR"), Outcome.SUCCESS),
        OrderResult("GERMANY", Hold("DEN"), Outcome.SUCCESS),
        OrderResult("RUSSIA", Move("STP/SC", "BOT"), Outcome.SUCCESS),
        OrderResult("RUSSIA", SupportHold("SEV", "WAR"), Outcome.SUCCESS),
        OrderResult("TURKEY", Move("BLA", "SEV"), Outcome.BOUNCE),
        OrderResult("TURKEY", Move("BUL", "RUM"), Outcome.SUCCESS),
        OrderResult("ITALY", Move("TYR", "VIE"), Outcome.BOUNCE),
        OrderResult("AUSTRIA", Move("VIE", "TYR"), Outcome.BOUNCE),
        OrderResult("FRANCE", Hold("BUR"), Outcome.DISLODGED, dislodged=True),
    ]
    return position, results


def retreats_1901(position: Position) -> Position:
    units = dict(position.units)
    del units["RUH"]  # Germany's army moved from the Ruhr into Burgundy
    units["BUR"] = Unit("GERMANY", A, "BUR")
    dislodged = {"BUR": Dislodged(Unit("FRANCE", A, "BUR"), "RUH", ("PAR", "GAS", "MAR"))}
    return Position(Phase.parse("F1901R"), units, position.owners, dislodged)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[2] / "docs" / "maps")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    standard = load_variant("standard")
    position, results = autumn_1901()
    pictures = {
        "standard-s1901m.png": (standard, standard.map_state, standard.start, {}),
        "standard-f1901m-results.png": (standard, standard.map_state, position, {"results": results}),
        "standard-f1901r-retreats.png": (standard, standard.map_state, retreats_1901(position), {}),
    }
    for slug, year, hook, following, name in (
        ("sahara", 1905, Hook.AFTER_FALL_RETREATS, Phase.parse("W1905A"), "sahara-w1905a.png"),
        ("deluge", 1902, Hook.AFTER_WINTER_ADJUSTMENTS, Phase.parse("S1903M"), "deluge-s1903m.png"),
        ("wall_of_ice", 1905, Hook.AFTER_FALL_RETREATS, Phase.parse("W1905A"), "wall_of_ice-w1905a.png"),
    ):
        variant = load_variant(slug)
        map_state, pos, upcoming = timeline_at(variant, year, hook)
        pos = replace(pos, phase=following)  # the walk keeps the start's phase; name the one drawn
        pictures[name] = (variant, map_state, pos, {"next_changes": upcoming})
    for name, (variant, map_state, pos, extra) in pictures.items():
        (args.out / name).write_bytes(render_png(variant, map_state, pos, **extra))
        print(f"wrote {args.out / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
