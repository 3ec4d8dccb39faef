"""Issue 34's "done when": a game master authors Sahara in the studio from its rule text alone — the four
tables as printed (``tests/engine/timeline/seed_tables.py``) and the rules' words, read by the two rulings
the rule text needs (``docs/variant-rulings.md`` E28: the impassable "Amy" is Smyrna and the Spring 1906
"Tri" is Tyrolia, both behind an ``errata`` option) — using only the editor's controls and clicks on the
map, and gets the timeline and the check of the shipped ``variants/sahara`` (its own tests included, for
the ones written here)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from dipserver.engine import check_variant, event_text, load_scenarios, load_variant, run_scenarios, walk
from dipserver.studio.checking import report_of
from dipserver.studio.models import Draft
from tests.browser.test_lobby_actions import TIMEOUT, open_page
from tests.engine.timeline.seed_tables import (
    SAHARA_IMPASSABLE,
    SAHARA_SC_GAINED,
    SAHARA_SC_LOST,
    SAHARA_SEA_TO_LAND,
    code,
)
from tests.factories import GameMasterFactory
from tests.studio.conftest import VARIANTS, shipped_tables, shipped_tests

pytestmark = pytest.mark.django_db(transaction=True)
CHECK_TIMEOUT = 60_000  # ms: Sahara's check walks eleven years of changes on a shared machine
HOOKS = {"S": "after_spring_retreats", "A": "after_fall_retreats"}  # rule 2: "after moves, retreats"
# The rule text's tables in its own order, each with the change its heading names.
TABLES = (
    (SAHARA_SEA_TO_LAND, "land"),
    (SAHARA_SC_LOST, "sc_loss"),
    (SAHARA_SC_GAINED, "sc_gain"),
    (SAHARA_IMPASSABLE, "impassable"),
)
# Ruling E28: the two misprints, each read behind the errata option and kept as printed without it.
ERRATA = {("impassable", "A05", "Amy"): ("SMY", None), ("sc_gain", "S06", "Tri"): ("TYR", "TRI")}
# The provinces the standard map lacks (rule 2: "Caspian Sea becomes passable land space", "Ireland
# becomes passable", "Iceland becomes passable"), with the borders they are drawn with (rulings S17, S18).
NEW_PROVINCES = (
    ("CAS", "Caspian", "absent", ("ARM", "MOS", "SEV")),
    ("IRE", "Ireland", "impassable", ("IRI", "NAO")),
    ("ICE", "Iceland", "impassable", ("NAO", "NWG")),
)


def rule_text_events() -> Iterator[dict[str, Any]]:
    """Every row of the four tables as an event, in the rule text's order."""
    for table, change in TABLES:
        for line in table.strip().splitlines():
            season, _, rest = line.partition(" ")
            event = {"year": 1900 + int(season[1:]), "hook": HOOKS[season[0]], "change": change}
            if rest.startswith("All the rest except"):
                yield {**event, "change": "sc_loss_all", "except": [code(rest.split()[-1])]}
                continue
            tokens = [token.strip() for token in rest.split(",")]
            misprints = [t for t in tokens if (change, season, t) in ERRATA]
            yield {**event, "provinces": [code(t) for t in tokens if t not in misprints]}
            for token in misprints:
                read, printed = ERRATA[(change, season, token)]
                if printed is not None:
                    yield {**event, "provinces": [printed], "unless": "errata"}
                yield {**event, "provinces": [read], "if": "errata"}


# Where a province's name is written: a point a player sees of it (a sea's middle may be an island's).
LABEL_POINT = """(code) => {
  const path = document.querySelector(`path[data-province=${code}]`);
  path.scrollIntoView({ block: "center" });
  const svg = path.ownerSVGElement;
  const label = [...svg.querySelectorAll("text")].find((t) => t.textContent === code);
  const point = svg.createSVGPoint();
  point.x = Number(label.getAttribute("x"));
  point.y = Number(label.getAttribute("y")) - 4;
  const seen = point.matrixTransform(svg.getScreenCTM());
  return { x: seen.x, y: seen.y };
}"""


