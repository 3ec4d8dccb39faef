"""The pages work under the site's Content-Security-Policy, which allows no inline script and no inline
style: Chromium reports no violation on the lobby, a variant page, a game page with its map (a player
signed in), its history, a map SVG opened on its own, or the API documentation."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from dipserver.games.models import Power
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.phases import phase_process
from tests.browser.test_play_modules import TIMEOUT, open_game, signed_in_page, started

pytestmark = pytest.mark.django_db(transaction=True)

# Runs before any script of the page, outside its policy: records what the policy refused.
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  const where = `${event.sourceFile}:${event.lineNumber}`;
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI} ${where}`);
});
"""


# Redoc's footer asks cdn.redoc.ly for its logo: the policy is meant to refuse it (the docs use no network).
EXPECTED = ("img-src https://cdn.redoc.ly/",)


def _violations(page: Page) -> list[str]:
    return [v for v in page.evaluate("window.__violations") if not v.startswith(EXPECTED)]


def _styled(page: Page, where: str) -> bool:
    """Whether the map's stylesheet takes (within the tests' timeout: a busy machine applies it a moment
    after the map is in the page): a sea is drawn in its colour, not SVG's default black."""
    sea = page.locator(f'{where} #provinces [id="NTH"]')
    try:
        sea.wait_for(state="attached", timeout=TIMEOUT)
        page.wait_for_function(
            "n => !['rgb(0, 0, 0)', 'none', ''].includes(getComputedStyle(n).fill)",
            arg=sea.element_handle(),
            timeout=TIMEOUT,
        )
    except PlaywrightTimeout:
        return False
    return True


def test_a_games_history_and_a_map_opened_on_its_own_break_no_rule_of_the_policy(browser, live_server):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started("History under CSP", "standard", "csph")
        france = Power.objects.get(game=game, name="FRANCE").user
        orders_submit(game_id=game.id, user=france, text="A PAR - BUR", phase=game.current_phase.name)
        phase_process(phase_id=game.current_phase_id, force=True)
    page = signed_in_page(browser, base, france, lock)
    page.add_init_script(RECORD_VIOLATIONS)
    open_game(page, base, game)
    page.click("#hist-prev")
    expect(page.locator("#phase-report")).to_contain_text("Spring 1901 movement", timeout=TIMEOUT)
    # The history's own map, not the live one still shown while it comes (the report may come first).
    expect(page.locator('#map[data-phase="S1901M"]')).to_have_count(1, timeout=TIMEOUT)
    expect(page.locator("#map #orders").first).to_be_attached()
    assert _styled(page, "#map")
    assert _violations(page) == []
    # Opened on its own, after the page fetched it: the browser revalidates (a 304) and keeps the policy
    # of that answer, so a 304 allows the map's stylesheet as the 200 did.
    page.goto(f"{base}/api/v1/games/{game.id}/phases/0/map.svg")
    assert _styled(page, "svg")
    assert _violations(page) == []


def test_a_players_game_page_and_its_map_break_no_rule_of_the_policy(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started("Under CSP", "standard", "csp")
        user = Power.objects.get(game=game, name="FRANCE").user
    page = signed_in_page(browser, base, user, lock)
    page.add_init_script(RECORD_VIOLATIONS)
    open_game(page, base, game)
    expect(page.locator("#map svg")).to_be_attached(timeout=TIMEOUT)
    assert _styled(page, "#map")  # the map's own stylesheet is applied
    page.locator('#unit-picker .unit-chip[data-unit="PAR"]').click()
    expect(page.locator("#unit-options .option").first).to_be_visible()
    shoot(page, "game")
    assert _violations(page) == []


@pytest.mark.parametrize(
    ("path", "ready"),
    [
        ("/games/", "main"),
        ("/variants/standard/", "#season-map"),
        ("/api/docs/", ".swagger-ui .info"),
        ("/api/redoc/", "h1"),
    ],
    ids=["lobby", "variant", "swagger", "redoc"],
)
def test_the_other_pages_break_no_rule_of_the_policy(browser, live_server, path, ready):
    page = browser.new_page()
    page.add_init_script(RECORD_VIOLATIONS)
    page.goto(f"{live_server.url}{path}")
    expect(page.locator(ready).first).to_be_visible(timeout=TIMEOUT)
    page.wait_for_load_state("networkidle")
    assert _violations(page) == []
    page.close()
