"""A Sahara game played in a real browser: sign up, create, fill the seats, order by clicking, process,
watch the Eastern Mediterranean dry into land after Autumn 1902, step back through history, and talk.

The other six seats are played from the test itself through the games services; the phases after the
first are processed by calling the processing service directly (Celery runs eagerly in tests)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from dipserver.games.models import Game, Order, Phase, Power
from dipserver.games.services.games import game_create, game_join
from dipserver.games.services.orders import orders_submit, power_ready_set
from dipserver.games.services.phases import phase_process
from dipserver.games.services.press import message_send
from tests.browser.conftest import LAPTOP, PHONE
from tests.browser.profiles import tap_unit

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "sand and salt 42"
TIMEOUT = 15_000  # ms: the page polls every 4 s


def sign_up(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("text=Create my login")
    expect(page).to_have_url(f"{base}/games/")


def create_sahara(page: Page, base: str, name: str, lock) -> Game:
    page.goto(f"{base}/games/new/")
    page.fill("#id_name", name)
    page.select_option("#id_variant", "sahara")
    expect(page.locator('.variant-preview[data-variant="sahara"]')).to_be_visible()
    page.click("text=Create the game")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    with lock:
        game = Game.objects.get(name=name)
        Game.objects.filter(id=game.id).update(missed_limit=100)  # the test's six seats never order
    return game


def fill_seats(game: Game, count: int, lock) -> list:
    with lock:
        users = get_user_model().objects
        others = [users.create_user(username=f"rival{i}", password=PASSWORD) for i in range(count)]
        for user in others:
            game_join(game_id=game.id, user=user)
    return others


def wait_ready(page: Page) -> None:
    expect(page.locator("body[data-ready=true]")).to_have_count(1, timeout=TIMEOUT)


UNIT_LOCATIONS = "groups => groups.map(g => g.dataset.location)"
OPTION_TEXTS = "options => options.map(o => o.dataset.text)"


def click_on_province(page: Page, code: str) -> None:
    """Click where the map writes the province's name: inside the province, as a player would."""
    label = page.locator("#map #labels text").filter(has_text=re.compile(f"^{code}$"))
    box = label.bounding_box()
    assert box, f"{code} has no label on the map"
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def current(game: Game, lock) -> Phase:
    with lock:
        game.refresh_from_db()
        return game.current_phase


