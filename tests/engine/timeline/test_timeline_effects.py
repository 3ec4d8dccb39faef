"""A timeline change that can never apply in any game is an error of the timeline file, naming the file and
the entry: from ``check`` and wherever the variant's timeline is loaded. Each case is a copy of the standard
variant with a small timeline.toml of its own, written under tmp_path."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from dipserver.adjudicator.cli import main
from dipserver.engine.timeline import TimelineError, load_timeline
from dipserver.engine.variant import VARIANTS_DIR, load_variant


def event(change: str, provinces: list[str], year: int = 1903, hook: str = "after_fall_retreats") -> str:
    listed = ", ".join(f'"{p}"' for p in provinces)
    return f'[[events]]\nyear = {year}\nhook = "{hook}"\nchange = "{change}"\nprovinces = [{listed}]\n'


@pytest.fixture
def with_timeline(tmp_path: Path) -> Callable[[str], Path]:
    """``with_timeline(text)``: a copy of the standard variant whose timeline.toml is ``text``; its folder."""
    count = 0

    def write(text: str) -> Path:
        nonlocal count
        count += 1  # a fresh root each time: variants and timelines are cached by where they are read
        folder = tmp_path / str(count) / "standard"
        shutil.copytree(VARIANTS_DIR / "standard", folder)
        (folder / "timeline.toml").write_text(text)
        return folder

    return write


def refusal(folder: Path) -> str:
    with pytest.raises(TimelineError) as caught:
        load_timeline(load_variant(folder.name, folder.parent), folder.parent)
    return str(caught.value)


NEVER = [
    (event("sc_gain", ["NTH"]), "event 1: sc_gain NTH: it is sea from the start and no event makes it land"),
    (
        event("sc_gain", ["PAR"]),
        "event 1: sc_gain PAR: it is a supply centre from the start and no event takes",
    ),
    (event("sc_loss", ["BUR"]), "event 1: sc_loss BUR: it is not a supply centre at the start and no event"),
    (event("sea", ["NTH"]), "event 1: sea NTH: it is sea from the start and no event changes its terrain"),
    (event("land", ["BUR"]), "event 1: land BUR: it is land from the start and no event changes its terrain"),
    (
        event("impassable", ["BAR"], year=1900),
        r"event 1: 1900 after_fall_retreats comes before the game starts \(S1901M\)",
    ),
    (
        '[[events]]\nhook = "after_fall_retreats"\nchange = "impassable"\nprovinces = ["BAR"]\n'
        "chance = { 1900 = 50, 1902 = 100 }\n",
        "event 1: 1900 after_fall_retreats comes before the game starts",
    ),
    (
        event("impassable", ["BAR"]) + '[[events]]\nyear = 1905\nhook = "after_fall_retreats"\n'
        'change = "sc_loss_all"\nexcept = ["PAR", "GAL"]\n',
        "event 2: sc_loss_all GAL: it is not a supply centre at the start and no event makes it one",
    ),
]


@pytest.mark.parametrize(("text", "message"), NEVER)
def test_a_change_that_can_never_apply_is_refused_naming_the_file_and_the_entry(
    with_timeline: Callable[[str], Path], text: str, message: str
) -> None:
    folder = with_timeline(text)
    found = refusal(folder)
    assert found.startswith(f"{folder / 'timeline.toml'}: ")
    assert re.search(message, found), found


POSSIBLE = [
    event("land", ["NTH"], year=1902) + event("sc_gain", ["NTH"]),  # land first: then a centre
    event("sc_gain", ["NTH"]) + event("land", ["NTH"], year=1905),  # even if it comes later: in some game
    event("sc_loss", ["PAR"], year=1902) + event("sc_gain", ["PAR"]),  # lost, then gained again
    event("sea", ["PAR"], year=1902) + event("sc_gain", ["PAR"]),  # sunk: its centre goes
    event("sc_gain", ["BUR"]) + event("sc_loss", ["BUR"], year=1905),
    event("impassable", ["NTH"], year=1902) + event("sea", ["NTH"], year=1905),  # the ice melts
    event("impassable", ["BAR"], year=1901, hook="after_spring_retreats"),  # the first hook of the game
    event("impassable", ["BAR"]) * 2,  # a repeated row (E28): the second does nothing, as in the seed tables
]


@pytest.mark.parametrize("text", POSSIBLE)
def test_a_change_some_game_can_see_apply_is_kept(with_timeline: Callable[[str], Path], text: str) -> None:
    folder = with_timeline(text)
    assert load_timeline(load_variant(folder.name, folder.parent), folder.parent).events


def test_check_reports_the_file_and_the_entry_and_exits_1(
    with_timeline: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = with_timeline(event("impassable", ["BAR"]) + event("sc_gain", ["MAO"], year=1904))
    assert main(["check", str(folder)]) == 1
    out = capsys.readouterr().out
    assert out == (
        f"{folder}: {folder / 'timeline.toml'}: event 2: sc_gain MAO: it is sea from the start and no event "
        "makes it land: a centre stands on land\n"
    )


def test_check_reads_a_sound_variant_from_its_folder(
    with_timeline: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = with_timeline(event("impassable", ["BAR"]))
    assert main(["check", str(folder)]) == 0
    assert capsys.readouterr().out.endswith("the map after each of 1 change(s) (exact mode): no problems\n")


@pytest.mark.parametrize("slug", ["wall_of_ice", "sahara", "deluge"])
def test_every_variant_of_the_repository_passes(slug: str) -> None:
    assert load_timeline(load_variant(slug)).events
