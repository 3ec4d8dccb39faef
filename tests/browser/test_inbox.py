"""Issue 17, in Chromium: the inbox's unread count shows in the header, the page title and the lobby's
row of the game, and clears everywhere once marked read on the server."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from dipserver.games.services.press import message_send
from tests.browser.test_lobby_actions import open_page, started, user_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_unread_count_shows_in_header_title_and_lobby_and_clears_when_read(browser, live_server):
    with live_server.lock:
        game = started("Inbox game", "inbox")  # each player's first notification: the game started
        message_send(game_id=game.id, user=user_of(game, "FRANCE"), body="Hello all")
    england = user_of(game, "ENGLAND")
    page = open_page(browser, live_server.url, "/games/", england, live_server.lock)

    expect(page.locator("#unread-count")).to_have_text("2")
    expect(page).to_have_title(re.compile(r"^\(2\) "))
    row = page.locator(f'li[data-game="{game.id}"]')
    expect(row.locator(".unread-notes")).to_contain_text("2 new")
    expect(row.locator(".unread-press")).to_contain_text("1 unread press")

    page.locator(".inbox-link").click()
    expect(page.locator(".notification.unread")).to_have_count(2)
    page.locator("#read-all").click()

    expect(page.locator(".notification.unread")).to_have_count(0)
    expect(page.locator("#unread-count")).to_have_count(0)
    expect(page).not_to_have_title(re.compile(r"^\(\d+\) "))
    page.goto(f"{live_server.url}/games/")
    expect(page.locator(f'li[data-game="{game.id}"] .unread-notes')).to_have_count(0)
