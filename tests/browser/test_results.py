"""Results on the game page, in a real browser: failed orders are marked in the text (a tag and a
strike-through in red) as well as on the map, each way an order fails by its own word (bounced, cut,
dislodged, void, no convoy), powers in civil disorder are named as such, and every
power's units stand out from the land it owns (Russia's near-white used to vanish)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from dipserver.games.models import Power
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.phases import phase_process
from dipserver.render.style import TERRITORY_CONTRAST, contrast
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_order_entry import page_for, started
from tests.server.conftest import set_up

pytestmark = pytest.mark.django_db(transaction=True)

BAD_COLOUR = """() => {
  const probe = document.body.appendChild(document.createElement("span"));
  probe.style.color = "var(--bad)";
  const colour = getComputedStyle(probe).color;
  probe.remove();
  return colour;
}"""


def rgb_hex(css: str) -> str:
    r, g, b = (int(v) for v in re.findall(r"\d+", css)[:3])
    return f"#{r:02x}{g:02x}{b:02x}"


def test_failed_orders_and_civil_disorder_are_marked_and_colours_stand_out(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started("Bounces", "bounce")
        seats = {p.name: p for p in Power.objects.filter(game=game).select_related("user")}
        phase = game.current_phase.name
        orders_submit(
            game_id=game.id, user=seats["AUSTRIA"].user, text="A VIE - GAL\nA BUD - SER", phase=phase
        )
        orders_submit(game_id=game.id, user=seats["RUSSIA"].user, text="A WAR - GAL", phase=phase)
        Power.objects.filter(id=seats["TURKEY"].id).update(status=Power.Status.CIVIL_DISORDER)
        phase_process(phase_id=game.current_phase_id, force=True)
    page = page_for(browser, base, game, "AUSTRIA", lock)
    page.click("#hist-prev")
    report = page.locator("#phase-report")
    expect(report).to_contain_text("Orders and results, Spring 1901 movement")

    bad = page.evaluate(BAD_COLOUR)
    bounce = report.locator("li", has_text="A VIE - GAL")
    expect(bounce).to_have_class(re.compile(r"\boutcome-bounce\b"))
    expect(bounce.locator(".outcome-tag")).to_have_text("bounced")
    expect(bounce.locator(".result-mark")).to_have_text("✖")
    assert bounce.evaluate("n => getComputedStyle(n).color") == bad
    assert "line-through" in bounce.locator(".result-order").evaluate(
        "n => getComputedStyle(n).textDecorationLine"
    )
    expect(report.locator("li", has_text="A WAR - GAL").locator(".outcome-tag")).to_have_text("bounced")
    success = report.locator("li", has_text="A BUD - SER")
    expect(success.locator(".outcome-tag")).to_have_count(0)
    expect(success.locator(".result-mark")).to_have_text("✔")
    assert success.evaluate("n => getComputedStyle(n).color") != bad
    expect(page.locator("#map #orders .mark").first).to_be_attached()  # the map's crosses on the bounces

    expect(report.locator(".power-results h4", has_text="TURKEY")).to_contain_text("in civil disorder")
    expect(page.locator("#powers-body tr", has_text="TURKEY")).to_contain_text("civil disorder")
    shoot(page, "results")
    report.screenshot(path=str(ARTIFACTS / "results-report.png"))

    for power, centre in (("RUSSIA", "MOS"), ("TURKEY", "ANK"), ("AUSTRIA", "VIE")):
        fill = page.locator(f'#map #provinces [id="{centre}"]').evaluate("n => getComputedStyle(n).fill")
        colour = page.locator(f'#map #units .unit-group[data-location="{centre}"] .unit').get_attribute(
            "fill"
        )
        assert contrast(colour, rgb_hex(fill)) >= TERRITORY_CONTRAST, (power, colour, fill)


def test_a_cut_support_a_dislodged_unit_a_void_support_and_no_convoy_are_each_named(
    browser, live_server, shoot
):
    base, lock = live_server.url, live_server.lock
    units = (
        "FRANCE A BUR", "FRANCE A MAR", "GERMANY A MUN", "GERMANY A RUH", "ITALY A PIE",
        "ENGLAND A LON", "ENGLAND F NTH", "ENGLAND F ENG", "AUSTRIA A VIE", "RUSSIA A MOS", "TURKEY A CON",
    )  # fmt: skip
    orders = {
        "FRANCE": "A BUR H\nA MAR S A BUR",  # the support is cut by Piedmont, so Burgundy falls
        "GERMANY": "A MUN - BUR\nA RUH S A MUN - BUR",
        "ITALY": "A PIE - MAR",
        # No fleet convoys London, and it is not going to Belgium.
        "ENGLAND": "A LON - NWY\nF NTH H\nF ENG S A LON - BEL",
    }
    with lock:
        game = started("Every failure", "failing")
        set_up(game, "S1901M", *units, owners={})
        seats = {p.name: p for p in Power.objects.filter(game=game).select_related("user")}
        for power, text in orders.items():
            orders_submit(game_id=game.id, user=seats[power].user, text=text, phase="S1901M")
        phase_process(phase_id=game.current_phase_id, force=True)
    page = page_for(browser, base, game, "ENGLAND", lock)
    page.click("#hist-prev")
    report = page.locator("#phase-report")
    expect(report).to_contain_text("Orders and results, Spring 1901 movement")

    bad = page.evaluate(BAD_COLOUR)
    for order, outcome, tag in (
        ("A MAR S A BUR", "cut", "cut"),
        ("A BUR H", "dislodged", "dislodged"),
        ("F ENG S A LON - BEL", "void", "void"),
        ("A LON - NWY", "no_convoy", "no convoy"),
        ("A PIE - MAR", "bounce", "bounced"),
    ):
        line = report.locator("li", has=page.locator(".result-order", has_text=re.compile(f"^{order}$")))
        expect(line).to_have_class(re.compile(rf"\boutcome-{outcome}\b"))
        expect(line.locator(".outcome-tag")).to_have_text(tag)
        expect(line.locator(".result-mark")).to_have_text("✖")
        assert line.evaluate("n => getComputedStyle(n).color") == bad, order
    won = report.locator("li", has=page.locator(".result-order", has_text=re.compile("^A MUN - BUR$")))
    expect(won.locator(".result-mark")).to_have_text("✔")
    # On the map: a cross on each failed move or support drawn there.
    expect(page.locator("#map #orders .mark")).not_to_have_count(0)
    shoot(page, "every-failure")
