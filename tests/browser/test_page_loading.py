"""What a cold load of the game page asks the server for: the bundled scripts (never the plain modules),
the map once (asked for by the page's preload, used by its script), and none of the answers the page
carries (the game, my options, my orders); and that the page works the same on plain modules."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from dipserver.games.models import Power
from tests.browser.test_play_modules import TIMEOUT, open_game, signed_in_page, started

pytestmark = pytest.mark.django_db(transaction=True)

BUNDLED = re.compile(r"/static/dist/[a-z]+-[A-Z0-9]{8}\.js")


def _load_recording(browser, live_server, prefix: str) -> tuple[list[str], str]:
    """A player's cold load of a new game's page: the paths it asked for until every panel was filled,
    and the game's API address."""
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started(f"Loading {prefix}", "sahara", prefix)
        user = Power.objects.get(game=game, name="TURKEY").user
    page = signed_in_page(browser, base, user, lock)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url.removeprefix(base)))
    open_game(page, base, game)
    done = list(asked)  # the polls that follow are not the load's
    expect(page.locator("#unit-picker .unit-chip[data-unit]").first).to_be_visible(timeout=TIMEOUT)
    page.context.close()
    return done, f"/api/v1/games/{game.id}"


def test_a_cold_load_asks_for_the_bundle_and_the_map_once_and_none_of_the_answers_it_carries(
    browser, live_server
):
    asked, api = _load_recording(browser, live_server, "bundled")
    scripts = [path for path in asked if path.endswith(".js")]
    assert scripts and all(BUNDLED.fullmatch(path) for path in scripts), scripts
    assert len(scripts) == len(set(scripts)), "each script once: the preloads are the addresses imported"
    assert asked.count(f"{api}/phases/0/map.svg") == 1, asked
    for carried in (api, f"{api}/options", f"{api}/orders"):
        assert carried not in asked, f"{carried} was asked for, yet the page carries it"


def test_on_plain_modules_the_page_loads_and_plays_the_same(browser, live_server, settings):
    settings.DIPSERVER_BUNDLED_SCRIPTS = False
    asked, api = _load_recording(browser, live_server, "plain")
    assert "/static/js/game.js" in asked and not any(path.startswith("/static/dist/") for path in asked)
    assert asked.count(f"{api}/phases/0/map.svg") == 1 and f"{api}/options" not in asked
