"""Entering orders on the game page, in a real browser: each order drawn on the map as it is given (its
line in the list lights its arrow), every order kind by clicking (support, support to hold, convoy, move
by convoy), a click that makes no legal order explained, an ambiguous click asked about, coasts asked
and clickable, Ready warning about units with no order and rejected orders, a rejected typed order that
does not replace the valid one, and failed saves that say so.

Standard games are created and filled through the games services; a test moves units in the phase's
snapshot where it needs a fleet at sea."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import Page, expect

from dipserver.engine import Build, ConvertToFleet, Disband, Move, Retreat, UnitType, Waive
from dipserver.games.mappers import order_drawing, position_of
from dipserver.games.models import Game, Order, Power
from dipserver.games.services.games import game_create, game_join
from dipserver.games.services.phases import phase_process

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 15_000
VIEW = {"width": 1440, "height": 900}


def started(name: str, prefix: str) -> Game:
    users = get_user_model().objects
    game = game_create(name=name, variant="standard")
    for i in range(7):
        game_join(game_id=game.id, user=users.create_user(username=f"{prefix}{i}", password="x" * 12))
    Game.objects.filter(id=game.id).update(missed_limit=100)
    game.refresh_from_db()
    return game


def move_units(game: Game, moves: dict[str, str]) -> None:
    """Moves units in the open phase's snapshot: {"LON": "NTH"} puts the unit in London in the North Sea."""
    phase = game.current_phase
    for unit in phase.snapshot["units"]:
        if unit["location"] in moves:
            unit["location"] = moves[unit["location"]]
    phase.snapshot["units"].sort(key=lambda u: u["location"])
    phase.save(update_fields=["snapshot"])


def page_for(browser, base: str, game: Game, power: str, lock) -> Page:
    with lock:
        user = Power.objects.get(game=game, name=power).user
        client = Client()
        client.force_login(user)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
    context = browser.new_context(viewport=VIEW)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}])
    page = context.new_page()
    page.goto(f"{base}/games/{game.id}/")
    expect(page.locator("body[data-loaded=true]")).to_have_count(1, timeout=TIMEOUT)
    return page


def click_province(page: Page, code: str) -> None:
    """Click where the map writes the province's name, as a player would."""
    label = page.locator("#map #labels text").filter(has_text=re.compile(f"^{code}$"))
    box = label.bounding_box()
    assert box, f"{code} has no label"
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def click_unit(page: Page, location: str) -> None:
    page.locator(f'#map #units .unit-group[data-location="{location}"]').click()


def order_line(page: Page, text: str):
    return page.locator(
        "#order-list li", has=page.locator(".order-text", has_text=re.compile(f"^{re.escape(text)}$"))
    )


def accepted(page: Page, text: str) -> None:
    expect(order_line(page, text)).to_contain_text("accepted")


def arrow(page: Page, text: str):
    return page.locator(f'#map #live-orders .live-order[data-text="{text}"]')


def stored(game: Game, power: str, lock) -> list[str]:
    with lock:
        rows = Order.objects.filter(phase_id=game.current_phase_id, power__name=power)
        return sorted(rows.values_list("text", flat=True))


