"""Issue 16, in Chromium: a paused game says so and its countdown stops; spectators watch games in play
(map, history, public press; no orders, no private press) found through the lobby's filters; draw vote,
concession (asked twice), vacation and leaving, from the page; press shows when each message was sent and
the page title counts the inbox's unread notifications (as every page does).

Games are made through the services; a player signs in with a session cookie, a spectator not at all."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import Page, expect

from dipserver.games.models import Game, Phase, Power
from dipserver.games.services.games import game_create, game_join, game_pause
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.press import message_send
from tests.browser.conftest import LAPTOP, PHONE

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 15_000  # ms: the page polls every 4 s


def started(name: str, prefix: str, **settings_) -> Game:
    users = get_user_model().objects
    game = game_create(name=name, variant="standard", **settings_)
    for i in range(7):
        game_join(game_id=game.id, user=users.create_user(username=f"{prefix}{i}", password="x" * 12))
    game.refresh_from_db()
    return game


def user_of(game: Game, power: str):
    return Power.objects.select_related("user").get(game=game, name=power).user


def signed_in_page(browser, base: str, user, lock, viewport=LAPTOP, zone: str = "UTC") -> Page:
    """A new tab of a browser signed in as ``user`` (no one: a visitor), not yet at any address."""
    context = browser.new_context(viewport=viewport, timezone_id=zone, locale="en-GB")
    if user is not None:
        with lock:
            client = Client()
            client.force_login(user)
            session = client.cookies[settings.SESSION_COOKIE_NAME].value
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}])
    return context.new_page()


def open_page(browser, base: str, path: str, user, lock, viewport=LAPTOP, zone: str = "UTC") -> Page:
    page = signed_in_page(browser, base, user, lock, viewport, zone)
    page.goto(f"{base}{path}")
    return page


def open_game(browser, base, game, user, lock, viewport=LAPTOP, zone: str = "UTC") -> Page:
    page = open_page(browser, base, f"/games/{game.id}/", user, lock, viewport, zone)
    expect(page.locator("body[data-loaded=true]")).to_have_count(1, timeout=TIMEOUT)
    return page


def test_a_paused_game_says_so_and_its_countdown_stops(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started("Frozen clock", "clock")
        france = user_of(game, "FRANCE")
    page = open_game(browser, base, game, france, lock)
    expect(page.locator("#deadline")).to_contain_text("in ")
    expect(page.locator("#paused-banner")).to_be_hidden()
    with lock:
        game_pause(game_id=game.id)
    # The page polls the game: once it sees the pause, the banner shows and the clock stops.
    expect(page.locator("#paused-banner")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#deadline")).to_have_text("paused")
    expect(page.locator("#phase-title")).to_contain_text("(paused)")
    shoot(page, "game-paused")
    # Reloaded, it says so at once; in the lobby, "paused" and no countdown.
    page.reload()
    expect(page.locator("#paused-banner")).to_be_visible()
    expect(page.locator("body[data-loaded=true]")).to_have_count(1, timeout=TIMEOUT)
    expect(page.locator("#deadline")).to_have_text("paused")
    page.goto(f"{base}/games/")
    row = page.locator(f"#mine-title ~ ul li[data-game='{game.id}']")
    expect(row.locator(".paused-tag")).to_have_text("⏸ paused")
    expect(row.locator("time.countdown")).to_have_count(0)
    shoot(page, "lobby-paused")
    page.context.close()


def test_a_spectator_finds_a_game_by_filter_and_watches_without_orders_or_private_press(
    browser, live_server, shoot
):
    base, lock = live_server.url, live_server.lock
    with lock:
        watched = started("On show", "show", press="anonymous")
        hidden = started("Other variant", "other")
        hidden.variant = "sahara"  # only the lobby's filter reads this
        hidden.save(update_fields=["variant"])
        england = user_of(watched, "ENGLAND")
        message_send(game_id=watched.id, user=england, body="Peace to all", recipients=[])
        message_send(game_id=watched.id, user=england, body="Just us two", recipients=["FRANCE"])
        orders_submit(game_id=watched.id, user=england, text="F LON - NTH", phase="S1901M")
    page = open_page(browser, base, "/games/", None, lock)
    expect(page.locator("#watch-list li")).to_have_count(2)
    page.select_option("#watch-variant", "standard")
    page.click(".watch-filter button")
    expect(page.locator("#watch-list li")).to_have_count(1)
    expect(page.locator("#watch-list li")).to_contain_text("On show")
    expect(page.locator("#watch-variant")).to_have_value("standard")
    shoot(page, "lobby-watch-filtered")
    page.click("#watch-list li .watch-link")
    expect(page.locator("body[data-loaded=true]")).to_have_count(1, timeout=TIMEOUT)
    expect(page.locator("#map svg")).to_have_count(1)
    expect(page.locator("#spectator-note")).to_be_visible()
    expect(page.locator("#orders-panel")).to_have_count(0)
    expect(page.locator("#press-form")).to_have_count(0)
    expect(page.locator("#actions-panel")).to_have_count(0)
    log = page.locator("#watch-press-log")
    expect(log).to_contain_text("Peace to all", timeout=TIMEOUT)
    expect(log).not_to_contain_text("Just us two")
    expect(log).to_contain_text("Anonymous")  # an anonymous game never names the sender
    expect(log).not_to_contain_text("England")
    # Players stay hidden in an anonymous game.
    expect(page.locator("#powers-body")).not_to_contain_text("show0")
    expect(page.locator("#history")).to_have_count(1)
    expect(page.locator("body")).not_to_contain_text("LON - NTH")  # no order is shown before processing
    shoot(page, "spectator")
    page.context.close()


def test_draw_vote_concede_with_confirmation_and_vacation_from_the_page(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started("Deals", "deal", vacation_days=4)
        italy = user_of(game, "ITALY")
        deadline = game.current_phase.deadline
    page = open_game(browser, base, game, italy, lock)
    panel = page.locator("#actions-panel")
    expect(panel).to_have_attribute("data-loaded", "true", timeout=TIMEOUT)
    expect(page.locator("#vacation-left")).to_have_text("4 of 4 vacation days left.")
    page.check("#draw-vote")
    expect(page.locator("#actions-status")).to_contain_text("You vote for a draw")
    with lock:
        assert Power.objects.get(game=game, name="ITALY").draw_vote is True
    # Concede asks first; Cancel concedes nothing.
    page.select_option("#concede-to", "FRANCE")
    page.click("#concede")
    expect(page.locator("#concede-confirm")).to_be_visible()
    expect(page.locator("#concede-question")).to_contain_text("Concede the game to France?")
    shoot(page, "concede-asks")
    page.click("#concede-no")
    expect(page.locator("#concede-confirm")).to_be_hidden()
    with lock:
        assert Power.objects.get(game=game, name="ITALY").concede_to == ""
    page.click("#concede")
    page.click("#concede-yes")
    expect(page.locator("#actions-status")).to_have_text("You have conceded to France.")
    with lock:
        assert Power.objects.get(game=game, name="ITALY").concede_to == "FRANCE"
    page.fill("#vacation-days", "3")
    page.click("#vacation-take")
    expect(page.locator("#actions-status")).to_contain_text("You are away until")
    expect(page.locator("#vacation-left")).to_contain_text("1 of 4 vacation days left. You are away until")
    with lock:
        phase = Phase.objects.get(id=game.current_phase_id)
        assert phase.deadline == deadline + dt.timedelta(days=3)
    shoot(page, "actions-done")
    page.fill("#vacation-days", "2")
    page.click("#vacation-take")
    expect(page.locator("#actions-status")).to_contain_text("1 vacation day(s) left, not 2")
    page.context.close()


def test_leaving_a_game_that_has_not_started(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = game_create(name="Not yet", variant="standard")
        user = get_user_model().objects.create_user(username="leaver", password="x" * 12)
        game_join(game_id=game.id, user=user)
    page = open_page(browser, base, f"/games/{game.id}/", user, lock, viewport=PHONE)
    shoot(page, "forming-with-leave")
    page.click("#leave-game")
    expect(page).to_have_url(f"{base}/games/")
    expect(page.locator("body")).to_contain_text("You have left the game")
    with lock:
        assert not game.powers.exists()
    page.context.close()


def test_press_shows_when_it_was_sent_and_the_title_counts_the_inbox(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started("Chatter", "chat")
        france = user_of(game, "FRANCE")
        message_send(game_id=game.id, user=user_of(game, "ENGLAND"), body="Hi", recipients=["FRANCE"])
        message_send(game_id=game.id, user=user_of(game, "GERMANY"), body="Hey", recipients=["FRANCE"])
        sent = game.messages.order_by("id").first().sent_at
    page = open_game(browser, base, game, france, lock, zone="America/New_York")
    expect(page).to_have_title("(3) Chatter · dipserver")  # the inbox: the start and two messages
    page.select_option("#press-channel", "ENGLAND")
    stamp = page.locator("#press-log li time.sent")
    expect(stamp).to_have_count(1)
    expect(page).to_have_title("(2) Chatter · dipserver")  # England's message, shown, is read
    expect(stamp).to_have_attribute("datetime", sent.isoformat().replace("+00:00", "Z"))
    shown = page.evaluate(
        """(iso) => new Intl.DateTimeFormat(undefined, {weekday: "short", day: "numeric", month: "short",
        hour: "2-digit", minute: "2-digit"}).format(new Date(iso))""",
        sent.isoformat(),
    )
    expect(stamp).to_have_text(shown)
    # In the reader's zone (New York), not the server's (UTC): en-GB writes a 24-hour "18:05".
    assert sent.astimezone(ZoneInfo("America/New_York")).strftime("%H:%M") in shown
    shoot(page, "press-times")
    page.context.close()
