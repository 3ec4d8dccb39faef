"""What the command line prints: the timeline in words and the map of a phase as JSON-ready data."""

from __future__ import annotations

import json

from dipserver.engine.chronicle import describe, map_at
from dipserver.engine.variant import Variant


def test_the_timeline_in_words_season_by_season(wall_of_ice: Variant) -> None:
    lines = describe(wall_of_ice, {"mode": "exact"})
    assert lines[:4] == [
        "1903 after the Autumn retreats:",
        "  BAR becomes impassable",
        "  NWG becomes impassable",
        "  NWY stops being a supply centre",
    ]
    assert "  NAF becomes a supply centre (owner nobody)" in lines


def test_the_map_of_a_phase_has_every_province_in_the_agreed_shape(deluge: Variant) -> None:
    data = map_at(deluge, "S1902M", {})
    assert data["phase"] == "S1902M"
    assert set(data["provinces"]) == set(deluge.provinces)
    assert data["provinces"]["TUS"] == {
        "terrain": "land",
        "coasts": ["EC", "WC"],
        "sc": False,
        "owner": None,
        "home": None,
    }
    assert data["provinces"]["LON"]["terrain"] == "sea"
    assert data["provinces"]["PAR"] == {
        "terrain": "land",
        "coasts": [],
        "sc": True,
        "owner": "FRANCE",
        "home": "FRANCE",
    }
    json.dumps(data)  # plain data all the way down


def test_the_map_before_a_change_does_not_show_it(deluge: Variant) -> None:
    assert map_at(deluge, "W1901A", {})["provinces"]["LON"]["terrain"] == "land"
    assert map_at(deluge, "W1902A", {})["provinces"]["WAL"]["sc"] is True  # counted in that Winter
    assert map_at(deluge, "F1902M", {})["provinces"]["WAL"]["sc"] is False