def test_orders_are_drawn_as_given_and_each_line_lights_its_arrow(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started("Arrows", "arrow")
    page = page_for(browser, base, game, "AUSTRIA", lock)
    expect(page.locator("#map #live-orders .live-order")).to_have_count(0)

    click_unit(page, "VIE")
    click_province(page, "GAL")
    expect(arrow(page, "A VIE - GAL").locator("path.order.move")).to_have_count(1)  # drawn at once
    accepted(page, "A VIE - GAL")

    # A support by clicking: my unit, the supported unit, its destination.
    click_unit(page, "BUD")
    page.locator('#unit-options .mode[data-mode="support"]').click()
    expect(page.locator("#click-prompt")).to_have_text("Click the unit it supports.")
    click_unit(page, "VIE")
    expect(page.locator("#click-prompt")).to_contain_text("click where it moves")
    click_province(page, "GAL")
    accepted(page, "A BUD S A VIE - GAL")
    expect(arrow(page, "A BUD S A VIE - GAL").locator("path.order.support")).to_have_count(1)

    # A hold: the unit, then the unit again.
    click_unit(page, "TRI")
    click_unit(page, "TRI")
    accepted(page, "F TRI H")
    expect(arrow(page, "F TRI H").locator("circle.hold")).to_have_count(1)

    # Pointing at an order's line lights its arrow; leaving it puts it out.
    order_line(page, "A BUD S A VIE - GAL").hover()
    expect(page.locator("#map #live-orders .live-order.highlight")).to_have_attribute(
        "data-text", "A BUD S A VIE - GAL"
    )
    shoot(page, "drawn-and-highlighted", full_page=False)
    order_line(page, "F TRI H").focus()
    expect(page.locator("#map #live-orders .live-order.highlight")).to_have_attribute("data-text", "F TRI H")

    # A support to hold: the supported unit clicked twice; it replaces the support given before.
    click_unit(page, "BUD")
    expect(page.locator("#unit-options .current-order")).to_have_text("Now: A BUD S A VIE - GAL")
    page.keyboard.press("s")
    click_unit(page, "VIE")
    click_unit(page, "VIE")
    accepted(page, "A BUD S A VIE")
    expect(arrow(page, "A BUD S A VIE").locator("circle.hold")).to_have_count(1)
    expect(arrow(page, "A BUD S A VIE - GAL")).to_have_count(0)
    assert stored(game, "AUSTRIA", lock) == ["A BUD S A VIE", "A VIE - GAL", "F TRI H"]

    # A reload draws the stored orders again.
    page.reload()
    expect(page.locator("body[data-loaded=true]")).to_have_count(1, timeout=TIMEOUT)
    expect(page.locator("#map #live-orders .live-order")).to_have_count(3)
    shoot(page, "drawn-after-reload", full_page=False)


def test_a_click_that_could_mean_several_orders_asks_and_an_illegal_one_says_why(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started("Ambiguity", "amb")
    page = page_for(browser, base, game, "AUSTRIA", lock)

    # With nothing selected, a click on someone else's unit says what to do.
    click_unit(page, "WAR")
    expect(page.locator("#notice")).to_contain_text("not one of your units")

    # A fleet cannot reach Bohemia: said, and nothing is ordered.
    click_unit(page, "TRI")
    click_province(page, "BOH")
    expect(page.locator("#notice")).to_have_text("F TRI cannot move to BOH: it is not a legal move.")
    expect(page.locator("#order-list li.valid")).to_have_count(0)

    # Budapest selected, then Vienna, where my own army stands and stays (one leaving is simply followed).
    page.keyboard.press("Escape")
    click_unit(page, "BUD")
    click_unit(page, "VIE")
    question = page.locator("#unit-options .question")
    expect(question).to_contain_text("A VIE is yours. What do you mean?")
    expect(question.locator("button.choice")).to_have_text(
        ["A BUD - VIE", "Support A VIE…", "Give A VIE its order instead"]
    )
    shoot(page, "asks", full_page=False)
    expect(page.locator("#order-list li.valid")).to_have_count(0)  # nothing silently ordered
    question.get_by_text("Support A VIE…").click()
    expect(page.locator("#click-prompt")).to_contain_text("A BUD supports A VIE")
    click_province(page, "GAL")
    accepted(page, "A BUD S A VIE - GAL")
    assert stored(game, "AUSTRIA", lock) == ["A BUD S A VIE - GAL"]

    # A support nobody could give is explained.
    click_unit(page, "TRI")
    page.keyboard.press("s")
    click_unit(page, "WAR")
    expect(page.locator("#notice")).to_contain_text("F TRI cannot support A WAR")


def test_a_convoy_and_a_move_by_convoy_by_clicking_and_keys(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started("Convoys", "conv")
        move_units(game, {"LON": "NTH", "LVP": "YOR"})
    page = page_for(browser, base, game, "ENGLAND", lock)

    click_unit(page, "NTH")
    expect(page.locator('#unit-options .mode[data-mode="convoy"]')).to_be_visible()
    page.keyboard.press("c")
    expect(page.locator('#unit-options .mode[data-mode="convoy"]')).to_have_attribute("aria-pressed", "true")
    click_unit(page, "YOR")
    expect(page.locator("#click-prompt")).to_contain_text("click where the army lands")
    click_province(page, "NWY")
    accepted(page, "F NTH C A YOR - NWY")
    expect(arrow(page, "F NTH C A YOR - NWY").locator("path.order.convoy")).to_have_count(1)

    click_unit(page, "YOR")
    page.keyboard.press("v")
    via = page.locator("#unit-options .option", has_text="NWY")
    expect(via).to_have_count(1)
    text = via.get_attribute("data-text")
    assert "NWY" in text and text.startswith("A YOR")
    click_province(page, "NWY")
    accepted(page, text)
    expect(arrow(page, text).locator("path.order.move")).to_have_count(1)
    shoot(page, "convoy-drawn", full_page=False)

    # The keyboard alone: the unit's chip, a kind, an order button.
    page.locator('#unit-picker .unit-chip[data-unit="EDI"]').focus()
    page.keyboard.press("Enter")
    page.keyboard.press("s")
    page.locator('#unit-options .option[data-text="F EDI S F NTH"]').focus()
    page.keyboard.press("Enter")
    accepted(page, "F EDI S F NTH")
    assert stored(game, "ENGLAND", lock) == sorted(["F NTH C A YOR - NWY", text, "F EDI S F NTH"])


def test_a_destination_with_two_coasts_asks_which_and_coasts_are_clickable(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started("Coasts", "coast")
        move_units(game, {"BRE": "MAO"})
    page = page_for(browser, base, game, "FRANCE", lock)

    click_unit(page, "MAO")
    expect(page.locator("#map #coasts .coast-target.target")).to_have_count(2)  # SPA/NC, SPA/SC
    shoot(page, "coasts-shown", full_page=False)
    click_province(page, "SPA")
    question = page.locator("#unit-options .question")
    expect(question).to_contain_text("Which coast of SPA")
    expect(question.locator("button.choice")).to_have_text(["F MAO - SPA/NC", "F MAO - SPA/SC"])
    expect(page.locator("#order-list li.valid")).to_have_count(0)
    question.locator('button[data-text="F MAO - SPA/SC"]').click()
    accepted(page, "F MAO - SPA/SC")
    expect(arrow(page, "F MAO - SPA/SC").locator("path.order.move")).to_have_count(1)

    # Clicking a coast itself gives that coast at once.
    click_unit(page, "MAO")
    page.locator('#map #coasts [data-location="SPA/NC"]').click()
    accepted(page, "F MAO - SPA/NC")
    expect(page.locator("#order-list li")).to_have_count(1)
    assert stored(game, "FRANCE", lock) == ["F MAO - SPA/NC"]


def test_a_typed_order_no_option_names_is_drawn_from_the_drawing_it_is_stored_with(browser, live_server):
    """A support of an empty province is accepted but never offered: the page draws it all the same, from
    the drawing the server answers the order with, and again from the stored orders after a reload."""
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started("Typed drawing", "typed")
    page = page_for(browser, base, game, "AUSTRIA", lock)
    page.fill("#typed-orders", "A VIE S A BOH")
    page.click("text=Add typed orders")
    accepted(page, "A VIE S BOH")  # as stored: no unit to name
    expect(arrow(page, "A VIE S BOH").locator("path.order.support")).to_have_count(1)
    expect(arrow(page, "A VIE S BOH").locator("circle.hold")).to_have_count(1)
    page.reload()
    expect(page.locator("body[data-loaded=true]")).to_have_count(1, timeout=TIMEOUT)
    expect(arrow(page, "A VIE S BOH").locator("circle.hold")).to_have_count(1)


def test_ready_names_units_without_orders_and_rejected_orders_first(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started("Readiness", "ready")
    page = page_for(browser, base, game, "AUSTRIA", lock)
    click_unit(page, "VIE")
    click_province(page, "GAL")
    accepted(page, "A VIE - GAL")

    # A rejected typed order does not replace the valid one: both are shown.
    page.fill("#typed-orders", "A VIE - MOS")
    page.click("text=Add typed orders")
    expect(order_line(page, "A VIE - MOS")).to_contain_text("A VIE - GAL stays")
    accepted(page, "A VIE - GAL")
    expect(page.locator("#notice")).to_have_text("A VIE - MOS was rejected, so A VIE - GAL stays.")
    expect(arrow(page, "A VIE - GAL")).to_have_count(1)
    assert stored(game, "AUSTRIA", lock) == ["A VIE - GAL"]

    page.click("#ready-toggle")  # the warning keeps it unchecked
    warning = page.locator("#ready-warning")
    expect(warning).to_contain_text("A BUD, F TRI have no order")
    expect(warning).to_contain_text("Rejected: A VIE - MOS")
    expect(page.locator("#ready-toggle")).not_to_be_checked()
    shoot(page, "ready-warning", full_page=False)
    page.click("#ready-back")
    expect(warning).to_have_count(0)
    with lock:
        assert not Power.objects.get(game=game, name="AUSTRIA").ready

    page.click("#ready-toggle")  # the warning keeps it unchecked
    page.click("#ready-anyway")
    expect(page.locator("#notice")).to_have_text("You are ready.")
    expect(page.locator("#ready-toggle")).to_be_checked()
    with lock:
        assert Power.objects.get(game=game, name="AUSTRIA").ready


def test_an_order_after_the_phase_moved_on_or_a_failed_request_says_so(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started("Too late", "late")
    page = page_for(browser, base, game, "AUSTRIA", lock)

    # The network fails: a notice, and the line says it is not saved.
    page.route("**/orders", lambda route: route.abort())
    click_unit(page, "VIE")
    click_province(page, "GAL")
    expect(page.locator("#notice")).to_contain_text(
        "Your latest change was not saved: the server could not be reached"
    )
    expect(order_line(page, "A VIE - GAL")).to_contain_text("not saved")
    expect(page.locator("#order-list")).not_to_contain_text("saving…")
    page.unroute("**/orders")

    # The phase is processed meanwhile; the page has not polled yet (its polls are held).
    held = {"on": True}
    page.route(
        re.compile(rf"/api/v1/games/{game.id}$"),
        lambda route: route.fulfill(status=304) if held["on"] else route.continue_(),
    )
    with lock:
        phase_process(phase_id=game.current_phase_id, force=True)
    click_unit(page, "BUD")
    click_province(page, "SER")
    expect(page.locator("#notice")).to_contain_text("Not saved:")
    expect(page.locator("#notice")).to_contain_text("no longer")
    expect(page.locator("#order-list")).not_to_contain_text("saving…")
    shoot(page, "phase-moved-on", full_page=False)
    held["on"] = False
    expect(page.locator("#phase-title")).to_have_text("Autumn 1901 movement", timeout=TIMEOUT)


def test_every_order_kind_has_its_history_map_symbol(browser, live_server, shoot):
    """Builds, retreats, disbands and conversions happen in phases a test reaches slowly: the drawing
    module is called on the live page's own map with each order's drawing as the engine gives it to
    GET .../options and .../orders (the order's record drawn as its kind says)."""
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started("Symbols", "sym")
        position = position_of(game.current_phase.snapshot)
    page = page_for(browser, base, game, "AUSTRIA", lock)
    orders = {
        "A VIE B": Build("AUSTRIA", UnitType.ARMY, "VIE"),
        "F TRI B": Build("AUSTRIA", UnitType.FLEET, "TRI"),
        "A BUD R RUM": Retreat("BUD", "RUM"),
        "A GAL D": Disband("GAL"),
        "A SER becomes fleet": ConvertToFleet("SER"),
        "A BUD - SER via convoy": Move("BUD", "SER", via_convoy=True),
        "WAIVE": Waive("AUSTRIA"),
    }
    entries = [
        {"key": str(i), "text": text, "drawing": order_drawing("AUSTRIA", order, position, None, text)}
        for i, (text, order) in enumerate(orders.items())
    ]
    drawn = page.evaluate(
        """async (entries) => {
          const { drawOrders } = await import("/static/js/orders/arrows.js");
          const svg = document.querySelector("#map svg");
          const layer = drawOrders(svg, entries, "AUSTRIA", "#c40233");
          const name = (n) => `${n.tagName}.${n.getAttribute("class")}`;
          const parts = (g) => [...g.querySelectorAll("*")].map(name);
          return [...layer.querySelectorAll(".live-order")].map((g) => [g.dataset.text, parts(g).join(" ")]);
        }""",
        entries,
    )
    shapes = dict(drawn)
    assert "circle.build" in shapes["A VIE B"] and "circle.unit" in shapes["A VIE B"]
    assert "path.unit" in shapes["F TRI B"]  # a hull
    assert "path.order retreat" in shapes["A BUD R RUM"]
    assert "path.mark" in shapes["A GAL D"]
    assert "rect.conversion" in shapes["A SER becomes fleet"]
    assert "path.order move" in shapes["A BUD - SER via convoy"]
    assert "WAIVE" not in shapes  # a line in the list only, as on the history maps
    shoot(page, "symbols", full_page=False)


def test_a_build_by_clicking_a_free_home_centre_and_a_wrong_centre_explained(browser, live_server, shoot):
    from dipserver.games.services.orders import orders_submit

    base, lock = live_server.url, live_server.lock
    with lock:
        game = started("Builds", "build")
        austria = Power.objects.get(game=game, name="AUSTRIA").user
        orders_submit(game_id=game.id, user=austria, text="A BUD - SER\nA VIE - GAL", phase="S1901M")
        phase_process(phase_id=game.current_phase_id, force=True)
        game.refresh_from_db()
        phase_process(phase_id=game.current_phase_id, force=True)  # autumn: Serbia is Austria's
        game.refresh_from_db()
        assert game.current_phase.name == "W1901A"
    page = page_for(browser, base, game, "AUSTRIA", lock)
    expect(page.locator("#selection-hint")).to_contain_text("You have 1 build(s)")

    click_unit(page, "TRI")  # my fleet stands on that centre
    expect(page.locator("#notice")).to_have_text("You cannot build in TRI. You may build in BUD, VIE.")
    click_province(page, "VIE")  # inland: an army is the only build
    accepted(page, "A VIE B")
    expect(arrow(page, "A VIE B").locator("circle.build")).to_have_count(1)
    shoot(page, "build-drawn", full_page=False)
    assert stored(game, "AUSTRIA", lock) == ["A VIE B"]


def test_a_retreat_and_a_disband_by_clicking_the_dislodged_unit(browser, live_server, shoot):
    from dipserver.games.services.orders import orders_submit

    base, lock = live_server.url, live_server.lock
    with lock:
        game = started("Retreats", "retreat")
        move_units(game, {"BUD": "GAL", "MOS": "UKR"})
        russia = Power.objects.get(game=game, name="RUSSIA").user
        orders_submit(game_id=game.id, user=russia, text="A WAR - GAL\nA UKR S A WAR - GAL", phase="S1901M")
        phase_process(phase_id=game.current_phase_id, force=True)
        game.refresh_from_db()
        assert game.current_phase.name == "S1901R"
    page = page_for(browser, base, game, "AUSTRIA", lock)

    dislodged = page.locator('#map #units .unit-group.dislodged[data-location="GAL"]')
    dislodged.click()
    click_province(page, "BUD")
    accepted(page, "A GAL R BUD")
    expect(arrow(page, "A GAL R BUD").locator("path.order.retreat")).to_have_count(1)
    shoot(page, "retreat-drawn", full_page=False)

    dislodged.click()
    click_province(page, "GAL")  # the unit's own province: disband
    accepted(page, "A GAL D")
    expect(arrow(page, "A GAL D").locator("path.mark")).to_have_count(1)
    expect(page.locator("#order-list li")).to_have_count(1)
    assert stored(game, "AUSTRIA", lock) == ["A GAL D"]
