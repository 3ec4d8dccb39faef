"""Conditional events (``when = { ... }``): a change fires at its hook in any year, within its years,
where a condition on the position holds: a power controls provinces, owns a number of centres, or units
stand somewhere. The timelines here are written for a copy of the standard map."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from dipserver.engine.chronicle import describe
from dipserver.engine.position import Position
from dipserver.engine.timeline import Hook, TimelineError, apply_hook, load_timeline
from dipserver.engine.turn import play_phase
from dipserver.engine.types import Phase, Terrain, Unit, UnitType
from dipserver.engine.variant import VARIANTS_DIR, Variant, load_variant

AUTUMN = Hook.AFTER_FALL_RETREATS
Write = Callable[[str], Variant]


@pytest.fixture
def with_timeline(tmp_path: Path) -> Write:
    """The standard map with ``text`` as its timeline, loaded from a copy of its folder."""

    def write(text: str) -> Variant:
        folder = tmp_path / "standard"
        if not folder.exists():
            shutil.copytree(VARIANTS_DIR / "standard", folder)
        (folder / "timeline.toml").write_text(text)
        variant = load_variant("standard", tmp_path)
        load_timeline(variant)  # read and checked now, as variant loading does
        return variant

    return write


def autumn(variant: Variant, *units: str, owners: dict[str, str] | None = None, year: int = 1901) -> Position:
    """The position after ``year``'s Autumn retreats with ``units`` ("GERMANY A WAR") on the board."""
    placed = {}
    for spec in units:
        power, kind, location = spec.split()
        placed[location] = Unit(power, UnitType(kind), location)
    return Position(Phase.parse(f"W{year}A"), placed, {**variant.start.owners, **(owners or {})})


SNOWED_UKRAINE = """
[[events]]
hook = "after_fall_retreats"
change = "impassable"
provinces = ["UKR"]
when = { controls = ["WAR"], power = "GERMANY" }
"""


def test_an_event_fires_when_its_power_controls_the_provinces(with_timeline: Write) -> None:
    variant = with_timeline(SNOWED_UKRAINE)
    position = autumn(variant, owners={"WAR": "GERMANY"})
    step = apply_hook(variant, {}, variant.map_state, position, AUTUMN, 1901)
    assert step.map_state.terrain["UKR"] is Terrain.IMPASSABLE
    assert step.events[0] == {"kind": "condition_met", "event": 1, "when": "GERMANY controls WAR"}


def test_an_event_waits_while_its_condition_does_not_hold(with_timeline: Write) -> None:
    variant = with_timeline(SNOWED_UKRAINE)
    step = apply_hook(variant, {}, variant.map_state, autumn(variant), AUTUMN, 1901)
    assert step.map_state.terrain["UKR"] is Terrain.LAND and step.events == ()


def test_a_province_that_is_no_centre_is_controlled_by_standing_in_it(with_timeline: Write) -> None:
    variant = with_timeline(SNOWED_UKRAINE.replace('["WAR"]', '["SIL"]'))
    held = autumn(variant, "GERMANY A SIL")
    assert apply_hook(variant, {}, variant.map_state, held, AUTUMN, 1901).events
    passing = autumn(variant, "RUSSIA A SIL")
    assert not apply_hook(variant, {}, variant.map_state, passing, AUTUMN, 1901).events


def test_a_number_of_centres_makes_an_event_fire(with_timeline: Write) -> None:
    variant = with_timeline(SNOWED_UKRAINE.replace('controls = ["WAR"], power = "GERMANY"', "centres = 5"))
    at_start = variant.start  # Russia's four are the most
    assert not apply_hook(variant, {}, variant.map_state, at_start, AUTUMN, 1901).events
    russia_five = autumn(variant, owners={"RUM": "RUSSIA"})  # Russia starts with four
    step = apply_hook(variant, {}, variant.map_state, russia_five, AUTUMN, 1901)
    assert step.events[0]["when"] == "some power owns 5 supply centres or more"


