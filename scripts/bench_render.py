"""How fast the map renders and how big it is: SVG and PNG of a few phases.

    python3 scripts/bench_render.py [--repeat 20]

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

from dipserver.engine.orders import Hold, Move, SupportHold, SupportMove
from dipserver.engine.timeline import Hook, walk
from dipserver.engine.variant import load_variant
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


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=20, help="renders per SVG measurement (PNG: a fifth)")
    args = parser.parse_args()

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
