"""A variant made in the studio from an SVG map is played to its end by the reference bot: a game master
imports the small map (borders detected), writes powers, centres, units and a map change, checks and
publishes it; a game pins that version and two bots play it through the API, as they play the shipped
variants (tests/api/test_bot_games.py)."""

from __future__ import annotations

import pytest

from dipserver.bot import ApiClient, Bot, play
from dipserver.games.models import Game, Phase
from tests.api.bots import TestClientTransport
from tests.api.conftest import client_for
from tests.factories import GameMasterFactory
from tests.studio.conftest import small_map, small_variant_tables

DRAFTS = "/api/v1/studio/drafts"
SINKS = {"year": 1902, "hook": "after_spring_retreats", "change": "impassable", "provinces": ["ESS"]}


def published_small_map() -> int:
    api = client_for(GameMasterFactory(username="author"))
    draft = api.post(DRAFTS, {"slug": "small", "name": "Small"}, format="json").json()
    drawn = api.post(
        f"{DRAFTS}/{draft['id']}/svg", {"svg": small_map().decode(), "revision": 1}, format="json"
    )
    assert drawn.status_code == 202 and drawn.json()["status"] == "done"  # eager: read by now
    tables = {**drawn.json()["draft"]["tables"], **small_variant_tables(), "timeline": {"events": [SINKS]}}
    for code in ("ALP", "BRE", "COR", "DAL", "ESS", "FAR"):
        tables["map"]["provinces"][code]["sc"] = True
    tables["map"]["provinces"]["ALP"]["home"], tables["map"]["provinces"]["COR"]["home"] = "RED", "BLUE"
    saved = api.put(f"{DRAFTS}/{draft['id']}", {"tables": tables, "revision": 2}, format="json").json()
    report = api.get(f"{DRAFTS}/{draft['id']}/check").json()
    assert report["ok"], report["problems"]
    assert report["timeline"][0]["events"][0]["text"] == "ESS becomes impassable"
    version = api.post(f"{DRAFTS}/{draft['id']}/publish", {"revision": saved["revision"]}, format="json")
    return int(version.json()["id"])


@pytest.mark.django_db(transaction=True)
def test_bots_play_a_studio_variant_to_its_end(settings):
    settings.DIPSERVER_API_THROTTLES = {"login": "1000/min", "register": "1000/min", "writes": "10000/min"}
    version = published_small_map()
    bots = []
    for i in range(2):
        api = ApiClient(TestClientTransport())
        api.log_in(f"small-bot{i}", "bot password 123")
        bots.append(Bot(api, f"small-bot{i}", seed=1))
    made = bots[0].api.call(
        "POST", "/games", {"name": "Bots: small", "studio_version": version, "end_year": 1903}
    )
    for bot in bots:
        bot.join(made["id"])
    play(bots, poll_seconds=0, timeout=300)

    game = Game.objects.get(id=made["id"])
    assert game.status == Game.Status.FINISHED and game.studio_version_id == version
    phases = list(Phase.objects.filter(game=game).order_by("index"))
    assert all(p.status == Phase.Status.PROCESSED for p in phases)
    assert sum(len(texts) for p in phases for texts in p.orders.values()) > 0
    after_sinking = next(p for p in phases if p.name == "F1902M")
    assert after_sinking.snapshot["map"]["terrain"]["ESS"] == "impassable"
