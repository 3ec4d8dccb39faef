"""The game page's scripts share the game's detail that game.js loads (gamefeed.js): the draw, concede
and vacation panel (actions.js) is filled even when its script runs only after the game's first answer
came, as a slow network or a busy machine may have it (the page's later polls find nothing new and
announce nothing again)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_lobby_actions import TIMEOUT, signed_in_page, started, user_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_actions_panel_is_filled_when_its_script_runs_after_the_first_answer(browser, live_server):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started("Late script", "late", vacation_days=4)
        italy = user_of(game, "ITALY")
    page = signed_in_page(browser, base, italy, lock)
    held = []

    def hold(route) -> None:  # the panel's script waits
        held.append(route)

    page.route(re.compile(r"/actions[^/]*\.js$"), hold)
    first_answer = re.compile(rf"/api/v1/games/{game.id}$")
    with page.expect_response(lambda answer: first_answer.search(answer.url) is not None, timeout=TIMEOUT):
        page.goto(f"{base}/games/{game.id}/", wait_until="commit")
    assert len(held) == 1
    held[0].continue_()
    expect(page.locator("#actions-panel")).to_have_attribute("data-loaded", "true", timeout=TIMEOUT)
    expect(page.locator("#vacation-left")).to_have_text("4 of 4 vacation days left.")
