"""The demo games `./dip serve` seeds: named after their variants, seeded once however often it runs."""

from __future__ import annotations

import pytest

from dipserver.games import demo
from dipserver.games.demo import DemoGame, demo_games_seed, demo_specs
from dipserver.games.models import Game


def test_demo_games_are_named_after_their_variants():
    names = [spec.name for spec in demo_specs()]

    assert "Demo: Wall of Ice" in names and "Demo: Wall Of Ice" not in names
    assert "Demo: Ice Lords" in names and "Demo: Standard with supply lines" in names


@pytest.fixture
def only_wall_of_ice(monkeypatch):
    spec = next(s for s in demo_specs() if s.variant == "wall_of_ice")
    monkeypatch.setattr(demo, "demo_specs", lambda: [spec])
    return spec


def test_a_game_seeded_under_the_old_name_is_renamed_not_seeded_again(users, only_wall_of_ice: DemoGame):
    demo_games_seed(game_master=users[0], players=users[:7])
    Game.objects.filter(variant="wall_of_ice").update(name="Demo: Wall Of Ice")  # as older runs named it

    lines = demo_games_seed(game_master=users[0], players=users[:7])

    assert list(Game.objects.values_list("name", flat=True)) == ["Demo: Wall of Ice"]
    assert lines[0].startswith("Demo: Wall of Ice (#")


def test_seeding_twice_changes_nothing(users, only_wall_of_ice: DemoGame):
    demo_games_seed(game_master=users[0], players=users[:7])
    before = list(Game.objects.values_list("id", "name", "current_phase__name"))

    demo_games_seed(game_master=users[0], players=users[:7])

    assert list(Game.objects.values_list("id", "name", "current_phase__name")) == before
