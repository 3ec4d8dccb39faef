"""One bot plays one power: each phase it asks for its legal options and what its player sees (the board,
the map's graph, the timeline), chooses (``strategy.py``; seeded by game, power and phase, so a run can be
replayed), submits the orders and says it is ready. ``smart=False``: seeded random legal orders."""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from dipserver.bot import strategy
from dipserver.bot.client import ApiClient, ApiError
from dipserver.bot.view import Seen

log = logging.getLogger("dipserver.bot")


def choose_orders(options: dict[str, Any], rng: random.Random, seen: Seen | None = None) -> list[str]:
    """The orders to give: with ``seen`` (the board, the map's graph and the timeline, ``view.py``) the
    strategy's (``strategy.py``); without, seeded random legal ones (the opponents of the benchmark)."""
    if seen is not None:
        return strategy.choose(seen, options, rng)
    return random_orders(options, rng)


def random_orders(options: Mapping[str, Any], rng: random.Random) -> list[str]:
    """Legal orders for every unit (movement, retreats, disbands due) or the builds due, chosen at random."""
    adjustment = options.get("adjustment", 0)
    if adjustment < 0:
        units = sorted(options["units"])
        return [options["units"][loc][0]["text"] for loc in rng.sample(units, min(-adjustment, len(units)))]
    if adjustment > 0:
        builds = list(options["builds"])
        rng.shuffle(builds)
        # Deluge (E13): each free home centre takes a build before any goes elsewhere, and at most
        # ``builds_elsewhere`` go elsewhere; without the rule ``builds_first`` is empty and nothing moves.
        first = set(options.get("builds_first") or ())
        room = options.get("builds_elsewhere")
        builds.sort(key=lambda build: _province(build) not in first)  # stable: still shuffled within
        chosen: list[str] = []
        used: set[str] = set()
        for build in builds:
            if len(chosen) == adjustment:
                break
            province = _province(build)
            if build["kind"] == "build" and province in used:
                continue  # one build per province
            if build["kind"] == "build" and province not in first and room is not None:
                if room <= 0:
                    continue
                room -= 1
            used.add(province)
            chosen.append(build["text"])
        return chosen
    return [rng.choice(opts)["text"] for _, opts in sorted(options["units"].items()) if opts]


def _province(option: Mapping[str, Any]) -> str:
    return str(option.get("location") or "").split("/")[0]


class Bot:
    def __init__(self, api: ApiClient, username: str, seed: int = 0, smart: bool = True) -> None:
        self.api = api
        self.username = username
        self.seed = seed
        self.smart = smart
        self._graph: dict[str, Any] | None = None  # the map's graph: fixed for the game, read once
        self.game_id: int | None = None
        self.done_phases: set[str] = set()
        self.finished = False

    def join(self, game_id: int, password: str = "") -> None:
        self.api.call("POST", f"/games/{game_id}/join", {"password": password})
        self.game_id = game_id

    def join_or_create(self, variant: str, **settings: Any) -> int:
        """Join the oldest open game of ``variant`` without a password, or create one."""
        listed = self.api.call("GET", f"/games?open=true&variant={variant}&page_size=200")["results"]
        for game in sorted(listed, key=lambda g: g["id"]):
            if not game["has_password"]:
                try:
                    self.join(game["id"])
                    return int(game["id"])
                except ApiError as exc:
                    log.info("%s could not join game %s: %s", self.username, game["id"], exc)
        made = self.api.call("POST", "/games", {"name": f"Bots: {variant}", "variant": variant, **settings})
        self.join(made["id"])
        return int(made["id"])

    def step(self) -> bool:
        """Look at the game once and order if there is something to do; True when it acted."""
        assert self.game_id is not None, "join a game first"
        game = self.api.poll(f"/games/{self.game_id}")
        if game["status"] == "finished":
            self.finished = True
            return False
        phase, me = game["current_phase"], game["me"]["power"]
        if game["status"] != "active" or phase is None or phase["status"] != "open" or not me:
            return False
        if phase["name"] in self.done_phases or me not in game["waiting"]:
            return False
        try:
            options = self.api.call("GET", f"/games/{self.game_id}/options")
            rng = random.Random(f"{self.seed}/{self.game_id}/{me}/{phase['name']}")
            orders = self.choose(me, phase, options, rng)
            # If-Match with the version read before choosing: orders the player gave meanwhile in another
            # window are not overwritten (412), and the bot looks again.
            seen = self.api.exchange("GET", f"/games/{self.game_id}/orders").headers.get("etag", "")
            body = {"phase": phase["name"], "orders": orders}
            self.api.call("PUT", f"/games/{self.game_id}/orders", body, if_match=seen)
            self.api.call("PUT", f"/games/{self.game_id}/ready", {"phase": phase["name"], "ready": True})
        except ApiError as exc:
            # 409: the phase closed while we were thinking; 412: our orders changed meanwhile. Look again.
            if exc.reply.status in (409, 412):
                return False
            raise
        self.done_phases.add(phase["name"])
        log.info("%s (%s) %s: %s", self.username, me, phase["name"], "; ".join(orders) or "nothing to order")
        return True

    def choose(
        self, power: str, phase: dict[str, Any], options: dict[str, Any], rng: random.Random
    ) -> list[str]:
        """The strategy's orders; random legal ones if ``smart`` is off or the server has no board graph
        (404: a server older than the endpoint), which is then logged once."""
        if self.smart:
            try:
                return choose_orders(options, rng, self.seen(power, phase))
            except ApiError as exc:
                if exc.reply.status != 404:
                    raise
                log.warning("%s: %s; playing random legal orders from now on", self.username, exc)
                self.smart = False
        return choose_orders(options, rng)

    def seen(self, power: str, phase: dict[str, Any]) -> dict[str, Any]:
        """What the player sees of the open phase: its board, the map's graph, the timeline's rows."""
        if self._graph is None:
            self._graph = self.api.call("GET", f"/games/{self.game_id}/graph")
        board = self.api.poll(f"/games/{self.game_id}/phases/{phase['index']}")
        timeline = self.api.call("GET", f"/games/{self.game_id}/timeline")
        return {
            "power": power,
            "phase": phase["name"],
            "board": board,
            "graph": self._graph,
            "timeline": timeline["entries"],
        }


def play(
    bots: Sequence[Bot],
    *,
    poll_seconds: float = 0.5,
    timeout: float = 3600.0,
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """Step every bot in turn until all of them see the game over (or ``timeout`` seconds pass)."""
    deadline = time.monotonic() + timeout
    while not all(b.finished for b in bots):
        if time.monotonic() > deadline:
            raise TimeoutError(f"the game did not end within {timeout:.0f} s")
        acted = [b.step() for b in bots if not b.finished]
        if not any(acted):
            sleep(poll_seconds)
