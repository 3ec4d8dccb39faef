"""The create-a-game form in a real browser: it shows only the chosen variant's options, each with its
default for that variant, and the options ticked reach the game."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from dipserver.games.models import Game
from tests.browser.test_play_modules import signed_in_page

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_create_form_shows_the_chosen_variants_options_and_creates_the_game_with_them(
    browser, live_server
):
    base, lock = live_server.url, live_server.lock
    with lock:
        user = get_user_model().objects.create_user(username="creator", password="x" * 12)
    page = signed_in_page(browser, base, user, lock)
    page.goto(f"{base}/games/new/")
    row = lambda name: page.locator(f'.variant-option[data-option="{name}"]')  # noqa: E731

    page.select_option("#id_variant", "standard")
    expect(row("blizzards")).to_be_visible()
    expect(row("abstraction")).to_be_visible()  # the A/F rules as a module any variant may play
    for name in ("errata", "mode", "swap_sil_swi", "standard_convoys", "powers"):
        expect(row(name)).to_be_hidden()

    page.select_option("#id_variant", "wall_of_ice")
    expect(row("mode")).to_be_visible()

    page.select_option("#id_variant", "ice_lords")
    expect(row("powers")).to_be_visible()
    expect(page.locator("#id_blizzards")).to_be_checked()  # Ice Lords' Blizzard Phase is on by default
    expect(page.locator("#id_powers")).to_have_value("6")
    expect(row("mode")).to_be_hidden()

    page.select_option("#id_variant", "deluge")
    expect(page.locator("#id_blizzards")).not_to_be_checked()
    # Deluge plays the Abstraction A/F rules (rule 7): no module to tick, a switch back to standard convoys.
    expect(row("abstraction")).to_be_hidden()
    expect(page.locator("#id_standard_convoys")).not_to_be_checked()
    page.check("#id_standard_convoys")
    page.check("#id_drowning_armies")
    page.check("#id_supply_lines")
    page.fill("#id_name", "Flood")
    page.click("text=Create the game")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    with lock:
        options = Game.objects.get(name="Flood").options
    assert options["drowning_armies"] is True and options["swap_sil_swi"] is False
    assert options["standard_convoys"] is True and "abstraction" not in options
    assert "supply_lines" in options and "blizzards" not in options and options["mode"] == "exact"
