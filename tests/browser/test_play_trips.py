"""Issue 33, "what players trip on", on a laptop and on a phone: the chooser never writes "null", a
dislodged unit's prompt says that clicking it disbands it, and a click on a province my own unit is
leaving simply moves there, with an Undo."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from dipserver.games.models import Order
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.phases import phase_process
from tests.api.test_coming import set_up
from tests.browser.profiles import TIMEOUT, both_profiles, open_game_as, order_line, tap_province, tap_unit
from tests.browser.test_lobby_actions import started, user_of
from tests.browser.test_order_entry import move_units
from tests.browser.test_play_modules import started as started_variant

pytestmark = pytest.mark.django_db(transaction=True)

JSON = {"Content-Type": "application/json"}


def stored(game, power: str, lock) -> list[str]:
    with lock:
        rows = Order.objects.filter(phase_id=game.current_phase_id, power__name=power)
        return sorted(rows.values_list("text", flat=True))


@both_profiles
def test_a_unit_without_an_order_shows_no_null_line(browser, live_server, profile):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started(f"No null {profile}", f"null{profile}")
        austria = user_of(game, "AUSTRIA")
    page = open_game_as(browser, base, game, austria, lock, profile)
    tap_unit(page, "VIE")
    options = page.locator("#unit-options")
    expect(options.locator("h3")).to_have_text("Orders for A VIE")
    assert "null" not in options.inner_text()


@both_profiles
def test_the_retreat_prompt_says_a_click_on_the_unit_disbands_it(browser, live_server, profile):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started(f"Retreat words {profile}", f"rw{profile}")
        move_units(game, {"BUD": "GAL", "MOS": "UKR"})
        russia = user_of(game, "RUSSIA")
        orders_submit(game_id=game.id, user=russia, text="A WAR - GAL\nA UKR S A WAR - GAL", phase="S1901M")
        phase_process(phase_id=game.current_phase_id, force=True)
        game.refresh_from_db()
        austria = user_of(game, "AUSTRIA")
    page = open_game_as(browser, base, game, austria, lock, profile)
    tap_unit(page, "GAL", dislodged=True)
    prompt = page.locator("#click-prompt")
    expect(prompt).to_contain_text("disband")
    expect(prompt).not_to_contain_text("hold")
    tap_unit(page, "GAL", dislodged=True)
    expect(order_line(page, "A GAL D")).to_contain_text("accepted")


@both_profiles
def test_a_click_where_my_own_unit_is_leaving_moves_there_with_an_undo(browser, live_server, profile):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started(f"Follow on {profile}", f"follow{profile}")
        austria = user_of(game, "AUSTRIA")
    page = open_game_as(browser, base, game, austria, lock, profile)
    tap_unit(page, "VIE")
    tap_province(page, "GAL")
    expect(order_line(page, "A VIE - GAL")).to_contain_text("accepted")

    tap_unit(page, "BUD")
    tap_unit(page, "VIE")  # Vienna's army is leaving for Galicia: Budapest follows it in, no question
    expect(page.locator("#unit-options .question")).to_have_count(0)
    expect(order_line(page, "A BUD - VIE")).to_contain_text("accepted")
    assert stored(game, "AUSTRIA", lock) == ["A BUD - VIE", "A VIE - GAL"]

    page.locator("#notice-action", has_text="Undo").click()
    expect(page.locator("#notice")).to_contain_text("Undone")
    expect(order_line(page, "A BUD - VIE")).to_have_count(0)
    expect(order_line(page, "A VIE - GAL")).to_contain_text("accepted")
    assert stored(game, "AUSTRIA", lock) == ["A VIE - GAL"]


@both_profiles
def test_map_changes_coming_name_my_fleet_on_a_sea_that_dries_at_the_end_of_this_season(
    browser, live_server, profile
):
    """Sahara's Eastern Mediterranean dries after Autumn 1902; Turkey's fleet there stays a fleet (the
    Aegean is still water beside it), so the engine has nothing to say of it: the panel still does."""
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started_variant(f"Drying under me {profile}", "sahara", f"dry{profile}")
        set_up(game, "F1902M", "TURKEY F EAS", "TURKEY A CON", owners={"TURKEY": ["CON"]})
        turkey = user_of(game, "TURKEY")
    page = open_game_as(browser, base, game, turkey, lock, profile)
    row = page.locator('#coming-mine li[data-unit="F EAS"]').first
    expect(row).to_contain_text("1902, after the Autumn retreats")
    expect(row).to_contain_text("EAS dries into land: your F EAS stands there")


@both_profiles
def test_an_outage_leaves_earlier_orders_saved_and_the_save_is_retried_when_the_server_is_back(
    browser, live_server, profile
):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started(f"Outage {profile}", f"outage{profile}")
        austria = user_of(game, "AUSTRIA")
    page = open_game_as(browser, base, game, austria, lock, profile)
    tap_unit(page, "VIE")
    tap_province(page, "GAL")
    expect(order_line(page, "A VIE - GAL")).to_contain_text("accepted")

    down = '{"error": {"code": "unavailable", "message": "The server is down for a moment."}}'
    page.route(
        "**/orders", lambda route: route.fulfill(status=503, body=down, content_type="application/json")
    )
    tap_unit(page, "BUD")
    tap_province(page, "SER")
    expect(page.locator("#notice")).to_contain_text("was not saved")
    expect(page.locator("#notice")).to_contain_text("tried again")
    expect(order_line(page, "A BUD - SER")).to_contain_text("not saved")
    expect(order_line(page, "A VIE - GAL")).to_contain_text("accepted")  # saved before the outage
    assert stored(game, "AUSTRIA", lock) == ["A VIE - GAL"]

    page.unroute("**/orders")  # the server is back: the page saves by itself
    expect(order_line(page, "A BUD - SER")).to_contain_text("accepted", timeout=TIMEOUT)
    expect(page.locator("#notice")).to_contain_text("saved now")
    assert stored(game, "AUSTRIA", lock) == ["A BUD - SER", "A VIE - GAL"]
