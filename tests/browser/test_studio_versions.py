"""A published version's own tests run again from the studio page, in Chromium on a laptop and on a phone:
each test is listed under its version, passed or failed and what differed, without leaving the page; a
run the server throttles says when to try again, and one that fails on the way says so."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from playwright.sync_api import Page, expect

from dipserver.studio import services
from dipserver.studio.models import VariantVersion
from tests.browser.profiles import both_profiles, open_as
from tests.browser.test_lobby_actions import TIMEOUT
from tests.factories import GameMasterFactory
from tests.studio.test_scenarios import HOLDS, MOVES_AWAY, with_cases

pytestmark = pytest.mark.django_db(transaction=True)

FAILS_NOW = "RED's units are A BRE, not A ALP"


def studio_with_a_version(browser, live_server, prefix: str, profile: str = "desktop") -> tuple[Page, int]:
    """The studio page of a game master who published a version with two tests, one of which fails on
    this server now (as after an engine change: the frozen tests are set as they would run)."""
    with live_server.lock:
        gm = GameMasterFactory(username=f"{prefix}-gm")
        draft = with_cases(gm, HOLDS)
        version = services.version_publish(user=gm, draft_id=draft.id, revision=draft.revision)
        VariantVersion.objects.filter(id=version.id).update(tests={"scenarios": [HOLDS, MOVES_AWAY]})
    page = open_as(browser, live_server.url, "/studio/", gm, live_server.lock, profile)
    expect(page.locator("body[data-ready=true]")).to_have_count(1, timeout=TIMEOUT)
    return page, version.id


def results_of(page: Page, version_id: int):
    return page.locator(f'li[data-version="{version_id}"] .version-test-results')


@both_profiles
def test_a_versions_tests_are_shown_under_it_passed_or_failed_and_what_differed(
    browser, live_server, shoot, profile
):
    page, version_id = studio_with_a_version(browser, live_server, f"run-{profile}", profile)
    results = results_of(page, version_id)
    expect(results).to_be_hidden()

    page.get_by_role("link", name="run its 2 tests").click()

    expect(results).to_be_visible()
    expect(results.locator(".tests-summary")).to_have_text(
        "1 of 2 test(s) pass; 1 fail on this server's engine.", timeout=TIMEOUT
    )
    passed, failed = results.locator("li.passed"), results.locator("li.failed")
    expect(passed).to_have_count(1)
    expect(passed).to_have_text("Red holds — ✓ passes")
    expect(failed.first).to_contain_text("Red stays — ✗ fails")
    expect(failed.locator(".test-failures li")).to_have_text([FAILS_NOW])
    assert page.url.endswith("/studio/"), "the results are shown on the page, not the API's JSON"
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width, "nothing runs off the screen"
    if profile == "phone":
        box = page.get_by_role("link", name="run its 2 tests").bounding_box()
        assert box and box["height"] >= 44, "a finger can hit it"
    results.scroll_into_view_if_needed()
    shoot(page, f"version-tests-{profile}", full_page=False)


def test_a_throttled_run_says_when_to_try_again_and_keeps_the_last_results(
    browser, live_server, settings, shoot
):
    settings.DIPSERVER_API_THROTTLES = {**settings.DIPSERVER_API_THROTTLES, "scenario_runs": "1/min"}
    with live_server.lock:
        cache.clear()  # no run counted before this test's first
    page, version_id = studio_with_a_version(browser, live_server, "throttled")
    run = page.get_by_role("link", name="run its 2 tests")
    results = results_of(page, version_id)
    run.click()
    expect(results.locator(".tests-summary")).to_contain_text("1 of 2", timeout=TIMEOUT)

    run.click()

    refusal = results.locator("p.error")
    expect(refusal).to_contain_text("Not run: too many test runs for now", timeout=TIMEOUT)
    expect(refusal).to_contain_text(" Try again in ")
    expect(results).to_have_class("version-test-results refused")
    # The results of the run before stay, said to be earlier.
    expect(results.locator(".tests-summary")).to_have_text(
        "Earlier run: 1 of 2 test(s) pass; 1 fail on this server's engine."
    )
    expect(results.locator("li.failed .test-failures li")).to_have_text([FAILS_NOW])
    shoot(page, "version-tests-throttled", full_page=False)


def test_a_run_that_fails_on_the_way_says_so_and_may_be_tried_again(browser, live_server):
    page, version_id = studio_with_a_version(browser, live_server, "broken")
    results = results_of(page, version_id)
    run = page.get_by_role("link", name="run its 2 tests")
    tests_url = f"**/api/v1/studio/versions/{version_id}/tests"
    page.route(tests_url, lambda route: route.abort("connectionrefused"))
    run.click()
    expect(results.locator("p.error")).to_have_text(
        "The tests could not be run: the server could not be reached. Check the connection and try again.",
        timeout=TIMEOUT,
    )
    page.unroute(tests_url)
    answer = {"error": {"code": "server_error", "message": "The server failed to answer.", "fields": {}}}
    page.route(tests_url, lambda route: route.fulfill(status=500, json=answer))
    run.click()
    expect(results.locator("p.error")).to_have_text(
        "The tests could not be run: the server failed (The server failed to answer.). Try again later.",
        timeout=TIMEOUT,
    )
    page.unroute(tests_url)
    run.click()  # the server answers again: the results come
    expect(results.locator(".tests-summary")).to_have_text(
        "1 of 2 test(s) pass; 1 fail on this server's engine.", timeout=TIMEOUT
    )
    expect(results.locator("p.error")).to_have_count(0)
