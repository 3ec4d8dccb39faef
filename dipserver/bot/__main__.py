"""``python -m dipserver.bot``: log in (registering if needed), join or create a game, play it to the end.

Examples::

    python -m dipserver.bot --url http://127.0.0.1:8000 --bots 7 --variant standard --seed 1
    python -m dipserver.bot --username alice --password alice-password --game 12
"""

from __future__ import annotations

import argparse
import logging
import sys

from dipserver.bot.client import ApiClient, ApiError, HttpTransport
from dipserver.bot.player import Bot, play


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dipserver.bot", description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the server (default: %(default)s)")
    parser.add_argument("--username", default="bot", help="login; with --bots N, the prefix of N logins")
    parser.add_argument("--password", default="bot-password-not-secret", help="password of the login(s)")
    parser.add_argument("--bots", type=int, default=1, help="how many bots to run, one power each")
    parser.add_argument("--game", type=int, help="join this game (default: an open game, or a new one)")
    parser.add_argument(
        "--variant", default="standard", help="variant to join or create (default: %(default)s)"
    )
    parser.add_argument("--end-year", type=int, help="for a new game: the last year played")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default: %(default)s)")
    parser.add_argument(
        "--poll", type=float, default=1.0, help="seconds between polls (default: %(default)s)"
    )
    parser.add_argument("--random", action="store_true", help="random legal orders instead of the strategy's")
    parser.add_argument("--quiet", action="store_true", help="print only the result")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING if args.quiet else logging.INFO, format="%(message)s")

    try:
        bots = []
        for i in range(args.bots):
            name = args.username if args.bots == 1 else f"{args.username}{i + 1}"
            api = ApiClient(HttpTransport(args.url))
            api.log_in(name, args.password)
            bot = Bot(api, name, seed=args.seed, smart=not args.random)
            if args.game is not None:
                bot.join(args.game)
            else:
                settings = {"end_year": args.end_year} if args.end_year else {}
                bot.join_or_create(args.variant, **settings)
            bots.append(bot)
        play(bots, poll_seconds=args.poll)
    except (ApiError, OSError) as exc:
        print(f"dipserver.bot: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    final = bots[0].api.call("GET", f"/games/{bots[0].game_id}")
    winners = ", ".join(final["winners"]) or "none"
    print(f"game {final['id']} over: {final['result'] or 'ended'}; winners: {winners}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
