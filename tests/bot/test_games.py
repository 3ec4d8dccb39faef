"""Whole games on the engine with the payloads the API gives (``dipserver/games/engine_games.py``): the bot
against random bots and against itself. Short runs, fixed seeds."""

from __future__ import annotations

from typing import Any

import pytest

from dipserver.bot import choose_orders
from dipserver.bot.player import random_orders
from dipserver.engine import load_variant, variant_source
from dipserver.games.engine_games import Played, Table, play_game


def smart(seen: Any, options: Any, rng: Any) -> list[str]:
    return choose_orders(options, rng, seen)


def randomly(seen: Any, options: Any, rng: Any) -> list[str]:
    return random_orders(options, rng)


def game(slug: str, years: int, bots: dict[str, Any], seed: str = "t") -> Played:
    source = variant_source(slug)
    variant = source.variant_for(seed)
    table = Table(variant, dict(source.default_options), seed, variant.start.phase.year + years - 1)
    return play_game(table, bots, seed=seed)


def test_it_outgrows_random_bots_in_a_few_years():
    powers = sorted(load_variant("standard").powers)
    for seat in ("FRANCE", "RUSSIA"):
        played = game("standard", 5, {p: smart if p == seat else randomly for p in powers})
        counts = {p: played.centres(p) for p in powers}
        assert counts[seat] == max(counts.values()) and counts[seat] >= 8, counts


@pytest.mark.parametrize("slug", ["standard", "wall_of_ice", "deluge", "sahara", "ice_lords"])
def test_its_orders_are_all_legal_and_its_games_end_on_time(slug):
    powers = variant_source(slug).variant_for("t").powers
    played = game(slug, 4, dict.fromkeys(powers, smart))
    assert played.result is not None and played.invalid == {}


def test_a_game_replays_identically_from_its_seed():
    powers = sorted(load_variant("deluge").powers)
    bots = {p: smart if p == "ITALY" else randomly for p in powers}
    first, again = game("deluge", 3, bots), game("deluge", 3, bots)
    assert first.position == again.position and first.phases == again.phases