def click_province(page: Page, province: str) -> None:
    point = page.evaluate(LABEL_POINT, province)
    page.mouse.click(point["x"], point["y"])


def pick(page: Page, field: str, *provinces: str) -> None:
    page.locator(f".pick-button[data-pick={field}]").click()
    for province in provinces:
        click_province(page, province)
    expect(page.locator(f"#{field}")).to_have_value(", ".join(provinces))
    page.locator(f".pick-button[data-pick={field}]").click()


def add_event(page: Page, event: dict[str, Any], by_click: bool) -> None:
    page.select_option("#event-timing", "year")
    page.fill("#event-year", str(event["year"]))
    page.select_option("#event-hook", event["hook"])
    page.select_option("#event-change", event["change"])
    if event["change"] == "sc_loss_all":
        pick(page, "event-except", *event["except"])
    elif by_click:
        pick(page, "event-provinces", *event["provinces"])
    else:
        page.fill("#event-provinces", ", ".join(event["provinces"]))
    only = "if:errata" if "if" in event else "unless:errata" if "unless" in event else ""
    page.select_option("#event-option", only)
    page.get_by_role("button", name="Add the event").click()


def add_provinces(page: Page) -> None:
    for province, name, terrain, borders in NEW_PROVINCES:
        page.locator("#edit-borders").uncheck()
        click_province(page, province)
        expect(page.locator("#province-new")).to_be_visible()
        page.fill("#province-name", name)
        page.select_option("#province-terrain", terrain)
        page.locator("#edit-borders").check()
        for neighbour in borders:
            click_province(page, neighbour)
        expect(page.locator("#province-borders")).to_have_text(", ".join(borders))
    page.locator("#edit-borders").uncheck()


def set_rules(page: Page) -> None:
    page.fill("#rule-description", "The seas dry into land and the Sahara moves north.")
    page.locator("#rule-description").press("Tab")
    page.select_option("#rule-builds", "owned")  # rule 4: "any unoccupied centre they own"
    page.select_option("#rule-impassable-seas", "closed")  # the desert over a dried sea is no coastline
    page.select_option("#rule-closed", "desert")  # rule 5: the Sahara advances
    page.select_option("#rule-sc-owner", "occupant")
    page.select_option("#rule-stranded", "convert")  # rule 2: "it changes into an army"
    page.locator("#rule-stay-fleet").check()  # rule 2: "specified ... that it won't change, it disbands"
    page.fill("#option-name", "errata")
    page.fill(
        "#option-description", "Read the impassable 'Amy' as Smyrna and the Spring 1906 'Tri' as Tyrolia."
    )
    page.get_by_role("button", name="Add the option").click()
    # rule 6: the seasons' names from 1905
    page.fill("#label-year", "1905")
    page.fill("#label-s", "Early Summer")
    page.fill("#label-f", "Late Summer")
    page.fill("#label-w", "Between Summers")
    page.get_by_role("button", name="Add the names").click()


def set_victory(page: Page) -> None:
    # rule 7: "the player with the final unit sitting in Iceland after Between Summers 1911"
    page.fill("#victory-centres", "0")
    page.locator("#victory-centres").press("Tab")
    page.select_option("#victory-type", "unit_in_province")
    pick(page, "victory-provinces", "ICE")
    page.fill("#victory-phase", "W1911A")
    page.locator("#victory-must-own").check()
    page.get_by_role("button", name="Add the condition").click()


def add_test(
    page: Page, name: str, phase: str, until: str, unit: tuple[str, str, str], orders: str, after: str
) -> None:
    """A test whose one unit is placed by clicking the map."""
    power, kind, province = unit
    page.fill("#test-name", name)
    page.fill("#test-phase", phase)
    page.fill("#test-until", until)
    placer = page.locator("[data-placer=test]")
    placer.locator(".placer-power").select_option(power)
    placer.locator(".placer-type").select_option(kind)
    placer.locator(".place-button").click()
    click_province(page, province)
    placer.locator(".place-button").click()
    expect(page.locator("#test-units")).to_have_value(f"{power}: {kind} {province}")
    page.fill("#test-orders", orders)
    page.fill("#expect-units", after)
    page.get_by_role("button", name="Add the test").click()


