"""Issue 17, in Chromium: the game page's title counts the inbox's unread notifications, as every page
does (this game's unread press is counted in the press panel's heading), and press shown there is read
on the server, in the inbox too, so the title and the header's badge count down with it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from dipserver.games.services.press import message_send
from tests.browser.test_press_panel import TIMEOUT, open_as, started, user_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_game_title_counts_the_inbox_and_press_read_there_counts_down(browser, live_server):
    with live_server.lock:
        game = started("Title game", "title", "full")
        message_send(game_id=game.id, user=user_of(game, "FRANCE"), body="Hello all")
        message_send(game_id=game.id, user=user_of(game, "ITALY"), body="Hi all")
        message_send(game_id=game.id, user=user_of(game, "GERMANY"), body="Psst", recipients=["ENGLAND"])
    # England's inbox: the game started, two public messages, one private. The page shows the public
    # channel first, which reads its messages: two are left, one of them the private press.
    page = open_as(browser, live_server.url, game, user_of(game, "ENGLAND"), live_server.lock)

    expect(page).to_have_title(re.compile(r"^\(2\) "), timeout=TIMEOUT)
    expect(page.locator("#unread-count")).to_have_text("2")
    expect(page.locator("#press-title")).to_have_text("Press (1 new)")
