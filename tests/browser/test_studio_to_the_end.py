"""Issue 34's second "done when", in Chromium: a game master imports a small SVG map into a blank draft, sees
the borders detected from its shapes, completes it with the editor's controls (centres, homes, units; the
powers and victory as tables), adds a conditional event through the Timeline form, checks it clean and
publishes it; then creates a game of that version on the create page, fills its seats with the site's
bots and has the reference bot play it to its end, phase after phase (the bots order through the API on
each phase's opening, as house bots do; the phases are processed by the services); the conditional event
fired when its condition held, and the game page shows the finished game."""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter

import pytest
from playwright.sync_api import Page, expect

from dipserver.games.models import Game, Phase
from dipserver.games.services.phases import phase_process
from dipserver.players.bot_turns import bots_play
from dipserver.studio import services
from dipserver.studio.models import Draft, VariantVersion
from tests.browser.test_lobby_actions import TIMEOUT, open_page
from tests.factories import GameMasterFactory
from tests.studio.conftest import DATA

pytestmark = pytest.mark.django_db(transaction=True)
CLEAN = "No problems: ready to publish."
# The borders the small map's shapes give (tests/data/studio/small_map.svg): shared edges, the half-unit
# gap around ESS bridged, ALP and ESS meeting only at a corner left apart.
BORDERS = {
    "ALP": "BRE, DAL, NTH",
    "BRE": "ALP, COR, ESS, NTH",
    "ESS": "BRE, DAL, FAR",
    "FAR": "COR, ESS",
}
CENTRES = ("ALP", "BRE", "COR", "DAL", "ESS", "FAR")
POWERS = {
    "RED": {"name": "Red", "adjective": "Red", "colour": "#cc2222"},
    "BLUE": {"name": "Blue", "adjective": "Blue", "colour": "#2222cc"},
}
END_YEAR = 1905
MAX_PHASES = 5 * (END_YEAR - 1900)  # five phases a year at most: the loop ends even if the game did not
# The conditional event: FAR stops being a supply centre once some power owns two centres, from 1901 on.
WHEN = {"centres": 2}
CONDITION = "some power owns 2 supply centres or more"


def click(page: Page, province: str) -> None:
    page.locator(f"path[data-province={province}]").click()
    expect(page.locator("#province-code")).to_have_text(province)


def import_the_map(page: Page) -> None:
    expect(page.locator("body[data-ready=true]")).to_have_count(1, timeout=TIMEOUT)
    page.set_input_files("#svg-file", str(DATA / "small_map.svg"))
    page.get_by_role("button", name="Import the map").click()
    expect(page.locator("path[data-province=FAR]")).to_have_count(1, timeout=TIMEOUT)


def complete_the_variant(page: Page) -> None:
    """Powers and victory as tables (the editor has no form for them), the rest by clicking the map."""
    tables = json.loads(page.locator("#tables").input_value())
    tables["variant"].update(name="Small", start_phase="S1901M", victory={"centres": 4}, powers=POWERS)
    page.locator("#tables").fill(json.dumps(tables))
    expect(page.locator("#province-home option[value=BLUE]")).to_have_count(1, timeout=TIMEOUT)
    for province in CENTRES:
        click(page, province)
        page.locator("#province-sc").check()
    for province, power in (("ALP", "RED"), ("COR", "BLUE")):
        click(page, province)
        page.select_option("#province-home", power)
    placer = page.locator("#units-panel .unit-choice")
    for power, kind, province in (("RED", "A", "ALP"), ("BLUE", "F", "COR")):
        placer.locator(".placer-power").select_option(power)
        placer.locator(".placer-type").select_option(kind)
        placer.get_by_role("button", name="Place on the map").click()
        page.locator(f"path[data-province={province}]").click()
        placer.get_by_role("button", name="Done placing").click()
    expect(page.locator("#start-units li")).to_have_count(2)


def pick(page: Page, field: str, *provinces: str) -> None:
    page.locator(f".pick-button[data-pick={field}]").click()
    for province in provinces:
        page.locator(f"path[data-province={province}]").click()
    expect(page.locator(f"#{field}")).to_have_value(", ".join(provinces))
    page.locator(f".pick-button[data-pick={field}]").click()


def add_the_conditional_event(page: Page) -> None:
    page.select_option("#event-timing", "when")
    page.fill("#event-year", "1901")
    page.select_option("#event-hook", "after_fall_retreats")
    page.select_option("#event-change", "sc_loss")
    pick(page, "event-provinces", "FAR")
    page.select_option("#when-kind", "centres")
    page.select_option("#when-power", "")
    page.fill("#when-centres", str(WHEN["centres"]))
    page.get_by_role("button", name="Add the event").click()


def author_and_publish(browser, live_server) -> tuple[object, VariantVersion]:
    with live_server.lock:
        gm = GameMasterFactory(username="end-gm")
        draft = services.draft_create(user=gm, slug="to-the-end", name="Small")
    page = open_page(browser, live_server.url, f"/studio/drafts/{draft.id}/", gm, live_server.lock)
    import_the_map(page)
    for province, borders in BORDERS.items():
        click(page, province)
        expect(page.locator("#province-borders")).to_have_text(borders)
    complete_the_variant(page)
    add_the_conditional_event(page)
    event = page.locator("#timeline-events > li")
    expect(event).to_have_count(1)
    expect(event).to_contain_text("FAR stops being a supply centre")
    expect(page.locator("#check-summary")).to_have_text(CLEAN, timeout=TIMEOUT)
    page.get_by_role("button", name="Publish").click()
    expect(page.locator("#publish-result")).to_contain_text("version 1", timeout=TIMEOUT)
    page.context.close()
    with live_server.lock:
        version = VariantVersion.objects.get(slug="to-the-end")
        events = Draft.objects.get(id=draft.id).data["timeline"]["events"]
    assert events == [
        {
            "year": 1901,
            "hook": "after_fall_retreats",
            "change": "sc_loss",
            "provinces": ["FAR"],
            "when": WHEN,
        }
    ]
    return gm, version


