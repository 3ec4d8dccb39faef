"""The generated Ice Lords board through the API: created with its powers and seed, listed and shown
among the variants with the options that matter for it."""

from __future__ import annotations

from dipserver.games.models import Game
from tests.api.conftest import client_for

ICE = {"name": "Grid", "variant": "ice_lords"}


def test_post_games_creates_ice_lords_for_a_number_of_powers(master):
    answer = client_for(master).post("/api/v1/games", {**ICE, "powers": 3}, format="json")
    assert answer.status_code == 201, answer.content[:300]
    game = Game.objects.get(id=answer.json()["id"])
    assert game.variant == "ice_lords" and game.board == {"powers": 3}
    assert game.options["blizzards"]["count"] == "1d6"  # Ice Lords' Blizzard Phase is on by default
    geometry = client_for().get(f"/api/v1/games/{game.id}/geometry").json()
    assert geometry["provinces"]


def test_post_games_deals_ice_lords_from_the_seed_given(master):
    first = client_for(master).post("/api/v1/games", {**ICE, "seed": "frost", "powers": 4}, format="json")
    again = client_for(master).post("/api/v1/games", {**ICE, "seed": "frost", "powers": 4}, format="json")
    other = client_for(master).post("/api/v1/games", {**ICE, "seed": "thaw", "powers": 4}, format="json")
    assert first.status_code == again.status_code == other.status_code == 201, first.content[:300]
    a, b, c = (Game.objects.get(id=r.json()["id"]) for r in (first, again, other))
    assert a.board == {"powers": 4, "seed": "frost"}
    assert a.secret != b.secret and a.variant_version == b.variant_version != c.variant_version


def test_post_games_refuses_ice_lords_powers_out_of_range_and_a_seed_elsewhere(master):
    # Out of the range the schema gives is malformed (400); a seed for a variant with its own map is
    # well formed, but no such board is dealt (422).
    cases = [
        ({**ICE, "powers": 7}, 400),
        ({**ICE, "powers": 1}, 400),
        ({**ICE, "variant": "sahara", "seed": "x"}, 422),
    ]
    for body, wanted in cases:
        answer = client_for(master).post("/api/v1/games", body, format="json")
        assert answer.status_code == wanted, (body, answer.content[:300])
    assert not Game.objects.exists()


def test_the_variant_list_includes_ice_lords_as_generated(db):
    listed = {v["slug"]: v for v in client_for().get("/api/v1/variants").json()}
    assert listed["ice_lords"]["name"] == "Ice Lords" and listed["ice_lords"]["generated"] is True
    assert len(listed["ice_lords"]["powers"]) == 6 and listed["standard"]["generated"] is False


def test_the_ice_lords_variant_shows_its_options_and_a_sample_board(db):
    answer = client_for().get("/api/v1/variants/ice_lords")
    assert answer.status_code == 200, answer.content[:300]
    shown = answer.json()
    options = {o["name"]: o["default"] for o in shown["options"]}
    assert options == {
        "powers": 6,
        "seed": None,
        "blizzards": True,
        "supply_lines": False,
        "abstraction": False,
        "davis_af_limit": False,
    }
    assert shown["geometry"]["provinces"] and shown["geometry_problem"] is None


def test_the_variant_api_offers_random_mode_only_where_the_timeline_has_chances(db):
    names = {
        slug: [o["name"] for o in client_for().get(f"/api/v1/variants/{slug}").json()["options"]]
        for slug in ("standard", "sahara", "deluge", "wall_of_ice")
    }
    assert names == {
        "standard": ["blizzards", "supply_lines", "abstraction", "davis_af_limit"],
        "sahara": ["errata", "blizzards", "supply_lines", "abstraction", "davis_af_limit"],
        # Deluge plays the Abstraction A/F rules (rule 7); standard_convoys is the way back.
        "deluge": [
            "swap_sil_swi",
            "standard_convoys",
            "drowning_armies",
            "blizzards",
            "supply_lines",
            "davis_af_limit",
        ],
        "wall_of_ice": [
            "mode",
            "house_limit_1915",
            "blizzards",
            "supply_lines",
            "abstraction",
            "davis_af_limit",
        ],  # issue 31
    }
