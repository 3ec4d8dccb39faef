"""The sandbox page in a real browser, on a laptop and on a phone: open one from a variant's start and from
a game, order several powers by clicking (the game page's own components), adjudicate, step back and
branch, set up the position, see the map changes coming, share read-only, copy and delete."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Page, expect

from dipserver.games.models import Power
from dipserver.sandbox.models import Sandbox, Step
from dipserver.sandbox.services import sandbox_from_variant, step_orders_set
from tests.browser.conftest import LAPTOP, PHONE
from tests.factories import GameFactory, UserFactory
from tests.sandbox.positions import step_at

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 15_000
SCREENS = pytest.mark.parametrize("screen", [LAPTOP, PHONE], ids=["laptop", "phone"])


def _page(browser, base: str, user, screen) -> Page:
    context = browser.new_context(viewport=screen)
    if user is not None:
        client = Client()
        client.force_login(user)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}])
    return context.new_page()


def _loaded(page: Page) -> None:
    expect(page.locator("body[data-loaded=true]")).to_have_count(1, timeout=TIMEOUT)


def _unit(page: Page, location: str):
    return page.locator(f'#map #units .unit-group[data-location="{location}"]')


def _choose(page: Page, text: str) -> None:
    page.locator(f'#unit-options button[data-text="{text}"]').click()


@SCREENS
def test_a_sandbox_from_a_variants_start_is_ordered_for_two_powers_and_adjudicated(
    browser, live_server, screen
):
    with live_server.lock:
        user = UserFactory(username=f"sb{screen['width']}")
    page = _page(browser, live_server.url, user, screen)
    page.goto(f"{live_server.url}/sandboxes/")
    page.locator("#id_variant").select_option("standard")
    page.locator("#id_title").fill("Opening study")
    page.locator("#create-sandbox").click()
    _loaded(page)
    expect(page.locator("#phase-title")).to_contain_text("Step 0")
    _unit(page, "PAR").click()  # a French unit: France is ordered
    expect(page.locator("#power-select")).to_have_value("FRANCE")
    page.locator('#unit-options button[data-text="A PAR H"]').wait_for()
    _choose(page, "A PAR H")
    expect(page.locator("#order-list li .order-text")).to_have_text(["A PAR H"])
    _unit(page, "MUN").click()  # a German unit: the page follows to Germany
    expect(page.locator("#power-select")).to_have_value("GERMANY")
    expect(page.locator("#unit-picker .unit-chip")).to_have_text(["BER", "KIE", "MUN"])
    page.locator("#typed-orders").fill("A MUN - BUR")
    page.locator("#typed-form button[type=submit]").click()
    expect(page.locator("#order-list li .order-text")).to_have_text(["A MUN - BUR"])
    page.locator("#play").click()
    expect(page.locator("#phase-title")).to_contain_text("Step 1", timeout=TIMEOUT)
    expect(page.locator("#phase-title")).to_contain_text("1901")
    expect(_unit(page, "BUR")).to_have_count(1)
    page.locator("#step-back").click()  # back to the played step, with its results
    expect(page.locator("#phase-report")).to_contain_text("A MUN - BUR")
    page.locator("#branch").click()  # and branched, to try it again
    expect(page.locator("#phase-title")).to_contain_text("Step 2")
    expect(page.locator("#step-tree li")).to_have_count(3)
    _unit(page, "PAR").click()  # at once, while the branch's orders still load: France's options win
    expect(page.locator("#power-select")).to_have_value("FRANCE")
    expect(page.locator("#unit-picker .unit-chip")).to_have_text(["BRE", "MAR", "PAR"])
    expect(page.locator("#orders-power")).to_have_text("France")


@SCREENS
def test_setup_places_removes_and_gives_centres(browser, live_server, screen):
    with live_server.lock:
        user = UserFactory(username=f"setup{screen['width']}")
        sandbox = sandbox_from_variant(owner=user, slug="standard")
    page = _page(browser, live_server.url, user, screen)
    page.goto(f"{live_server.url}/sandboxes/{sandbox.id}/")
    _loaded(page)
    page.locator("#setup-toggle").check()
    page.locator("#power-select").select_option("TURKEY")
    page.locator("#setup-type").select_option("F")
    page.locator("#setup-location").fill("ION")
    page.locator("#setup-apply").click()
    expect(_unit(page, "ION")).to_have_count(1, timeout=TIMEOUT)
    page.locator("#setup-action").select_option("remove")
    page.locator("#setup-location").fill("PAR")
    page.locator("#setup-apply").click()
    expect(_unit(page, "PAR")).to_have_count(0, timeout=TIMEOUT)
    page.locator("#setup-action").select_option("owner")
    page.locator("#setup-location").fill("TUN")
    page.locator("#setup-apply").click()
    expect(page.locator("#notice")).to_contain_text("TUN now TURKEY's")
    with live_server.lock:
        step = Step.objects.get(sandbox=sandbox, number=0)
        assert step.snapshot["owners"]["TUN"] == "TURKEY"


@SCREENS
def test_map_changes_coming_are_shown_for_the_power_chosen(browser, live_server, screen):
    with live_server.lock:
        user = UserFactory(username=f"coming{screen['width']}")
        sandbox = sandbox_from_variant(owner=user, slug="sahara")
        step_at(sandbox.id, "F1903M", "ITALY F ADR", "AUSTRIA A VIE")
    page = _page(browser, live_server.url, user, screen)
    page.goto(f"{live_server.url}/sandboxes/{sandbox.id}/")
    _loaded(page)
    expect(page.locator("#changes-list li").first).to_be_visible()
    expect(page.locator("#changes-list")).not_to_contain_text("No more map changes")
    page.locator("#power-select").select_option("ITALY")
    expect(page.locator('#coming-mine li[data-unit="F ADR"]')).to_contain_text("becomes an army")
    page.locator("#coming-every summary").click()
    expect(page.locator('#coming-every-list [data-power="ITALY"]')).to_contain_text("F ADR")
    expect(page.locator('#coming-every-list [data-power="AUSTRIA"]')).to_have_count(0)


@SCREENS
def test_a_shared_sandbox_is_read_only_and_can_be_copied(browser, live_server, screen):
    with live_server.lock:
        owner = UserFactory(username=f"owner{screen['width']}")
        visitor = UserFactory(username=f"visitor{screen['width']}")
        sandbox = sandbox_from_variant(owner=owner, slug="standard", title="Shared drill")
        step_orders_set(sandbox=sandbox, number=0, power="FRANCE", texts=["A PAR - BUR"])
    page = _page(browser, live_server.url, owner, screen)
    page.goto(f"{live_server.url}/sandboxes/{sandbox.id}/")
    _loaded(page)
    page.locator("#share").click()
    expect(page.locator("#share-line")).to_be_visible()
    link = page.locator("#share-link").get_attribute("href")
    assert link and "/sandboxes/shared/" in link
    theirs = _page(browser, live_server.url, visitor, screen)
    theirs.goto(link)
    _loaded(theirs)
    expect(theirs.locator("#read-only")).to_be_visible()
    expect(theirs.locator("#play")).to_have_count(0)
    expect(theirs.locator("#orders-panel")).to_have_count(0)
    theirs.locator("#copy").click()
    theirs.wait_for_url(re.compile(r"/sandboxes/\d+/"))
    _loaded(theirs)
    with live_server.lock:
        assert Sandbox.objects.filter(owner=visitor).count() == 1
    other = _page(browser, live_server.url, visitor, screen)
    response = other.goto(f"{live_server.url}/sandboxes/{sandbox.id}/")
    assert response is not None and response.status == 404  # not shared by id: only by its link
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("#delete").click()
    page.wait_for_url(re.compile(r"/sandboxes/$"))
    with live_server.lock:
        assert not Sandbox.objects.filter(id=sandbox.id).exists()


@SCREENS
def test_a_player_opens_a_sandbox_of_their_live_game_with_their_own_orders_only(browser, live_server, screen):
    with live_server.lock:
        players = [UserFactory(username=f"g{screen['width']}p{i}") for i in range(7)]
        game = GameFactory(players=players, name="Live one")
        france = Power.objects.get(game=game, name="FRANCE").user
        from dipserver.games.services.orders import orders_submit

        orders_submit(game_id=game.id, user=france, text="A PAR - BUR")
        orders_submit(
            game_id=game.id, user=Power.objects.get(game=game, name="GERMANY").user, text="A MUN - BUR"
        )
    page = _page(browser, live_server.url, france, screen)
    page.goto(f"{live_server.url}/games/{game.id}/")
    expect(page.locator("body[data-loaded=true]")).to_have_count(1, timeout=TIMEOUT)
    page.locator("#open-sandbox").click()
    page.wait_for_url(re.compile(r"/sandboxes/\d+/"))
    _loaded(page)
    expect(page.locator("#power-select")).to_have_value("AUSTRIA")
    page.locator("#power-select").select_option("FRANCE")
    expect(page.locator("#order-list li .order-text")).to_have_text(["A PAR - BUR"])
    page.locator("#power-select").select_option("GERMANY")
    expect(page.locator("#order-list li")).to_have_text(["No orders yet."])


RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  const where = `${event.sourceFile}:${event.lineNumber}`;
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI} ${where}`);
});
"""


