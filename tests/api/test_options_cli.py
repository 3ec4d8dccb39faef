"""The command line's ``options`` answers what ``GET .../options`` answers each power for the same position:
a game's open phase, written as a request (``next``'s shape: its map, its options and the module state the
phase opened with), gets from ``python -m dipserver.adjudicator options`` every power's API answer."""

from __future__ import annotations

import json
from typing import Any

import pytest

from dipserver.adjudicator.answers import position_data
from dipserver.adjudicator.cli import answer_text
from dipserver.engine.hooks import map_data
from dipserver.engine.timeline import load_timeline
from dipserver.games.mappers import board_of, map_state_of, position_of
from dipserver.games.models import Game
from dipserver.games.services.phases import phase_process
from dipserver.games.variants import game_variant
from tests.api.conftest import client_for, start_game, user_of


def request_of(game: Game) -> dict[str, Any]:
    """The game's open phase as a command line request."""
    game.refresh_from_db()
    snapshot = game.current_phase.snapshot
    variant, position = game_variant(game), position_of(snapshot)
    data = position_data(variant, position, board_of(variant, snapshot))
    timeline = load_timeline(variant)
    if timeline.events or timeline.orders:  # a map that changes: the request carries the phase's
        data["map"] = map_data(map_state_of(snapshot), position)
    data["options"] = {**game.options, "seed": game.secret}
    if snapshot.get("modules"):
        data["module_state"] = snapshot["modules"]["state"]
    if "map" in data and position.last_occupants:  # Deluge's memory of who stood where
        data["last_occupants"] = dict(position.last_occupants)
    return data


def api_options(game: Game, power: str) -> dict[str, Any]:
    answer = client_for(user_of(game, power)).get(f"/api/v1/games/{game.id}/options")
    assert answer.status_code == 200, answer.content[:300]
    return answer.json()  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("standard", {}),
        ("wall_of_ice", {"blizzards": {"count": "2d4"}, "supply_lines": True}),
        ("deluge", {}),  # the Abstraction A/F rules by default: boarding among the options
    ],
)
def test_the_command_line_offers_every_power_what_the_api_offers_it(players, master, variant, options):
    game = start_game(players, master, variant=variant, options=options)
    for _ in range(2):  # the opening, then the phase after it (units moved, a Winter maybe)
        answer = answer_text(json.dumps(request_of(game)), "options")
        assert "error" not in answer, answer
        assert answer["phase"] == game.current_phase.name
        for power in answer["options"]:
            assert answer["options"][power] == api_options(game, power), (variant, power)
        phase_process(phase_id=game.current_phase_id, force=True)
        game.refresh_from_db()
