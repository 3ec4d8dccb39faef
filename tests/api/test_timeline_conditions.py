"""``GET .../timeline``'s ``conditions``: the map changes that come when a condition on the game holds
(``when`` in the timeline), each with its condition, whether it holds on the board now and whether its
change is on the map already. The game here
plays a copy of the standard map given a conditional timeline."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from dipserver.engine import variant as variant_module
from dipserver.engine import variantcache
from dipserver.games import variants as game_variants
from tests.api.conftest import client_for, start_game
from tests.api.test_coming import set_up

SNOWED_UKRAINE = """
[[events]]
hook = "after_fall_retreats"
change = "impassable"
provinces = ["UKR"]
when = { controls = ["WAR"], power = "GERMANY" }
year = 1903
"""


@pytest.fixture
def conditional_standard(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``variants/`` copied, the standard map given ``SNOWED_UKRAINE`` as its timeline."""
    root = tmp_path / "variants"
    shutil.copytree(variant_module.VARIANTS_DIR, root)
    (root / "standard" / "timeline.toml").write_text(SNOWED_UKRAINE)
    monkeypatch.setattr(variantcache, "VARIANTS_ROOT", str(root))  # the loader's, the sources' and timelines'
    yield
    variantcache._load_cached.cache_clear()
    game_variants._archived.cache_clear()


def conditions(game_id: int) -> list[dict]:
    answer = client_for().get(f"/api/v1/games/{game_id}/timeline")
    assert answer.status_code == 200, answer.content[:300]
    return answer.json()["conditions"]


def test_a_conditional_change_is_listed_with_its_condition(conditional_standard, players, master) -> None:
    game = start_game(players, master, variant="standard")
    assert conditions(game.id) == [
        {
            "event": 1,
            "hook": "after_fall_retreats",
            "change": "impassable",
            "provinces": ["UKR"],
            "from_year": 1903,
            "until_year": None,
            "condition": {"kind": "controls", "power": "GERMANY", "provinces": ["WAR"], "centres": None},
            "words": (
                "From 1903, after the Autumn retreats, when GERMANY controls WAR: UKR becomes impassable"
            ),
            "holds": False,
            "made": False,
        }
    ]


def test_a_condition_that_holds_on_the_board_says_so(conditional_standard, players, master) -> None:
    game = start_game(players, master, variant="standard")
    set_up(game, "F1903M", "GERMANY A WAR", owners={"GERMANY": ["WAR", "BER"]})
    [row] = conditions(game.id)
    assert row["holds"] is True
    assert row["made"] is False


def test_a_condition_whose_change_is_on_the_map_is_made_and_fires_no_more(
    conditional_standard, players, master
) -> None:
    game = start_game(players, master, variant="standard")
    set_up(game, "S1904M", "GERMANY A WAR", owners={"GERMANY": ["WAR", "BER"]})
    phase = game.current_phase
    phase.snapshot["map"]["terrain"]["UKR"] = "impassable"  # it fired after the Autumn of 1903
    phase.save(update_fields=["snapshot"])

    [row] = conditions(game.id)

    assert (row["holds"], row["made"]) == (True, True)


def test_a_timeline_without_conditions_lists_none(players, master) -> None:
    game = start_game(players, master, variant="sahara")
    assert conditions(game.id) == []
