"""The "map changes coming" panel tells a player what the next changes do to their own units and centres,
and the order that changes the outcome is one click away: a Sahara fleet in the Adriatic, which dries into
land after Autumn 1903, becomes an army unless told to stay a fleet; a Deluge army in Venice, which sinks
after Winter 1901, becomes a fleet, and the centre goes; a Wall of Ice fleet in the Barents Sea, which
freezes after Autumn 1903, will be disbanded."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from dipserver.games.models import Order, Power
from tests.api.test_coming import set_up
from tests.browser.test_play_modules import TIMEOUT, open_game, signed_in_page, started

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_panel_names_my_units_fate_and_the_stay_fleet_button_gives_the_order(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started("Drying Adriatic", "sahara", "dune")
        set_up(game, "F1903M", "ITALY F ADR", "ITALY A ROM", "AUSTRIA A VIE", owners={"ITALY": ["ROM"]})
        user = Power.objects.get(game=game, name="ITALY").user
    page = signed_in_page(browser, base, user, lock)
    open_game(page, base, game)

    row = page.locator('#coming-mine li[data-unit="F ADR"]')
    expect(row).to_contain_text("ADR dries into land: your F ADR becomes an army", timeout=TIMEOUT)
    expect(row).to_contain_text("or order F ADR stays fleet (then it is disbanded)")
    expect(page.locator("#coming-mine")).not_to_contain_text("VIE")  # Austria's army is not mine
    shoot(page, "coming-mine-before")

    row.locator("button.give-order").click()
    expect(page.locator("#order-list li.valid")).to_contain_text("F ADR stays fleet", timeout=TIMEOUT)
    expect(page.locator("#notice")).to_have_text("Orders saved.")
    expect(row.locator(".ordered")).to_have_text("✔ ordered")
    expect(row.locator("button.give-order")).to_have_count(0)
    shoot(page, "coming-mine-ordered")
    with lock:
        assert list(
            Order.objects.filter(power__game=game, power__name="ITALY").values_list("text", flat=True)
        ) == ["F ADR stays fleet"]


def test_the_panel_says_my_army_in_a_sinking_province_becomes_a_fleet_and_my_centre_goes(
    browser, live_server, shoot
):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started("Sinking Venice", "deluge", "venice")
        set_up(
            game, "F1901M", "ITALY A VEN", "ITALY A ROM", "AUSTRIA A VIE", owners={"ITALY": ["VEN", "ROM"]}
        )
        user = Power.objects.get(game=game, name="ITALY").user
    page = signed_in_page(browser, base, user, lock)
    open_game(page, base, game)

    row = page.locator('#coming-mine li[data-unit="A VEN"]')
    expect(row).to_contain_text("VEN sinks into the sea: your A VEN becomes a fleet", timeout=TIMEOUT)
    expect(page.locator("#coming-mine")).to_contain_text("your centre VEN stops being a centre")
    expect(page.locator("#coming-mine")).not_to_contain_text("ROM")  # Rome stays dry land
    expect(page.locator("#coming-mine")).not_to_contain_text("VIE")  # Austria's army is not mine
    shoot(page, "coming-mine-sinking")


def test_the_panel_says_my_fleet_in_a_freezing_sea_will_be_disbanded(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started("Freezing Barents", "wall_of_ice", "barents")
        set_up(game, "F1903M", "RUSSIA F BAR", "RUSSIA A MOS", owners={"RUSSIA": ["MOS"]})
        user = Power.objects.get(game=game, name="RUSSIA").user
    page = signed_in_page(browser, base, user, lock)
    open_game(page, base, game)

    row = page.locator('#coming-mine li[data-unit="F BAR"]')
    expect(row).to_contain_text("BAR becomes impassable: your F BAR will be disbanded", timeout=TIMEOUT)
    expect(page.locator("#coming-mine")).not_to_contain_text("MOS")
    shoot(page, "coming-mine-freezing")