def test_the_sandbox_pages_break_no_rule_of_the_policy_and_style_their_map(browser, live_server):
    with live_server.lock:
        user = UserFactory(username="policy")
        sandbox = sandbox_from_variant(owner=user, slug="standard")
    page = _page(browser, live_server.url, user, LAPTOP)
    page.add_init_script(RECORD_VIOLATIONS)
    page.goto(f"{live_server.url}/sandboxes/{sandbox.id}/")
    _loaded(page)
    sea = page.locator('#map #provinces [id="NTH"]')
    page.wait_for_function(
        "n => !['rgb(0, 0, 0)', 'none', ''].includes(getComputedStyle(n).fill)", arg=sea.element_handle()
    )
    assert page.evaluate("window.__violations") == []
    page.goto(f"{live_server.url}/sandboxes/")
    expect(page.locator("#create-form")).to_be_visible()
    assert page.evaluate("window.__violations") == []


@SCREENS
def test_a_sandbox_from_the_start_takes_the_variants_options_and_a_chosen_secret(
    browser, live_server, screen
):
    with live_server.lock:
        user = UserFactory(username=f"opts{screen['width']}")
    page = _page(browser, live_server.url, user, screen)
    page.goto(f"{live_server.url}/sandboxes/")
    page.locator("#id_variant").select_option("wall_of_ice")
    page.locator("#id_mode").select_option("random")
    page.locator("#id_blizzards").check()
    page.locator("#id_secret").fill("pebbles")
    page.locator("#create-sandbox").click()
    _loaded(page)
    expect(page.locator("#modules-panel")).to_be_visible()
    with live_server.lock:
        sandbox = Sandbox.objects.get(owner=user)
        assert sandbox.secret == "pebbles" and sandbox.variant == "wall_of_ice"
        assert sandbox.options["mode"] == "random" and sandbox.options["blizzards"]


