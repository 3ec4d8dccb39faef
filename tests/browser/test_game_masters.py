"""Issue 16, game masters, in Chromium on the real admin pages: "Extend" shows the current deadline in the
master's time zone, reads a time typed without a zone in that zone (the account's setting, not the
browser's) and refuses a time already past; "Process now" first asks, naming the powers that have not
ordered; the dry run shows the map of the resulting position as a picture.

The master is a staff user in the game masters' group with the time zone Europe/Paris; the browser runs in
New York, so a time read in the browser's zone would come out five hours off."""

from __future__ import annotations

import base64
import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.urls import reverse
from playwright.sync_api import Page, expect

from dipserver.accounts.roles import GAME_MASTERS_GROUP
from dipserver.games.models import Game, Phase
from dipserver.games.services.orders import orders_submit
from tests.browser.test_lobby_actions import open_page, started, user_of

pytestmark = pytest.mark.django_db(transaction=True)

DEADLINE = dt.datetime(2030, 1, 1, 18, 0, tzinfo=dt.UTC)
BROWSER_ZONE = "America/New_York"


def mastered(name: str, prefix: str) -> tuple[Game, object]:
    """A started standard game due at DEADLINE, and its master (time zone Europe/Paris)."""
    game = started(name, prefix)
    master = get_user_model().objects.create_user(
        f"{prefix}-gm", password="x" * 12, is_staff=True, time_zone="Europe/Paris"
    )
    master.groups.add(Group.objects.get_or_create(name=GAME_MASTERS_GROUP)[0])
    game.masters.add(master)
    Phase.objects.filter(id=game.current_phase_id).update(deadline=DEADLINE)
    return game, master


def deadline_of(game: Game, lock) -> dt.datetime:
    with lock:
        return Phase.objects.get(id=Game.objects.get(id=game.id).current_phase_id).deadline


def extend_page(browser, base: str, game: Game, master, lock) -> Page:
    """The game's admin page, then its "Extend the deadline" link, as a master reaches it."""
    change = reverse("admin:games_game_change", args=[game.id])
    page = open_page(browser, base, change, master, lock, zone=BROWSER_ZONE)
    page.get_by_role("link", name="Extend the deadline").click()
    expect(page).to_have_url(f"{base}{reverse('admin:games_game_extend', args=[game.id])}")
    return page


def test_extend_shows_the_current_deadline_in_the_masters_zone(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game, master = mastered("Shown deadline", "shown")
    page = extend_page(browser, base, game, master, lock)

    current = page.locator(".current-deadline")
    expect(current).to_contain_text("S1901M: current deadline 2030-01-01 19:00 Europe/Paris")
    expect(current).to_contain_text("(2030-01-01 18:00 UTC)")
    expect(page.locator(".helptext").first).to_contain_text("read in your time zone, Europe/Paris")
    shoot(page, "extend")


def test_extend_reads_a_time_without_a_zone_in_the_masters_zone(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game, master = mastered("Paris time", "paris")
    page = extend_page(browser, base, game, master, lock)

    page.fill("#id_deadline", "2030-06-01 18:00")
    page.get_by_role("button", name="Save").click()

    expect(page.locator(".messagelist .success")).to_contain_text(
        "the deadline is now 2030-06-01 18:00 Europe/Paris (2030-06-01 16:00 UTC)"
    )
    assert deadline_of(game, lock) == dt.datetime(2030, 6, 1, 16, 0, tzinfo=dt.UTC)  # Paris: UTC+2 in June
    shoot(page, "extended")


def test_extend_refuses_a_deadline_in_the_past_and_keeps_the_old_one(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game, master = mastered("Too late", "late")
    page = extend_page(browser, base, game, master, lock)

    page.fill("#id_deadline", "2001-01-01 10:00")
    page.get_by_role("button", name="Save").click()

    expect(page.locator(".errorlist")).to_contain_text("has already passed")
    expect(page.locator("#id_deadline")).to_have_value("2001-01-01 10:00")  # what was typed stays
    expect(page.locator(".current-deadline")).to_contain_text("2030-01-01 19:00 Europe/Paris")
    assert deadline_of(game, lock) == DEADLINE
    shoot(page, "refused")


def run_action(page: Page, game: Game, action: str) -> None:
    """Tick the game in the admin's list of games and run ``action`` on it."""
    page.locator(f'input[name="_selected_action"][value="{game.id}"]').check()
    page.select_option('select[name="action"]', action)
    page.get_by_role("button", name="Go").click()


def test_process_now_asks_first_naming_the_powers_that_have_not_ordered(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game, master = mastered("Hurry up", "hurry")
        orders_submit(game_id=game.id, user=user_of(game, "ENGLAND"), text="F LON H", phase="S1901M")
        orders_submit(game_id=game.id, user=user_of(game, "TURKEY"), text="A CON H", phase="S1901M")
    page = open_page(browser, base, reverse("admin:games_game_changelist"), master, lock, zone=BROWSER_ZONE)

    run_action(page, game, "process_now")

    expect(page.locator("h1")).to_have_text("Process the current phase now?")
    expect(page.locator(".process-confirm .not-ordered")).to_have_text(
        "Not ordered: AUSTRIA, FRANCE, GERMANY, ITALY, RUSSIA"
    )
    shoot(page, "confirm")
    with lock:
        assert Game.objects.get(id=game.id).current_phase.name == "S1901M"  # asking changed nothing

    page.get_by_role("button", name="Yes, process now").click()
    expect(page.locator(".messagelist .success")).to_contain_text("Hurry up: queued for processing")
    with lock:
        assert Game.objects.get(id=game.id).current_phase.name == "F1901M"  # tasks run eagerly in tests


def test_the_dry_run_shows_the_resulting_map_as_a_picture(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game, master = mastered("Rehearsal", "rehearse")
        orders_submit(game_id=game.id, user=user_of(game, "ITALY"), text="A VEN - PIE", phase="S1901M")
    page = open_page(browser, base, reverse("admin:games_game_changelist"), master, lock, zone=BROWSER_ZONE)

    run_action(page, game, "dry_run")

    expect(page.locator("h1")).to_have_text("Dry run: nothing is saved")
    maps = page.locator(".dry-run-map img")
    expect(maps).to_have_count(2)
    expect(page.locator(".dry-run-map figcaption").last).to_have_text("F1901M: the map that would follow")
    # Drawn, not a broken image: the page's policy lets the data: SVG load, and it has the map's size.
    for picture in maps.all():
        picture.scroll_into_view_if_needed()
        size = picture.evaluate(
            "i => (i.complete ? [i.naturalWidth, i.getBoundingClientRect().width] : [0, 0])"
        )
        assert size[0] > 500 and size[1] > 300, size
    # The pictures fit the content column: the page does not scroll sideways.
    assert page.evaluate("document.scrollingElement.scrollWidth") <= page.viewport_size["width"]
    src = maps.last.get_attribute("src")
    assert src.startswith("data:image/svg+xml;base64,")
    after = base64.b64decode(src.split(",", 1)[1]).decode()
    assert 'data-location="PIE"' in after and 'data-location="VEN"' not in after  # Italy has moved
    with lock:
        assert Phase.objects.filter(game=game).count() == 1  # nothing was saved
    shoot(page, "dry-run")
