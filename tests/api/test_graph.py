"""GET /games/{id}/graph: the map's borders and coasts, which bots plan their routes on."""

from __future__ import annotations

from tests.api.conftest import client_for, start_game


def test_a_standard_game_serves_its_maps_borders_and_coasts(game):
    answer = client_for().get(f"/api/v1/games/{game.id}/graph")
    assert answer.status_code == 200 and "max-age" in answer["Cache-Control"]
    graph = answer.json()
    assert graph["borders"]["LON"] == ["ENG", "NTH", "WAL", "YOR"]
    assert graph["coasts"]["STP"] == {"NC": ["BAR"], "SC": ["BOT"]}
    assert all(p in graph["borders"][q] for p, ns in graph["borders"].items() for q in ns)


def test_each_ice_lords_game_has_its_own_graph(players, master):
    one = start_game(players[:3], master, variant="ice_lords", powers=3)
    other = start_game(players[3:6], master, variant="ice_lords", powers=3, name="Another")
    first = client_for().get(f"/api/v1/games/{one.id}/graph").json()
    assert len(first["borders"]) == 81 and first["borders"]["E5"] == ["D5", "E4", "E6", "F5"]
    assert client_for().get(f"/api/v1/games/{other.id}/graph").json() == first  # the grid is the same


def test_a_missing_game_has_no_graph(db):
    answer = client_for().get("/api/v1/games/999999/graph")
    assert answer.status_code == 404 and answer.json()["error"]["code"]
