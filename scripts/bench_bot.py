"""How the bot (``dipserver/bot/strategy.py``) does against bots that pick random legal orders, per variant.

    python scripts/bench_bot.py [--variants standard,deluge] [--rounds 2] [--pairs 3] [--years 15]

For every variant (the folders of ``variants/`` and the generated boards such as Ice Lords), it plays
whole games on the engine in process (``dipserver/games/engine_games.py``: the same payloads the API gives
a player), with fixed seeds:

1. one bot against random bots, the bot's power rotating through the powers (``--rounds`` times);
2. bots against bots (``--pairs`` games).

It prints, per variant, the bot's games won (a solo, or the most centres alone when the game stops at
its last year), drawn (the most centres shared, or a draw the rules declare) and lost, beside the share a
random seat would win (one in the number of powers); and whether every bot-against-bot game ended on time,
that is with the engine's outcome by its last year (no game left running).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from dipserver.engine import variant_slugs

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default=",".join(variant_slugs()))
    parser.add_argument("--rounds", type=int, default=2, help="bot-vs-random games: this many per power")
    parser.add_argument("--pairs", type=int, default=3, help="bot-vs-bot games per variant")
    parser.add_argument("--years", type=int, default=15, help="years each game plays at most")
    parser.add_argument("--seed", default="bench")
    args = parser.parse_args()
    print("load average at the start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    ok = True
    for slug in args.variants.split(","):
        ok &= bench_variant(slug, args)
    print("load average at the end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    return 0 if ok else 1


def table_for(slug: str, seed: str, years: int) -> Any:
    """The game's settings: the variant dealt from ``seed`` (a generated board differs per game), its
    default options, and a last year ``years`` after the start."""
    from dipserver.engine import variant_source
    from dipserver.games.engine_games import Table

    source = variant_source(slug)
    variant = source.variant_for(seed)
    return Table(variant, dict(source.default_options), seed, variant.start.phase.year + years - 1)


def standing(played: Any, power: str) -> str:
    """won, drawn or lost, for ``power``."""
    if played.result == "win":
        return "won" if power in played.winners else "lost"
    if played.result == "draw":
        return "drawn" if power in played.winners else "lost"
    counts = {p: played.centres(p) for p in played.position.owners.values()}
    top = max(counts.values(), default=0)
    leaders = [p for p, n in counts.items() if n == top]
    if counts.get(power, 0) != top:
        return "lost"
    return "won" if len(leaders) == 1 else "drawn"


def bench_variant(slug: str, args: argparse.Namespace) -> bool:
    from dipserver.games.engine_games import play_game

    started = time.perf_counter()
    powers = sorted(table_for(slug, f"{args.seed}/{slug}/0", args.years).variant.powers)
    games = args.rounds * len(powers)
    tally = {"won": 0, "drawn": 0, "lost": 0}
    solos = invalid = 0
    for game in range(games):
        table = table_for(slug, f"{args.seed}/{slug}/{game}", args.years)
        powers = sorted(table.variant.powers)
        smart = powers[game % len(powers)]
        bots = {p: (_smart if p == smart else _random) for p in powers}
        played = play_game(table, bots, seed=f"{args.seed}/{game}")
        tally[standing(played, smart)] += 1
        solos += played.result == "win" and smart in played.winners
        invalid += played.invalid.get(smart, 0)
    on_time = []
    for pair in range(args.pairs):
        table = table_for(slug, f"{args.seed}/{slug}/pair{pair}", args.years)
        played = play_game(table, dict.fromkeys(table.variant.powers, _smart), seed=f"{args.seed}/p{pair}")
        on_time.append((played.result is not None and played.last_year <= table.end_year, played))
        invalid += sum(played.invalid.values())
    share = 1 / len(powers)
    print(
        f"{slug}: bot vs random, {games} games: won {tally['won']} (solo {solos}), drawn {tally['drawn']}, "
        f"lost {tally['lost']}; a random seat would win {share:.0%} ({share * games:.1f} games)"
    )
    ends = ", ".join(f"{p.result} {'+'.join(p.winners) or '-'} in {p.last_year}" for _, p in on_time)
    print(f"{slug}: bot vs bot, {len(on_time)} games ended on time: {all(ok for ok, _ in on_time)} ({ends})")
    print(f"{slug}: the bot's orders judged invalid: {invalid}; {time.perf_counter() - started:.0f} s")
    return all(ok for ok, _ in on_time) and invalid == 0


def _smart(seen: Any, options: Any, rng: Any) -> list[str]:
    from dipserver.bot import choose_orders

    return choose_orders(options, rng, seen)


def _random(seen: Any, options: Any, rng: Any) -> list[str]:
    from dipserver.bot.player import random_orders

    return random_orders(options, rng)


if __name__ == "__main__":
    sys.exit(main())
