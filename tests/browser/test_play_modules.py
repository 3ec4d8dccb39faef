"""Rule modules and conversions on the game page, in a real browser: a Wall of Ice game with blizzards
(a snowed-in unit is offered hold only, the blizzards show on the map and in the side panel) and a Deluge
game where an army becomes a fleet from the unit's menu.

Games are created and filled through the games services; the player signs in with a session cookie."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import Page, expect

from dipserver.games.models import Game, Order, Power
from dipserver.games.services.games import game_create, game_join
from tests.browser.conftest import LAPTOP

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 15_000  # ms: the page polls every 4 s
BLIZZARDS = {"blizzards": {"count": "1d6"}}


def started(name: str, variant: str, prefix: str, options=None) -> Game:
    users = get_user_model().objects
    game = game_create(name=name, variant=variant, options=options)
    for i in range(7):
        game_join(game_id=game.id, user=users.create_user(username=f"{prefix}{i}", password="x" * 12))
    game.refresh_from_db()
    return game


def signed_in_page(browser, base: str, user, lock) -> Page:
    with lock:
        client = Client()
        client.force_login(user)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
    context = browser.new_context(viewport=LAPTOP)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}])
    return context.new_page()


def open_game(page: Page, base: str, game: Game) -> None:
    page.goto(f"{base}/games/{game.id}/")
    expect(page.locator("body[data-loaded=true]")).to_have_count(1, timeout=TIMEOUT)


def snowed_in_game(lock) -> tuple[Game, str, str]:
    """A blizzard game where some unit starts inside a blizzard: (game, its power, its location)."""
    with lock:
        for attempt in range(20):  # 1d6 blizzards over the board: most deals snow in a unit
            game = started(f"Snowbound {attempt}", "wall_of_ice", f"snow{attempt}-", BLIZZARDS)
            snowed = set(game.current_phase.snapshot["modules"]["state"]["blizzards"])
            units = game.current_phase.snapshot["units"]
            inside = [u for u in units if u["location"].split("/")[0] in snowed]
            if inside:
                return game, inside[0]["power"], inside[0]["location"]
    raise AssertionError("no deal in twenty snowed in a unit")


def test_a_snowed_in_unit_only_holds_and_the_blizzards_show(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    game, power, location = snowed_in_game(lock)
    with lock:
        user = Power.objects.get(game=game, name=power).user
        snowed = sorted(game.current_phase.snapshot["modules"]["state"]["blizzards"])
    page = signed_in_page(browser, base, user, lock)
    open_game(page, base, game)

    expect(page.locator("#map svg .blizzard").first).to_be_attached()
    expect(page.locator("#announced")).to_contain_text(", ".join(snowed))
    expect(page.locator("#blizzard-list")).to_contain_text("only hold")
    expect(page.locator("#modules-panel .legend")).to_contain_text("Blizzard")

    page.locator(f'#unit-picker .unit-chip[data-unit="{location}"]').click()
    options = page.locator("#unit-options .option")
    expect(options).to_have_count(1)
    expect(options.first).to_have_attribute("data-text", re.compile(rf"^[AF] {re.escape(location)} H$"))
    shoot(page, "snowed-in")
    options.first.click()
    expect(page.locator("#order-list li.valid")).to_contain_text("accepted")
    # The powers table: I have given orders, the others still have to.
    row = page.locator("#powers-body tr.me td").last
    expect(row).to_have_text("done", timeout=TIMEOUT)
    shoot(page, "snowed-in-ordered")


def test_a_deluge_army_becomes_a_fleet_from_its_menu(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started("Rising water", "deluge", "flood")
        user = Power.objects.get(game=game, name="FRANCE").user
    page = signed_in_page(browser, base, user, lock)
    open_game(page, base, game)
    expect(page.locator("#changes-list li.next")).to_contain_text("sinks into the sea")

    page.locator('#map .unit-group[data-location="MAR"]').click()
    page.locator('#unit-options .option[data-text="A MAR H"]').click()
    expect(page.locator("#order-list li.valid")).to_contain_text("A MAR H")

    page.locator('#map .unit-group[data-location="MAR"]').click()
    conversion = page.locator('#unit-options .option[data-text="A MAR becomes fleet"]')
    expect(conversion).to_be_visible()
    shoot(page, "menu-with-conversion")
    conversion.click()
    # The army holds while it becomes a fleet: the conversion takes the place of its order.
    expect(page.locator("#order-list li.valid")).to_have_count(1)
    expect(page.locator("#order-list li.valid")).to_contain_text("A MAR becomes fleet")
    expect(page.locator("#order-list li.valid")).to_contain_text("accepted")
    with lock:
        rows = Order.objects.filter(phase_id=game.current_phase_id, power__name="FRANCE")
        stored = list(rows.values_list("text", flat=True))
    assert stored == ["A MAR becomes fleet"]
    shoot(page, "conversion-ordered")


def test_an_ice_lords_game_page_plays_on_the_servers_grid(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = game_create(name="Frozen grid", variant="ice_lords", powers=3)
        users = get_user_model().objects
        for i in range(3):
            game_join(game_id=game.id, user=users.create_user(username=f"ice{i}", password="x" * 12))
        game.refresh_from_db()
        seat = Power.objects.filter(game=game).exclude(name="").select_related("user").first()
        units = [u["location"] for u in game.current_phase.snapshot["units"] if u["power"] == seat.name]
    page = signed_in_page(browser, base, seat.user, lock)
    open_game(page, base, game)
    expect(page.locator('#map svg[data-variant="ice_lords"]')).to_be_attached()
    expect(page.locator("#unit-picker .unit-chip[data-unit]")).to_have_count(len(units))
    page.locator(f'#map .unit-group[data-location="{units[0]}"]').click()
    expect(page.locator("#unit-options .option").first).to_be_visible()
    expect(page.locator("#announced")).to_contain_text("Blizzards announced")  # on by default in Ice Lords
    shoot(page, "ice-lords")
