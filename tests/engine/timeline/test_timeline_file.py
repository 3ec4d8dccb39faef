"""A broken timeline.toml is refused with a message naming the file, the event and the problem."""

from __future__ import annotations

from pathlib import Path

import pytest

from dipserver.engine.timeline import Change, Hook, TimelineError, load_timeline
from dipserver.engine.variant import Variant

GOOD_EVENT = 'year = 1903\nhook = "after_fall_retreats"\nchange = "impassable"\nprovinces = ["BAR"]\n'


def timeline_from(variant: Variant, tmp_path: Path, text: str) -> None:
    folder = tmp_path / variant.slug
    folder.mkdir(exist_ok=True)
    (folder / "timeline.toml").write_text(text)
    load_timeline(variant, root=tmp_path)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "[[events]]\n" + GOOD_EVENT.replace('"BAR"', '"XYZ"'),
            "event 1: 'XYZ' is not a province of wall_of_ice",
        ),
        (
            "[[events]]\n" + GOOD_EVENT.replace('"impassable"', '"melt"'),
            r"event 1: change 'melt' is not one of \['land', 'sea'",
        ),
        (
            "[[events]]\n" + GOOD_EVENT.replace("after_fall", "after_lunch"),
            r"event 1: hook 'after_lunch_retreats'; hooks are \['after_spring_retreats'",
        ),
        (
            "[[events]]\n" + GOOD_EVENT + "chance = { 1902 = 25, 1903 = 100 }\n",
            "give either 'year' or 'chance'",
        ),
        (
            "[[events]]\n" + GOOD_EVENT.replace("year = 1903\n", "chance = { 1902 = 25, 1903 = 75 }\n"),
            "chances are cumulative per cent, rising to 100",
        ),
        (
            ("[[events]]\n" + GOOD_EVENT.replace("year = 1903\n", "chance = { 1902 = 25, 1903 = 100 }\n"))
            * 2,
            "event 2: impassable:BAR is already drawn by event 1",
        ),
        ("[[events]]\n" + GOOD_EVENT + 'if = "errata"\n', "'if' names 'errata', which is not an option"),
        ("[[events]]\n" + GOOD_EVENT + 'colour = "red"\n', r"event 1: unknown key\(s\) \['colour'\]"),
        ('[settings]\nsc_owner = "strongest"\n', r"sc_owner must be one of \['occupant', 'deluge_chain'\]"),
        ("[oops]\n", r"unknown top-level key\(s\) \['oops'\]"),
        ("[[events]\n", "not valid TOML"),
        ('[coast_names]\nTUS = { XC = ["VEN"] }\n', "coast 'XC' is not one of NC, SC, EC, WC"),
        ('[territories]\nATLANTIS = ["TUS"]\n', "'ATLANTIS' is not a power of wall_of_ice"),
        ("[orders]\nteleport = true\n", r"\[orders\] takes convert_to_army, convert_to_fleet, stay_fleet"),
        (
            '[defaults]\nhook = "after_fall_retreats"\n[[events]]\nyear = 1905\nchange = "sc_loss_all"\n'
            'provinces = ["TUN"]\n',
            "lists the survivors in 'except'",
        ),
        (
            '[[events]]\nyear = 1905\nchange = "sc_loss"\nprovinces = ["TUN"]\n',
            r"event 1: no hook \(give hook =",
        ),
    ],
)
def test_a_broken_timeline_says_where_and_what(
    wall_of_ice: Variant, tmp_path: Path, text: str, message: str
) -> None:
    with pytest.raises(TimelineError, match=message) as caught:
        timeline_from(wall_of_ice, tmp_path, text)
    assert str(caught.value).startswith(str(tmp_path / "wall_of_ice" / "timeline.toml"))


def test_a_variant_without_a_timeline_never_changes(standard: Variant) -> None:
    timeline = load_timeline(standard)
    assert timeline.events == () and timeline.orders == frozenset()


def test_the_real_timelines_load(wall_of_ice: Variant, sahara: Variant, deluge: Variant) -> None:
    counts = {v.slug: len(load_timeline(v).events) for v in (wall_of_ice, sahara, deluge)}
    assert counts == {"wall_of_ice": 18, "sahara": 43, "deluge": 16}
    assert {e.hook for e in load_timeline(deluge).events} == {
        Hook.BEFORE_WINTER_ADJUSTMENTS,
        Hook.AFTER_WINTER_ADJUSTMENTS,
    }
    assert {e.change for e in load_timeline(wall_of_ice).events} == {
        Change.IMPASSABLE,
        Change.SC_GAIN,
        Change.SC_LOSS,
    }
