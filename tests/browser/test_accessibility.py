"""Issue 16, "Measured": an axe-core pass (the axe-playwright-python package's copy of axe-core) over the
lobby, the game page (live and in its history view), the spectator's game page and the variant studio
(its page with a version's tests run again, and a draft's editor with its tests), in Chromium at a
desktop and a phone size, finds no serious or critical violation.

axe runs in the page after every panel is filled (``body[data-loaded=true]``), so it sees what a player
sees: the map's SVG, the order list, the powers table, press."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from dipserver.games.services.games import game_create
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.phases import phase_process
from dipserver.games.services.powers import power_civil_disorder_set
from dipserver.studio import services
from dipserver.studio.models import Draft
from tests.api.test_coming import set_up
from tests.api.test_timeline_conditions import conditional_standard  # noqa: F401 (a fixture)
from tests.browser.conftest import LAPTOP, PHONE
from tests.browser.profiles import both_profiles
from tests.browser.test_lobby_actions import TIMEOUT, open_game, open_page, started, user_of
from tests.browser.test_play_bots import seat_of, with_a_bot
from tests.browser.test_studio_versions import results_of, studio_with_a_version
from tests.studio.test_scenarios import HOLDS, MOVES_AWAY

pytestmark = pytest.mark.django_db(transaction=True)

BLOCKING = ("serious", "critical")


def blocking_violations(page: Page) -> list[str]:
    """axe's serious and critical violations on the page as it is now, one line per element."""
    results = Axe().run(page, options={"resultTypes": ["violations"]})
    return [
        f"{violation['id']} ({violation['impact']}): {node['target']} {node['failureSummary']}"
        for violation in results.response["violations"]
        if violation["impact"] in BLOCKING
        for node in violation["nodes"]
    ]


def played_once(name: str, prefix: str):
    """A standard game with Spring 1901 processed, so the page has a history and a results report."""
    game = started(name, prefix)
    phase = game.current_phase.name
    austria = user_of(game, "AUSTRIA")
    orders_submit(game_id=game.id, user=austria, text="A VIE - GAL\nA BUD - SER", phase=phase)
    orders_submit(game_id=game.id, user=user_of(game, "RUSSIA"), text="A WAR - GAL", phase=phase)
    phase_process(phase_id=game.current_phase_id, force=True)
    game.refresh_from_db()
    return game


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_lobby_and_game_pages_have_no_serious_axe_violations(browser, live_server, shoot, viewport):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = played_once("Axe pass", f"axe{viewport['width']}")
        game_create(name="Still forming", variant="standard")
        player = user_of(game, "AUSTRIA")

    found = {}
    lobby = open_page(browser, base, "/games/", player, lock, viewport)
    expect(lobby.locator("h1")).to_have_text("Games")
    found["lobby"] = blocking_violations(lobby)

    page = open_game(browser, base, game, player, lock, viewport)
    expect(page.locator("#map svg")).to_be_attached()
    page.click("#province-list summary")  # the province list open too: axe skips what is hidden
    expect(page.locator("#province-body tr").first).to_be_visible()
    found["game page"] = blocking_violations(page)

    page.click("#hist-prev")
    expect(page.locator("#phase-report")).to_contain_text("Orders and results, Spring 1901 movement")
    expect(page.locator("#map.history-view svg")).to_be_attached()
    found["history view"] = blocking_violations(page)
    shoot(page, "history")

    watcher = open_game(browser, base, game, None, lock, viewport)
    found["spectator's game page"] = blocking_violations(watcher)

    assert not any(found.values()), "\n".join(f"{where}: {line}" for where, v in found.items() for line in v)


@pytest.mark.usefixtures("conditional_standard")
@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_masters_game_page_with_bots_and_conditional_changes_has_no_serious_axe_violations(
    browser, live_server, viewport
):
    """Issue 36's bot markers and "Hand to a bot" (its confirmation open too), and the map changes that
    wait on a condition, one of them holding."""
    base, lock = live_server.url, live_server.lock
    with lock:
        game, master = with_a_bot("Axe bots", f"axebots{viewport['width']}")
        power_civil_disorder_set(power_id=seat_of(game, "FRANCE").id)
        set_up(game, "F1903M", "GERMANY A WAR", owners={"GERMANY": ["WAR", "BER"]})

    found = {}
    page = open_game(browser, base, game, master, lock, viewport)
    expect(page.locator("#conditions-list .holds-now")).to_have_count(1)
    expect(page.locator("#powers-body .bot-tag")).to_have_count(1)
    found["master's game page"] = blocking_violations(page)
    page.get_by_role("button", name="Hand to a bot").click()
    expect(page.locator("#bot-confirm")).to_be_visible()
    found["hand to a bot"] = blocking_violations(page)

    assert not any(found.values()), "\n".join(f"{where}: {line}" for where, v in found.items() for line in v)


@both_profiles
def test_the_studio_pages_have_no_serious_axe_violations(browser, live_server, shoot, profile):
    """The studio page (drafts, published versions, a version's tests run again with one failing, their
    names open, then a run refused beside them) and a draft's editor with its tests listed after the
    check, one failing, and a province open."""
    prefix = f"axestudio-{profile}"
    page, version_id = studio_with_a_version(browser, live_server, prefix, profile)
    found = {"studio page": blocking_violations(page)}
    page.get_by_role("link", name="run its 2 tests").click()
    expect(results_of(page, version_id).locator("li.failed")).to_have_count(1, timeout=TIMEOUT)
    page.locator(".version-test-names summary").first.click()
    found["a version's test results"] = blocking_violations(page)
    shoot(page, f"axe-studio-{profile}")
    tests_url = f"**/api/v1/studio/versions/{version_id}/tests"
    page.route(tests_url, lambda route: route.abort("connectionrefused"))
    page.get_by_role("link", name="run its 2 tests").click()  # refused: the earlier results stay, dimmed
    expect(results_of(page, version_id)).to_have_class("version-test-results refused", timeout=TIMEOUT)
    found["a refused run beside the earlier results"] = blocking_violations(page)
    page.unroute(tests_url)

    with live_server.lock:
        draft = Draft.objects.get(owner__username=f"{prefix}-gm")
        data = {**draft.data, "tests": {"scenarios": [HOLDS, MOVES_AWAY]}}
        services.draft_save(user=draft.owner, draft_id=draft.id, data=data, revision=draft.revision)
    page.goto(f"{live_server.url}/studio/drafts/{draft.id}/")
    expect(page.locator("#tests-list > li.failed")).to_have_count(1, timeout=TIMEOUT)
    page.locator("path[data-province=ALP]").click()
    expect(page.locator("#province-panel")).to_be_visible()
    found["draft editor"] = blocking_violations(page)
    shoot(page, f"axe-studio-editor-{profile}")

    assert not any(found.values()), "\n".join(f"{where}: {line}" for where, v in found.items() for line in v)
