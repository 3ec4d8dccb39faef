"""The payloads engine games give bots (``dipserver/games/engine_games.py``, which the bot's benchmark plays
on) are the API's own answers: the same graph, timeline rows, board and options a bot reads over HTTP."""

from __future__ import annotations

import pytest

from dipserver.engine import ModuleState, Phase
from dipserver.games.engine_games import Table, graph_of, options_for, seen_for, timeline_rows
from dipserver.games.mappers import map_state_of, position_of
from dipserver.games.variants import game_variant
from tests.api.conftest import client_for, start_game, user_of


@pytest.mark.parametrize("slug", ["wall_of_ice", "sahara", "deluge", "ice_lords"])
def test_engine_games_give_bots_what_the_api_gives_them(players, master, slug):
    dealt = {"powers": 3} if slug == "ice_lords" else {}  # a generated board, dealt for three
    game = start_game(players[:3] if dealt else players, master, variant=slug, **dealt)
    power = game.powers.exclude(name="").order_by("name").first().name
    client = client_for(user_of(game, power))
    phase = game.current_phase
    variant = game_variant(game)
    table = Table(variant, game.options, game.secret, 1920)
    map_state, position = map_state_of(phase.snapshot), position_of(phase.snapshot)
    seen = seen_for(table, map_state, position, power, graph_of(variant))

    assert client.get(f"/api/v1/games/{game.id}/graph").json() == seen["graph"]
    assert client.get(f"/api/v1/games/{game.id}/timeline").json()["entries"] == seen["timeline"]
    board = client.get(f"/api/v1/games/{game.id}/phases/{phase.index}").json()
    assert {k: board[k] for k in ("map", "units", "owners", "dislodged")} == {
        k: seen["board"][k] for k in ("map", "units", "owners", "dislodged")
    }
    assert seen["phase"] == phase.name and Phase.parse(phase.name) == variant.start.phase
    modules = phase.snapshot.get("modules")  # Ice Lords plays with blizzards, Deluge the Abstraction rules
    state = ModuleState.from_data(modules["state"]) if modules else None
    assert (state is not None) == (slug in ("ice_lords", "deluge"))
    options = options_for(table, map_state, position, power, state)
    assert client.get(f"/api/v1/games/{game.id}/options").json() == options


def test_timeline_rows_mark_what_has_happened(players, master):
    game = start_game(players, master, variant="wall_of_ice")
    rows = timeline_rows(game_variant(game), game.options, game.secret, "S1906M")
    assert {r["happened"] for r in rows if r["year"] < 1906} == {True}
    assert {r["happened"] for r in rows if r["year"] >= 1906} == {False}