def authored(page: Page) -> None:
    add_provinces(page)
    set_rules(page)
    for number, event in enumerate(rule_text_events()):
        add_event(page, event, by_click=number < 2)
    set_victory(page)
    add_test(
        page,
        "A fleet stranded inland by the drying sea becomes an army",
        "F1905M",
        "W1905A",
        ("RUSSIA", "F", "BOT"),
        "RUSSIA: F BOT H",
        "RUSSIA: A BOT",
    )
    add_test(
        page,
        "A stranded fleet told to stay a fleet disbands",
        "F1905M",
        "W1905A",
        ("RUSSIA", "F", "BOT"),
        "RUSSIA: F BOT stays fleet",
        "RUSSIA:",
    )


def shipped_timeline() -> list[tuple[int, str, list[str]]]:
    return [
        (year, hook.value, [event_text(e) for e in step.events])
        for year, hook, step in walk(load_variant("sahara"), {"mode": "exact"})
        if step.events
    ]


def test_sahara_authored_from_its_rule_text_has_the_shipped_timeline_and_check(browser, live_server, shoot):
    with live_server.lock:
        gm = GameMasterFactory(username="sahara-gm")
    page = open_page(browser, live_server.url, "/studio/", gm, live_server.lock)
    page.fill("input[name=name]", "Sahara")
    page.fill("input[name=slug]", "my-sahara")
    page.select_option("select[name=start_from]", "standard")  # rule 1: the 1971 rulebook's board
    page.get_by_role("button", name="Create the draft").click()
    expect(page.locator("body[data-ready=true]")).to_have_count(1, timeout=TIMEOUT)
    authored(page)
    expect(page.locator("#check-summary")).to_have_text(
        "No problems: ready to publish.", timeout=CHECK_TIMEOUT
    )
    expect(page.locator("#tests-summary")).to_have_text("2 of 2 test(s) pass", timeout=CHECK_TIMEOUT)
    expect(page.locator("#save-state")).to_contain_text("saved (revision")
    shoot(page, "studio-sahara")

    # The timeline the page lists is the one the engine walks on variants/sahara.
    moments = page.locator("#check-timeline > li")
    expected = shipped_timeline()
    expect(moments).to_have_count(len(expected))
    for index, (year, _, texts) in enumerate(expected):
        expect(moments.nth(index)).to_contain_text(f"{year} ")
        expect(moments.nth(index)).to_contain_text("; ".join(texts))

    with live_server.lock:
        draft = Draft.objects.get(slug="my-sahara")
    # The rules, written with the panels' controls, are the shipped files' own.
    files, own = shipped_tables("sahara"), draft.data
    for table, key in (("variant", "rules"), ("variant", "drawing"), ("variant", "victory")):
        assert own[table][key] == files[table][key], key
    for key in ("settings", "orders", "season_labels", "victory"):
        assert own["timeline"][key] == files["timeline"][key], key
    assert own["timeline"]["options"]["errata"]["default"] is True
    mine = report_of(draft.slug, draft.data, draft.geometry)
    shipped = report_of("sahara", {**shipped_tables("sahara"), "tests": shipped_tests("sahara")}, None)
    assert mine.timeline == shipped.timeline
    assert mine.start == shipped.start
    assert (mine.problems, mine.notes) == (shipped.problems, shipped.notes)
    engine = check_variant(load_variant("sahara"), {"mode": "exact"})
    assert [n.message for n in mine.notes] == [n.message for n in engine.notes] and engine.ok
    # The tests written here pass as the shipped variant's own tests of the same name do.
    ran = {
        r.name: r.passed for r in run_scenarios(load_variant("sahara"), load_scenarios(VARIANTS / "sahara"))
    }
    assert {t["name"]: t["passed"] for t in mine.tests} == {t["name"]: ran[t["name"]] for t in mine.tests}
