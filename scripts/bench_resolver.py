"""How fast the resolver alone decides the order tables of the benchmark's movement phases.

    python scripts/bench_resolver.py --save /tmp/tables.pickle     # play the positions, keep their tables
    python scripts/bench_resolver.py --load /tmp/tables.pickle     # time resolve() on each, median of runs
    PYTHONHASHSEED=0 valgrind --tool=callgrind python scripts/bench_resolver.py --load T --repeat 0
    PYTHONHASHSEED=0 valgrind --tool=callgrind python scripts/bench_resolver.py --load T --repeat 1 --runs 1

The positions are those of ``scripts/bench_engine.py`` (5,000 movement phases of seeded random games, seed
1, 12 years). Each is adjudicated once in process; the order table ``movement.py`` hands the resolver is
kept as plain tuples, so the file does not depend on where the resolver's classes live. Timed: ``resolve``
on every table, ``--repeat`` times per run, ``--runs`` runs, the best and the median run's mean printed.
Times on a shared machine are noisy: the instruction counts of a ``--repeat 1`` run less a ``--repeat 0``
run (callgrind), divided by the tables, are not.
"""

from __future__ import annotations

import argparse
import os
import pickle
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--years", type=int, default=12)
    parser.add_argument("--save", metavar="PATH", help="play the positions and keep their tables here")
    parser.add_argument("--load", metavar="PATH", help="the tables an earlier --save kept")
    parser.add_argument("--repeat", type=int, default=3, help="resolve() calls per table in a run")
    parser.add_argument("--runs", type=int, default=5, help="timed runs (default 5)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "scripts"))
    if args.load:
        rows = pickle.loads(Path(args.load).read_bytes())
    else:
        rows = capture(args.positions, args.seed, args.years)
    if args.save:
        Path(args.save).write_bytes(pickle.dumps(rows))
    from dipserver.engine.resolver import OrderTable, resolve
    from dipserver.engine.resolver.route import ConvoyRoute

    tables = [_table(row, OrderTable, ConvoyRoute) for row in rows]
    if args.repeat == 0:
        return 0
    means = []
    for _ in range(args.runs):
        t0 = time.process_time()
        for _ in range(args.repeat):
            for table in tables:
                resolve(table)
        means.append((time.process_time() - t0) / args.repeat / len(tables) * 1e6)
    print("load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    print(
        f"resolve: {len(tables)} tables, best {min(means):.2f} us, median {statistics.median(means):.2f} us "
        f"a table (CPU time, {args.runs} runs of {args.repeat})"
    )
    return 0


def capture(wanted: int, seed: int, years: int) -> list[tuple[Any, ...]]:
    """Play the benchmark's positions and keep each table ``movement.py`` resolves, as plain tuples."""
    from bench_positions import play_games

    from dipserver.adjudicator.jsonio import read_request
    from dipserver.engine import movement
    from dipserver.engine.adjudicate import adjudicate
    from dipserver.engine.ordersheet import read_sheet

    rows: list[tuple[Any, ...]] = []
    real = movement.resolve

    def keep(table: Any) -> Any:
        routes = [None if r is None else (r.start, tuple(r.finish), dict(r.links)) for r in table.route]
        rows.append((list(table.province), table.power, table.kind, table.dest, routes, table.supports))
        return real(table)

    requests = play_games("standard", wanted, years, seed)
    movement.resolve = keep  # type: ignore[assignment]
    try:
        for data in requests:
            request = read_request(data)
            orders = read_sheet(request.board, request.position, request.orders).orders
            adjudicate(request.board, request.position, orders, checked=True)
    finally:
        movement.resolve = real  # type: ignore[assignment]
    return rows


def _table(row: tuple[Any, ...], order_table: Any, convoy_route: Any) -> Any:
    province, power, kind, dest, routes, supports = row
    route = [None if r is None else convoy_route(r[0], frozenset(r[1]), r[2]) for r in routes]
    return order_table.build(province, power, kind, dest, route, supports)


if __name__ == "__main__":
    raise SystemExit(main())
