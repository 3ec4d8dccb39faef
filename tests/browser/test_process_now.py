"""The game page's "Process now", in Chromium, as the game master: it asks first, naming the phase and
the powers that have not ordered or are not ready; "Cancel" processes nothing; and a "Yes" for a phase
that the last player's ready processed while the question was open processes nothing either: the page
says the game has moved on, and the new phase stays open with its deadline."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from dipserver.games.models import Game, Phase
from dipserver.games.services.orders import orders_submit, power_ready_set
from tests.browser.test_game_masters import mastered
from tests.browser.test_lobby_actions import TIMEOUT, open_game, user_of

pytestmark = pytest.mark.django_db(transaction=True)

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def phases_of(game: Game, lock) -> list[tuple[str, str]]:
    with lock:
        return list(Phase.objects.filter(game=game).order_by("index").values_list("name", "status"))


def hold_polls_until_the_process_request(page, game: Game) -> None:
    """The page's polls answer "not modified" until the master's "Yes" is sent, so that the page first
    learns of the new phase from the refresh after its own request, whatever the poll timer does."""
    held = {"on": True}

    def game_asked(route) -> None:
        if held["on"] and route.request.method == "GET":
            route.fulfill(status=304)
        else:
            route.continue_()

    def process_asked(route) -> None:
        held["on"] = False
        route.continue_()

    page.route(re.compile(rf"/api/v1/games/{game.id}$"), game_asked)
    page.route(re.compile(rf"/api/v1/games/{game.id}/process$"), process_asked)


def test_process_now_asks_first_naming_who_has_not_ordered_or_is_not_ready(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game, master = mastered("Asked first", "asked")
        orders_submit(game_id=game.id, user=user_of(game, "ENGLAND"), text="F LON H", phase="S1901M")
        power_ready_set(game_id=game.id, user=user_of(game, "ENGLAND"), ready=True, phase="S1901M")
        orders_submit(game_id=game.id, user=user_of(game, "FRANCE"), text="A PAR H", phase="S1901M")
    page = open_game(browser, base, game, master, lock)
    page.click("#process-now")
    dialog = page.locator("#process-confirm")
    expect(dialog).to_be_visible()
    expect(dialog.locator("h2")).to_have_text("Process Spring 1901 movement now?")
    not_ordered = page.locator("#process-not-ordered")
    expect(not_ordered).to_have_text("AUSTRIA, GERMANY, ITALY, RUSSIA, TURKEY")
    expect(page.locator("#process-not-ready")).to_have_text("AUSTRIA, FRANCE, GERMANY, ITALY, RUSSIA, TURKEY")
    shoot(page, "asked")

    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
    assert phases_of(game, lock) == [("S1901M", Phase.Status.OPEN)]

    page.click("#process-now")
    dialog.get_by_role("button", name="Yes, process now").click()
    expect(page.locator("#notice")).to_contain_text("Spring 1901 movement is being processed")
    expect(page.locator("#phase-title")).to_contain_text("1901", timeout=TIMEOUT)
    assert phases_of(game, lock) == [("S1901M", Phase.Status.PROCESSED), ("F1901M", Phase.Status.OPEN)]


def test_a_yes_for_a_phase_processed_meanwhile_processes_nothing_more(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game, master = mastered("Moved on", "moved")
    page = open_game(browser, base, game, master, lock)
    page.click("#process-now")
    expect(page.locator("#process-confirm h2")).to_have_text("Process Spring 1901 movement now?")
    hold_polls_until_the_process_request(page, game)

    with lock:  # meanwhile every player says ready: the spring is processed, the autumn opens
        for power in POWERS:
            power_ready_set(game_id=game.id, user=user_of(game, power), ready=True, phase="S1901M")
        autumn = Phase.objects.get(game=game, index=1)
    assert (autumn.name, autumn.status) == ("F1901M", Phase.Status.OPEN)

    page.locator("#process-confirm").get_by_role("button", name="Yes, process now").click()
    expect(page.locator("#notice")).to_contain_text("is in F1901M now, not S1901M: nothing was processed")
    expect(page.locator("#phase-title")).to_contain_text("Autumn 1901", timeout=TIMEOUT)
    shoot(page, "moved-on")
    assert phases_of(game, lock) == [("S1901M", Phase.Status.PROCESSED), ("F1901M", Phase.Status.OPEN)]
    with lock:
        assert Phase.objects.get(id=autumn.id).deadline == autumn.deadline
