"""How fast the map renders and how big it is: SVG and PNG of a few phases.

    python3 scripts/bench_render.py [--repeat 20]
    python3 scripts/bench_render.py --write docs/maps   # the rule-module pictures instead

Targets (issue 9): a phase's SVG in under 50 ms and under 400 KB; its PNG in under 1 s.
Prints wall-clock and CPU time (the median of the repeats; the first call, which reads the geometry
file, is reported on its own).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dataclasses import replace
from typing import Any

from dipserver.engine import icelords
from dipserver.engine.board import MapState, board_for
from dipserver.engine.modules import Modules
from dipserver.engine.modules.blizzard import BlizzardOptions
from dipserver.engine.modules.dice import Dice
from dipserver.engine.modules.phase import ModuleState, open_phase
from dipserver.engine.modules.supply import Depot, SupplyOptions, SupplyState
from dipserver.engine.orders import Hold, Move, SupportHold, SupportMove
from dipserver.engine.position import Position
from dipserver.engine.timeline import Hook, walk
from dipserver.engine.types import Phase, Unit, UnitType
from dipserver.engine.variant import Variant, load_variant
from dipserver.render import render_png, render_svg
from dipserver.render.geometry import _read, geometry_file


def timed(call: Callable[[], object], repeat: int) -> tuple[float, float, object]:
    """(median wall ms, median CPU ms, last result)."""
    walls, cpus, result = [], [], None
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = call()
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    return statistics.median(walls), statistics.median(cpus), result


def module_scenes() -> dict[str, tuple[str, Variant, MapState, Position, dict[str, Any]]]:
    """The rule-module pictures of docs/maps (name -> (file, variant, map, position, render_svg keywords)):
    blizzards on Wall of Ice, supply lines and depots on the standard board, a generated Ice Lords board."""
    scenes: dict[str, tuple[str, Variant, MapState, Position, dict[str, Any]]] = {}
    wall = load_variant("wall_of_ice")
    wall_map, wall_position = next(
        (r.map_state, r.position) for y, h, r in walk(wall, {"mode": "exact"})
        if (y, h) == (1905, Hook.AFTER_WINTER_ADJUSTMENTS)
    )  # fmt: skip
    wall_position = replace(wall_position, phase=Phase.parse("S1906M"))
    snow = Modules(blizzards=BlizzardOptions(Dice(1, 6, 3)))
    opened = open_phase(board_for(wall, wall_map), wall_position, snow, ModuleState(), "docs-example")
    scenes["wall_of_ice S1906M blizzards"] = (
        "wall_of_ice-s1906m-blizzards.png", wall, wall_map, wall_position, {"modules": opened.to_data()}
    )  # fmt: skip

    standard = load_variant("standard")
    units = {
        "FRANCE": ["A BUR", "A MUN", "A GAS", "F MAO", "A UKR", "A PIE"],
        "GERMANY": ["A RUH", "F KIE", "A SIL"],
        "ENGLAND": ["F NTH", "A YOR", "F NWG"],
        "ITALY": ["A VEN", "F TYS"],
    }
    placed = {}
    for power, rows in units.items():
        for row in rows:
            kind, where = row.split()
            placed[where] = Unit(power, UnitType(kind), where)
    position = Position(Phase.parse("S1902M"), placed, dict(standard.start.owners))
    state = ModuleState(
        supply=SupplyState({"GAS": Depot("FRANCE", "F1901M"), "SIL": Depot("GERMANY", "F1901M")}, {"UKR": 1})
    )
    lines = open_phase(board_for(standard, standard.map_state), position, Modules(supply=SupplyOptions()),
                       state, "docs-example")  # fmt: skip
    scenes["standard S1902M supply lines"] = (
        "standard-s1902m-supply.png", standard, standard.map_state, position, {"modules": lines.to_data()}
    )  # fmt: skip

    board_map = icelords.generate("docs-example", 6)
    ice = board_map.variant
    ice_modules = Modules.from_options(icelords.DEFAULT_OPTIONS)
    ice_open = open_phase(
        board_for(ice, ice.map_state), ice.start, ice_modules, ModuleState(), "docs-example"
    )
    scenes["ice_lords S1901M"] = (
        "ice_lords-s1901m.png", ice, ice.map_state, ice.start,
        {"modules": ice_open.to_data(), "geometry": icelords.geometry(board_map)},
    )  # fmt: skip
    return scenes


def write_examples(folder: Path) -> None:
    for file, variant, map_state, position, extra in module_scenes().values():
        (folder / file).write_bytes(render_png(variant, map_state, position, width=1440, **extra))
        print(f"wrote {folder / file}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=20, help="renders per SVG measurement (PNG: a fifth)")
    parser.add_argument(
        "--write", type=Path, help="write the rule-module pictures (docs/maps) to this folder"
    )
    args = parser.parse_args()
    if args.write:
        write_examples(args.write)
        return 0

    standard = load_variant("standard")
    _read.cache_clear()
    started = time.perf_counter()
    render_svg(standard, standard.map_state, standard.start)
    first = (time.perf_counter() - started) * 1000
    print(f"first SVG render (reads {geometry_file(standard).name}): {first:.1f} ms")

    orders = [Move("PAR", "BUR"), SupportMove("MAR", "PAR", "BUR"), Hold("BRE"), SupportHold("VIE", "BUD")]
    sahara = load_variant("sahara")
    sahara_map, sahara_position = next(
        (r.map_state, r.position) for y, h, r in walk(sahara, {"mode": "exact"})
        if (y, h) == (1905, Hook.AFTER_FALL_RETREATS)
    )  # fmt: skip
    cases = {
        "standard S1901M": (standard, standard.map_state, standard.start, {}),
        "standard S1901M + orders": (standard, standard.map_state, standard.start, {"orders": orders}),
        "sahara after A1905": (sahara, sahara_map, sahara_position, {}),
    }
    cases.update({name: scene[1:] for name, scene in module_scenes().items()})
    print(
        f"{'phase':28} {'SVG ms':>8} {'SVG CPU':>8} {'SVG KB':>7} {'PNG ms':>8} {'PNG CPU':>8} {'PNG KB':>7}"
    )
    for name, (variant, map_state, position, extra) in cases.items():
        svg_call = partial(render_svg, variant, map_state, position, **extra)
        png_call = partial(render_png, variant, map_state, position, **extra)
        svg_wall, svg_cpu, svg = timed(svg_call, args.repeat)
        png_wall, png_cpu, png = timed(png_call, max(1, args.repeat // 5))
        print(
            f"{name:28} {svg_wall:8.2f} {svg_cpu:8.2f} {len(svg.encode()) / 1024:7.0f}"  # type: ignore[union-attr]
            f" {png_wall:8.0f} {png_cpu:8.0f} {len(png) / 1024:7.0f}"  # type: ignore[arg-type]
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