@SCREENS
def test_a_processed_phase_of_a_game_opens_with_every_powers_orders_as_played(browser, live_server, screen):
    import datetime as dt

    from django.utils import timezone

    from dipserver.games.services.orders import orders_submit
    from dipserver.games.services.phases import phase_process

    with live_server.lock:
        players = [UserFactory(username=f"h{screen['width']}p{i}") for i in range(7)]
        game = GameFactory(players=players, name="History")
        orders_submit(
            game_id=game.id, user=Power.objects.get(game=game, name="ITALY").user, text="A VEN - PIE"
        )
        phase_process(phase_id=game.current_phase_id, now=timezone.now() + dt.timedelta(days=30))
        student = UserFactory(username=f"student{screen['width']}")
    page = _page(browser, live_server.url, student, screen)
    page.goto(f"{live_server.url}/games/{game.id}/")
    expect(page.locator("body[data-loaded=true]")).to_have_count(1, timeout=TIMEOUT)
    page.locator("#hist-prev").click()  # back to Spring 1901, processed
    expect(page.locator("#history")).to_have_value("0")
    page.locator("#open-sandbox").click()
    page.wait_for_url(re.compile(r"/sandboxes/\d+/"))
    _loaded(page)
    expect(page.locator("#phase-title")).to_contain_text("Spring 1901")
    page.locator("#power-select").select_option("ITALY")
    expect(page.locator("#order-list li .order-text")).to_have_text(["A VEN - PIE"])


@SCREENS
def test_the_sandbox_pages_have_no_serious_axe_violations(browser, live_server, screen):
    from axe_playwright_python.sync_playwright import Axe

    def blocking(page: Page) -> list[str]:
        results = Axe().run(page, options={"resultTypes": ["violations"]})
        return [
            f"{violation['id']} ({violation['impact']}): {node['target']}"
            for violation in results.response["violations"]
            if violation["impact"] in ("serious", "critical")
            for node in violation["nodes"]
        ]

    with live_server.lock:
        user = UserFactory(username=f"axe{screen['width']}")
        sandbox = sandbox_from_variant(owner=user, slug="standard")
        step_orders_set(sandbox=sandbox, number=0, power="AUSTRIA", texts=["A VIE - GAL"])
    page = _page(browser, live_server.url, user, screen)
    page.goto(f"{live_server.url}/sandboxes/{sandbox.id}/")
    _loaded(page)
    page.locator("#setup-toggle").check()
    page.locator("#coming-every summary").click()
    assert blocking(page) == []
    page.goto(f"{live_server.url}/sandboxes/")
    assert blocking(page) == []


@SCREENS
def test_my_list_warns_of_an_idle_sandbox_before_it_is_deleted(browser, live_server, screen):
    import datetime as dt

    from django.utils import timezone

    from dipserver.sandbox.services import sandboxes_cleanup

    with live_server.lock:
        user = UserFactory(username=f"idle{screen['width']}")
        sandbox = sandbox_from_variant(owner=user, slug="standard", title="Old study")
        long_ago = timezone.now() - dt.timedelta(days=settings.DIPSERVER_SANDBOX_IDLE_DAYS + 1)
        Sandbox.objects.filter(id=sandbox.id).update(used_at=long_ago)
        sandboxes_cleanup()
    page = _page(browser, live_server.url, user, screen)
    page.goto(f"{live_server.url}/sandboxes/")
    expect(page.locator(f'#sandbox-list li[data-sandbox="{sandbox.id}"] .cleanup-notice')).to_contain_text(
        "will be deleted on"
    )
    page.locator("#sandbox-list a", has_text="Old study").click()  # opening it withdraws the notice
    _loaded(page)
    page.goto(f"{live_server.url}/sandboxes/")
    expect(page.locator(".cleanup-notice")).to_have_count(0)