def create_and_fill(browser, live_server, gm, version: VariantVersion) -> tuple[Page, Game]:
    page = open_page(browser, live_server.url, "/games/new/", gm, live_server.lock)
    page.select_option("#id_variant", f"studio:{version.id}")
    page.fill("#id_name", "Small to the end")
    page.fill("#id_end_year", str(END_YEAR))
    page.check("#id_bots_fill_seats")
    page.click("text=Create the game")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    with live_server.lock:
        game = Game.objects.get(name="Small to the end")
    assert game.studio_version_id == version.id and game.status == Game.Status.FORMING
    # The game master fills the empty seats with bots through the API, as the page's scripts call it.
    answer = page.evaluate(
        """async (url) => {
          const token = document.cookie.match(/(?:^|;\\s*)csrftoken=([^;]+)/)?.[1]
            || document.querySelector("input[name=csrfmiddlewaretoken]")?.value;
          const reply = await fetch(url, {method: "POST", headers: {"X-CSRFToken": token}});
          return reply.status;
        }""",
        f"/api/v1/games/{game.id}/fill-with-bots",
    )
    assert answer == 200
    return page, game


def play_to_the_end(game: Game) -> list[Phase]:
    """Each open phase: every bot seat orders through the API (``bots_play``, the house bots' task), then
    the phase is processed; until the game is over, and never more than ``MAX_PHASES``."""
    for _ in range(MAX_PHASES):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        bots_play(game_id=game.id)
        phase_process(phase_id=game.current_phase_id, force=True)
    game.refresh_from_db()
    return list(Phase.objects.filter(game=game).order_by("index"))


def most_centres_at_the_hook(done: Phase, after: Phase) -> int:
    """The most centres one power owned when the hook after ``done`` judged the condition: the centres of
    the map before it, owned as the phase after says (a centre the hook took away, by its last owner)."""
    owners = dict(after.snapshot["owners"])
    owners.update(
        {e["province"]: e["owner"] for e in done.events if e["kind"] == "centre_lost" and e["owner"]}
    )
    counts = Counter(owners[c] for c in done.snapshot["map"]["supply_centres"] if owners.get(c))
    return max(counts.values(), default=0)


def autumn_hooks(phases: list[Phase]) -> list[tuple[Phase, Phase]]:
    """Each phase after whose processing the hook "after the Autumn retreats" ran, with the phase after it
    (whose snapshot is the position the hook left): the year's Autumn retreats, or its Autumn movement
    when no retreat followed."""
    pairs = itertools.pairwise(phases)
    return [(p, after) for p, after in pairs if p.name[0] == "F" and after.name[0] != "F"]


def test_a_studio_map_is_authored_published_and_played_to_its_end_by_bots(
    browser, live_server, celery_conf, shoot
):
    gm, version = author_and_publish(browser, live_server)
    # From here the bots' and the phases' tasks are not run as they are queued (eagerly, each phase's
    # bots would process the next phase inside the last one's request): the loop below runs them in turn.
    celery_conf(task_always_eager=False)
    page, game = create_and_fill(browser, live_server, gm, version)
    with live_server.lock:
        phases = play_to_the_end(game)

    assert game.status == Game.Status.FINISHED, [p.name for p in phases]
    # Ended by a winner, or with none once the last year was over (the game's last phase, the Spring
    # after it, is its final position: nobody orders there).
    assert game.result in (Game.Result.SOLO, Game.Result.NO_WINNER)
    assert game.winners or phases[-1].name == f"S{END_YEAR + 1}M", [p.name for p in phases]
    assert all(p.status == Phase.Status.PROCESSED for p in phases)
    assert all(p.orders.get("RED") or p.orders.get("BLUE") for p in phases[:-1] if p.name.endswith("M"))
    # The conditional event fired once, at the first Autumn whose end saw a power own two centres.
    hooks = autumn_hooks(phases)
    held = [(p, after) for p, after in hooks if most_centres_at_the_hook(p, after) >= WHEN["centres"]]
    assert held, "some power came to own two centres"
    fired = [p for p in phases if {"kind": "condition_met", "event": 1, "when": CONDITION} in p.events]
    first, after = held[0]
    assert fired == [first]
    assert {"kind": "centre_lost", "province": "FAR", "owner": None, "reason": "the timeline"} in first.events
    assert "FAR" in first.snapshot["map"]["supply_centres"]
    assert "FAR" not in after.snapshot["map"]["supply_centres"]

    page.goto(f"{live_server.url}/games/{game.id}/")
    expect(page.locator("#phase-title")).to_contain_text("Game over", timeout=TIMEOUT)
    expect(page.locator("#process-now")).to_be_hidden()  # nothing is left to process
    expect(page.locator("#conditions-block")).to_be_hidden()  # nor any change to come
    page.locator("#history").fill(str(phases.index(first)))
    report = page.locator("#phase-report .events")
    expect(report).to_contain_text(f"{CONDITION} (event 1)", timeout=TIMEOUT)
    expect(report).to_contain_text("FAR stops being a supply centre")
    shoot(page, "studio-game-finished")