def test_play_a_sahara_game_in_the_browser(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()

    sign_up(page, base, "desertfox")
    shoot(page, "01-lobby-empty")
    game = create_sahara(page, base, "Sands of time", lock)
    shoot(page, "02-created")
    page.click("text=Join this game")
    expect(page.locator(".messages")).to_contain_text("You have taken a seat")
    others = fill_seats(game, 6, lock)
    with lock:
        me = Power.objects.get(game=game, user__username="desertfox")

    page.goto(f"{base}/games/{game.id}/")
    wait_ready(page)
    expect(page.locator("#phase-title")).to_have_text("Spring 1901 movement")
    expect(page.locator(".game-head .power-chip")).to_have_text(me.name.title())
    expect(page.locator("#changes-list li.next")).to_contain_text("EAS dries into land")
    expect(page.locator("#changes-list li.next .when")).to_have_text("in 4 seasons")
    shoot(page, "03-game-start")

    move = order_a_move_by_clicking(page)
    shoot(page, "04-ordered-by-click")
    refuse_a_typed_order(page)
    ready_moves_the_game_on(page, game, others, lock)
    with lock:
        assert Phase.objects.get(game=game, index=0).orders[me.name] == [move]
    process_now_moves_the_game_on(page)
    play_to_the_map_change(page, game, lock)
    shoot(page, "05-eas-is-land")
    step_through_history(page, game, move, lock, shoot)
    talk(page, game, others[0], lock)
    shoot(page, "07-press")
    context.close()


def order_a_move_by_clicking(page: Page) -> str:
    """Click one of my units, then the province it moves to; the order it gave."""
    unit = page.locator("#unit-picker .unit-chip[data-unit]").first.get_attribute("data-unit")
    page.locator(f'#map .unit-group[data-location="{unit}"]').click()
    # A move into a province no unit stands in: a click on a unit asks what is meant (the seat, and with it
    # the power and its units, is drawn from the game's random secret).
    occupied = {loc.split("/")[0] for loc in page.locator("#map .unit-group").evaluate_all(UNIT_LOCATIONS)}
    texts = page.locator("#unit-options .option", has_text=re.compile(r" - ")).evaluate_all(OPTION_TEXTS)
    move = next(text for text in texts if text.split(" - ")[1].split("/")[0] not in occupied)
    dest = move.split(" - ")[1].split("/")[0]
    expect(page.locator(f'#map #provinces [id="{dest}"]')).to_have_class(re.compile(r"\btarget\b"))
    click_on_province(page, dest)
    expect(page.locator("#order-list li.valid")).to_contain_text(move)
    expect(page.locator("#order-list li.valid")).to_contain_text("accepted")
    return move


def refuse_a_typed_order(page: Page) -> None:
    """A typed order that is wrong is explained, and the valid one stays stored."""
    page.fill("#typed-orders", "A XYZ - ABC")
    page.click("text=Add typed orders")
    expect(page.locator("#order-list li.invalid")).to_contain_text("✖")
    expect(page.locator("#notice")).to_have_text(
        "1 of 2 orders was rejected (see why below); the other one is saved."
    )
    page.locator("#order-list li.invalid .remove").click()
    expect(page.locator("#order-list li.invalid")).to_have_count(0)


def ready_moves_the_game_on(page: Page, game: Game, others: list, lock) -> None:
    """Everyone else is ready; my ready toggle processes the phase and the page moves on by itself."""
    with lock:
        for user in others:
            power_ready_set(game_id=game.id, user=user)
    # Only one unit has an order: Ready names the others first, and "Ready anyway" goes ahead.
    page.click("#ready-toggle")
    expect(page.locator("#ready-warning")).to_contain_text("no order")
    page.click("#ready-anyway")
    expect(page.locator("#phase-title")).not_to_have_text("Spring 1901 movement", timeout=TIMEOUT)


def process_now_moves_the_game_on(page: Page) -> None:
    """I am also the game master: "Process now" asks first, then moves the game on from the page."""
    title = page.locator("#phase-title").inner_text()
    page.click("#process-now")
    page.locator("#process-confirm").get_by_role("button", name="Yes, process now").click()
    expect(page.locator("#phase-title")).not_to_have_text(title, timeout=TIMEOUT)


def play_to_the_map_change(page: Page, game: Game, lock) -> None:
    """On to the map change after Autumn 1902 (the processing service, called directly): EAS is land."""
    while (phase := current(game, lock)).name[1:5] <= "1902" and not phase.name.startswith("W1902"):
        with lock:
            phase_process(phase_id=phase.id, force=True)
    eas = page.locator('#map #provinces [id="EAS"]')
    expect(eas).not_to_have_class(re.compile(r"\bsea\b"), timeout=TIMEOUT)
    expect(page.locator("#changes-list li.next")).to_contain_text("AEG dries into land")


def step_through_history(page: Page, game: Game, move: str, lock, shoot) -> None:
    """Back to the first phase (the sea, and my order in the report), and forward again."""
    eas = page.locator('#map #provinces [id="EAS"]')
    page.locator("#history").fill("0")
    expect(page.locator("#history-label")).to_have_text("Spring 1901 movement")
    expect(eas).to_have_class(re.compile(r"\bsea\b"))
    expect(page.locator("#phase-report")).to_contain_text(move)
    shoot(page, "06-history-spring-1901")
    with lock:
        autumn = Phase.objects.get(game=game, name="F1902M").index
    for _ in range(autumn):
        page.click("#hist-next")
    expect(page.locator("#history-label")).to_have_text("Autumn 1902 movement")
    expect(page.locator("#phase-report")).to_contain_text("EAS becomes land")
    page.click("#hist-live")
    expect(eas).not_to_have_class(re.compile(r"\bsea\b"))


def talk(page: Page, game: Game, rival, lock) -> None:
    """Press: I send to everyone; a rival answers and the page shows it without a reload."""
    page.fill("#press-body", "Who wants the new land?")
    page.click("#press-form button")
    expect(page.locator("#press-log li.mine")).to_contain_text("Who wants the new land?")
    with lock:
        message_send(game_id=game.id, user=rival, body="Not I: it is all desert soon.")
    expect(page.locator("#press-log")).to_contain_text("Not I: it is all desert soon.", timeout=TIMEOUT)


def test_phone_layout_and_keyboard_orders(browser, live_server, shoot):
    base = live_server.url
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    sign_up(page, base, "pocket")
    game = create_sahara(page, base, "On the bus", live_server.lock)
    page.click("text=Join this game")
    fill_seats(game, 6, live_server.lock)
    page.goto(f"{base}/games/{game.id}/")
    wait_ready(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways on a phone ({width}px wide)"
    map_box = page.locator("#map svg").bounding_box()
    assert map_box and map_box["width"] >= PHONE["width"] - 40, "the map uses the phone's width"
    shoot(page, "01-phone-game")

    # Tapping a unit on the map (a first tap zooms the map in to the finger) shows its orders right under
    # the map, not below every panel.
    unit = page.locator("#unit-picker .unit-chip[data-unit]").first.get_attribute("data-unit")
    tap_unit(page, unit)
    expect(page.locator("#options-slot #unit-options .option").first).to_be_visible()
    shoot(page, "02-phone-unit-tapped", full_page=False)

    # Keyboard only: Tab to a unit chip, Enter, then Enter on its first option (Hold).
    page.locator("#unit-picker .unit-chip").first.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#unit-options .option").first).to_be_focused()
    held = page.locator("#unit-options .option").first.get_attribute("data-text")
    page.keyboard.press("Enter")
    expect(page.locator("#order-list li.valid")).to_contain_text(held)
    shoot(page, "03-phone-ordered")

    page.goto(f"{base}/games/")
    expect(page.locator(".game-row", has_text="On the bus")).to_contain_text("ordered")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(page, "04-phone-lobby")
    context.close()


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_every_page_fits_the_screen(browser, live_server, shoot, viewport):
    """No page scrolls sideways, at 390x844 or 1440x900; the variant page steps through its seasons."""
    base = live_server.url
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    sign_up(page, base, "looker")
    game = create_sahara(page, base, "Looking around", live_server.lock)
    for name, path in [
        ("home", "/"),
        ("lobby", "/games/"),
        ("new-game", "/games/new/"),
        ("forming-game", f"/games/{game.id}/"),
        ("variant", "/variants/sahara/"),
    ]:
        page.goto(f"{base}{path}")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{path} is {width}px wide on a {viewport['width']}px screen"
        shoot(page, name)
    page.locator(".timeline button[data-step='1']").click()
    expect(page.locator("#season-label")).to_have_text("1902 after the Autumn retreats")
    expect(page.locator("#season-map")).to_have_attribute("src", re.compile(r"/seasons/1\.svg$"))
    context.close()


def test_builds_are_ordered_by_clicking_a_centre(browser, live_server, shoot):
    """Winter 1901: Turkey took Bulgaria, so it builds; clicking Constantinople offers the builds there."""
    base, lock = live_server.url, live_server.lock
    with lock:
        users = get_user_model().objects
        players = [users.create_user(username=f"p{i}", password=PASSWORD) for i in range(7)]
        game = game_create(name="Winter", variant="sahara", masters=[players[0]])
        for user in players:
            game_join(game_id=game.id, user=user)
        # Powers are drawn at random: give p0 Turkey's seat by swapping players.
        turkey, mine = Power.objects.get(game=game, name="TURKEY"), Power.objects.get(user=players[0])
        if turkey.id != mine.id:
            Power.objects.filter(id=mine.id).update(name="TURKEY-")
            Power.objects.filter(id=turkey.id).update(name=mine.name)
            Power.objects.filter(id=mine.id).update(name="TURKEY")
        orders_submit(game_id=game.id, user=players[0], text="A CON - BUL", phase="S1901M")
    while not (phase := current(game, lock)).name.startswith("W"):
        with lock:
            phase_process(phase_id=phase.id, force=True)
    assert phase.name == "W1901A"

    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "p0")
    page.fill("#id_password", PASSWORD)
    page.click("form.stacked button")
    page.goto(f"{base}/games/{game.id}/")
    wait_ready(page)
    expect(page.locator("#selection-hint")).to_contain_text("You have 1 build(s)")
    click_on_province(page, "CON")
    build = page.locator("#unit-options .option", has_text="CON").first
    text = build.get_attribute("data-text")
    build.click()
    expect(page.locator("#order-list li.valid")).to_contain_text(text)
    shoot(page, "01-build-ordered")
    with lock:
        assert Order.objects.filter(phase=current(game, lock), power__name="TURKEY").count() == 1
    context.close()
