"""Issue 16 with Deluge's build rule (E13), in Chromium: a Winter's builds go to the free home centres
first, and only then up to ``builds_elsewhere`` elsewhere. The page offers builds as the options'
``builds_first`` and ``builds_elsewhere`` allow beside the orders already given, says the rule in a line,
and a click on a centre that cannot take a build yet explains why instead of sending a build the server
would refuse.

France, in Winter 1901, owns PAR, MAR, BRE, SPA, POR, BEL and HOL with one army (in Paris): six builds, BRE
and MAR first, then at most three elsewhere (Deluge's limit)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from dipserver.games.models import Game, Order
from tests.browser.test_order_entry import click_province
from tests.browser.test_play_modules import open_game, signed_in_page, started
from tests.server.conftest import seat, set_up

pytestmark = pytest.mark.django_db(transaction=True)

OWNED = {"FRANCE": ["PAR", "MAR", "BRE", "SPA", "POR", "BEL", "HOL"], "ENGLAND": ["LON"]}
FIRST = "Home centres first: build in BRE, MAR; then up to 3 builds may go elsewhere."


def winter(lock) -> Game:
    with lock:
        game = started("High water builds", "deluge", "builder")
        set_up(game, "W1901A", "FRANCE A PAR", "ENGLAND F LON", owners=OWNED)
        game.refresh_from_db()
        return game


def build_by_click(page: Page, province: str, text: str) -> None:
    click_province(page, province)
    page.locator(f'#unit-options .option.choice[data-text="{text}"]').click()
    expect(page.locator(f'#order-list li.valid[data-text="{text}"]')).to_contain_text("accepted")
    drawn = page.locator(f'#map #live-orders .live-order[data-text="{text}"] circle.build')
    expect(drawn).to_have_count(1)  # drawn on the map as given, as the history map will show it


def targets(page: Page) -> list[str]:
    return sorted(page.locator("#map #provinces path.target").evaluate_all("ps => ps.map((p) => p.id)"))


def stored(game: Game, lock) -> list[str]:
    with lock:
        rows = Order.objects.filter(phase_id=game.current_phase_id, power__name="FRANCE")
        return sorted(rows.values_list("text", flat=True))


def test_builds_go_to_the_free_home_centres_first_then_elsewhere(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    game = winter(lock)
    with lock:
        user = seat(game, "FRANCE").user
    page = signed_in_page(browser, base, user, lock)
    open_game(page, base, game)

    rule = page.locator("#build-rule")
    expect(rule).to_have_text(FIRST)
    assert targets(page) == ["BRE", "MAR"]  # the other centres are not lit for a build yet
    page.locator("#builds-chip").click()
    offered = page.locator("#unit-options .option").evaluate_all("bs => bs.map((b) => b.dataset.text)")
    sites = {text.split()[1][:3] for text in offered if text != "WAIVE"}
    assert sites == {"BRE", "MAR"} and "WAIVE" in offered, offered
    shoot(page, "home-first")

    click_province(page, "SPA")  # too early: said, and nothing is sent
    expect(page.locator("#notice")).to_have_text(f"No build in SPA now. {FIRST}")
    expect(page.locator("#order-list li.valid")).to_have_count(0)

    build_by_click(page, "BRE", "F BRE B")
    expect(rule).to_have_text("Home centres first: build in MAR; then up to 3 builds may go elsewhere.")
    build_by_click(page, "MAR", "A MAR B")
    expect(rule).to_have_text(
        "Your free home centres have their builds: up to 3 builds may go elsewhere (3 left)."
    )
    assert targets(page) == ["BEL", "BRE", "HOL", "MAR", "POR", "SPA"]
    build_by_click(page, "SPA", "A SPA B")
    build_by_click(page, "POR", "A POR B")
    build_by_click(page, "BEL", "A BEL B")
    most = "Your free home centres have their builds, and 3 went elsewhere, the most allowed this Winter."
    expect(rule).to_have_text(most)
    assert "HOL" not in targets(page)  # a fourth build elsewhere would be refused
    click_province(page, "HOL")
    expect(page.locator("#notice")).to_have_text(f"No build in HOL now. {most}")
    expect(page.locator("#order-list li.invalid")).to_have_count(0)
    assert stored(game, lock) == ["A BEL B", "A MAR B", "A POR B", "A SPA B", "F BRE B"]
    shoot(page, "all-built")


def test_without_the_rule_nothing_is_said_and_the_builds_are_as_offered(browser, live_server):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started("Dry land builds", "standard", "plain")
        set_up(game, "W1901A", "FRANCE A PAR", "ENGLAND F LON", owners=OWNED)
        user = seat(game, "FRANCE").user
    page = signed_in_page(browser, base, user, lock)
    open_game(page, base, game)

    expect(page.locator("#selection-hint")).to_contain_text("You have 6 build(s)")
    expect(page.locator("#build-rule")).to_be_hidden()
    assert targets(page) == ["BRE", "MAR"]  # the standard rules build in home centres only
    click_province(page, "SPA")
    expect(page.locator("#notice")).to_have_text("You cannot build in SPA. You may build in BRE, MAR.")
    build_by_click(page, "BRE", "F BRE B")