def test_occupied_provinces_make_an_event_fire_whoever_stands_there(with_timeline: Write) -> None:
    variant = with_timeline(
        SNOWED_UKRAINE.replace('controls = ["WAR"], power = "GERMANY"', 'occupied = ["GAL", "SIL"]')
    )
    one = autumn(variant, "AUSTRIA A GAL")
    assert not apply_hook(variant, {}, variant.map_state, one, AUTUMN, 1901).events
    both = autumn(variant, "AUSTRIA A GAL", "GERMANY A SIL")
    assert (
        apply_hook(variant, {}, variant.map_state, both, AUTUMN, 1901).map_state.terrain["UKR"]
        is Terrain.IMPASSABLE
    )


def test_an_event_fires_only_within_its_years(with_timeline: Write) -> None:
    variant = with_timeline(SNOWED_UKRAINE + "year = 1903\nuntil = 1905\n")
    position = autumn(variant, owners={"WAR": "GERMANY"})
    fired = {
        year: bool(apply_hook(variant, {}, variant.map_state, position, AUTUMN, year).events)
        for year in range(1901, 1908)
    }
    assert fired == {1901: False, 1902: False, 1903: True, 1904: True, 1905: True, 1906: False, 1907: False}


def test_an_event_fires_at_its_own_hook_only(with_timeline: Write) -> None:
    variant = with_timeline(SNOWED_UKRAINE)
    position = autumn(variant, owners={"WAR": "GERMANY"})
    assert not apply_hook(variant, {}, variant.map_state, position, Hook.AFTER_SPRING_RETREATS, 1902).events


def test_a_condition_that_still_holds_changes_nothing_more(with_timeline: Write) -> None:
    variant = with_timeline(SNOWED_UKRAINE)
    position = autumn(variant, owners={"WAR": "GERMANY"})
    first = apply_hook(variant, {}, variant.map_state, position, AUTUMN, 1901)
    again = apply_hook(variant, {}, first.map_state, first.position, AUTUMN, 1902)
    assert again.events == () and again.map_state == first.map_state


def test_a_game_played_into_the_condition_changes_its_map(with_timeline: Write) -> None:
    variant = with_timeline(SNOWED_UKRAINE.replace('["WAR"]', '["GAL"]').replace("GERMANY", "AUSTRIA"))
    spring = play_phase(variant, variant.map_state, variant.start, {"AUSTRIA": ["A VIE - GAL"]})
    assert spring.map_state.terrain["UKR"] is Terrain.LAND  # the hook is the Autumn's
    autumn_turn = play_phase(variant, spring.map_state, spring.position, {"AUSTRIA": ["A GAL H"]})
    assert autumn_turn.map_state.terrain["UKR"] is Terrain.IMPASSABLE


def test_the_timeline_in_words_says_the_condition(with_timeline: Write) -> None:
    variant = with_timeline(SNOWED_UKRAINE + "year = 1903\n")
    assert describe(variant, {})[-1] == (
        "From 1903, after the Autumn retreats, when GERMANY controls WAR: UKR becomes impassable"
    )


@pytest.mark.parametrize(
    ("when", "message"),
    [
        ('when = { controls = ["WAR"], power = "PRUSSIA" }', "'PRUSSIA' is not a power"),
        ('when = { controls = ["XYZ"] }', "'XYZ' is not a province"),
        ('when = { controls = ["WAR"], centres = 3 }', "exactly one of"),
        ("when = { centres = 0 }", "centres is a whole number"),
        ('when = { colour = "red" }', r"unknown key\(s\) \['colour'\]"),
        ("when = { centres = 3 }\nchance = { 1902 = 50, 1903 = 100 }", "not by chance"),
    ],
)
def test_a_broken_condition_says_where_and_what(with_timeline: Write, when: str, message: str) -> None:
    text = SNOWED_UKRAINE.replace('when = { controls = ["WAR"], power = "GERMANY" }', when)
    with pytest.raises(TimelineError, match=f"event 1: .*{message}"):
        with_timeline(text)


def test_until_belongs_to_a_conditional_event(with_timeline: Write) -> None:
    with pytest.raises(TimelineError, match="'until' is the last year of an event with 'when'"):
        with_timeline(
            SNOWED_UKRAINE.replace(
                'when = { controls = ["WAR"], power = "GERMANY" }', "year = 1903\nuntil = 1905"
            )
        )
