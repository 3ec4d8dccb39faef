"""A newer version of a studio variant is offered to a running game by its game master: the differences
are previewed, and it is applied at the start of the open phase only when the game's position and the
orders given fit the new version; the game records the change."""

from __future__ import annotations

import json
from typing import Any

import pytest

from dipserver.engine import load_variant_from_sources
from dipserver.games.errors import GameError
from dipserver.games.models import Game, Phase, VersionChange
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.phases import phase_process
from dipserver.games.services.transfer import game_export, game_import, game_replay
from dipserver.games.services.versions import (
    carried_over,
    version_apply,
    version_changes,
    version_preview,
    versions_offered,
)
from dipserver.games.variants import game_variant
from dipserver.studio import services
from tests.factories import AdminFactory, GameFactory
from tests.studio.conftest import START, small_draft


def republished(gm: Any, draft: Any, edit: Any) -> Any:
    """The draft edited by ``edit(tables)`` and published as its next version."""
    draft.refresh_from_db()
    edit(draft.data)
    draft = services.draft_save(user=gm, draft_id=draft.id, data=draft.data, revision=draft.revision)
    return services.version_publish(user=gm, draft_id=draft.id, revision=draft.revision)


def without_ess(tables: dict[str, Any]) -> None:
    provinces = tables["map"]["provinces"]
    del provinces["ESS"]
    for spec in provinces.values():
        spec["borders"] = [b for b in spec.get("borders", []) if b != "ESS"]


def alp_apart_from_dal(tables: dict[str, Any]) -> None:
    provinces = tables["map"]["provinces"]
    provinces["ALP"]["borders"] = [b for b in provinces["ALP"]["borders"] if b != "DAL"]
    provinces["DAL"]["borders"] = [b for b in provinces["DAL"]["borders"] if b != "ALP"]


def five_to_win(tables: dict[str, Any]) -> None:
    tables["variant"]["victory"]["centres"] = 5


@pytest.fixture
def first(gm):
    draft = small_draft(gm)
    return services.version_publish(user=gm, draft_id=draft.id, revision=draft.revision)


def refusal(call: Any, **kwargs: Any) -> GameError:
    with pytest.raises(GameError) as refused:
        call(**kwargs)
    return refused.value


def test_newer_published_versions_are_offered(gm, game, first):
    second = republished(gm, first.draft, five_to_win)
    assert versions_offered(game=game) == [second]


def test_a_game_on_the_newest_version_is_offered_none(game):
    assert versions_offered(game=game) == []


def test_the_preview_lists_what_changes(gm, game, first):
    second = republished(gm, first.draft, without_ess)
    preview = version_preview(game_id=game.id, version_id=second.id)
    assert preview.diff["provinces"]["removed"] == ["ESS"]
    assert preview.diff["centres"]["removed"] == ["ESS"]
    assert ["DAL", "ESS"] in preview.diff["adjacencies"]["removed"]
    assert preview.diff["same"] is False and preview.problems == () and preview.phase == "S1901M"


def test_the_preview_shows_a_victory_change(gm, game, first):
    second = republished(gm, first.draft, five_to_win)
    victory = version_preview(game_id=game.id, version_id=second.id).diff["victory"]
    assert victory["from"]["centres"] == 4 and victory["to"]["centres"] == 5


def test_the_preview_shows_a_new_timeline_event(gm, game, first):
    event = {"year": 1903, "hook": "after_fall_retreats", "change": "impassable", "provinces": ["FAR"]}
    second = republished(gm, first.draft, lambda t: t.update(timeline={"events": [event]}))
    added = version_preview(game_id=game.id, version_id=second.id).diff["timeline"]["added"]
    assert [(row["year"], row["change"], row["provinces"]) for row in added] == [
        (1903, "impassable", ["FAR"])
    ]


def test_applying_moves_the_game_and_its_open_phase(gm, game, first):
    second = republished(gm, first.draft, five_to_win)
    version_apply(game_id=game.id, version_id=second.id, phase_name="S1901M", user=gm)
    game.refresh_from_db()
    phase = Phase.objects.get(id=game.current_phase_id)
    assert game.studio_version == second and game_variant(game).victory_centres == 5
    assert phase.variant_version == second.version == game.variant_version


def test_the_change_is_recorded_in_the_games_history(gm, game, first):
    second = republished(gm, first.draft, five_to_win)
    version_apply(game_id=game.id, version_id=second.id, phase_name="S1901M", user=gm)
    (change,) = version_changes(game=game)
    assert (change.from_version["id"], change.to_version["id"], change.by) == (first.id, second.id, gm)
    assert change.phase_name == "S1901M" and change.diff["victory"]["to"]["centres"] == 5


def test_a_removed_province_leaves_the_map(gm, game, first):
    second = republished(gm, first.draft, without_ess)
    version_apply(game_id=game.id, version_id=second.id, phase_name="S1901M", user=gm)
    snapshot = Phase.objects.get(game=game, index=0).snapshot
    assert "ESS" not in snapshot["map"]["terrain"] and "ESS" not in snapshot["map"]["supply_centres"]


def test_a_unit_on_a_province_the_new_version_removes_refuses_it(gm, game, first):
    second = republished(gm, first.draft, without_ess)
    phase = Phase.objects.get(game=game, index=0)
    phase.snapshot["units"].append({"power": "RED", "type": "A", "location": "ESS"})
    phase.save(update_fields=["snapshot"])
    preview = version_preview(game_id=game.id, version_id=second.id)
    assert [p["provinces"] for p in preview.problems] == [["ESS"]]
    refused = refusal(version_apply, game_id=game.id, version_id=second.id, phase_name="S1901M", user=gm)
    assert refused.code == "position_invalid" and "ESS" in str(refused)
    game.refresh_from_db()
    assert game.studio_version == first and not VersionChange.objects.exists()


def test_orders_the_new_version_no_longer_reads_refuse_it(gm, game, first):
    second = republished(gm, first.draft, alp_apart_from_dal)
    red = game.powers.get(name="RED").user
    assert orders_submit(game_id=game.id, user=red, text="A ALP - DAL", phase="S1901M", now=START).accepted
    refused = refusal(version_apply, game_id=game.id, version_id=second.id, phase_name="S1901M", user=gm)
    assert refused.code == "position_invalid" and "RED" in str(refused)


def test_a_stale_phase_is_refused(gm, game, first):
    second = republished(gm, first.draft, five_to_win)
    refused = refusal(version_apply, game_id=game.id, version_id=second.id, phase_name="F1901M", user=gm)
    assert refused.code == "conflict"


def test_an_older_or_the_same_version_is_refused(gm, game, first):
    second = republished(gm, first.draft, five_to_win)
    version_apply(game_id=game.id, version_id=second.id, phase_name="S1901M", user=gm)
    assert refusal(version_preview, game_id=game.id, version_id=first.id).code == "not_newer"
    assert refusal(version_preview, game_id=game.id, version_id=second.id).code == "not_newer"


def test_a_version_of_another_variant_is_refused(gm, game):
    other = small_draft(gm, slug="other")
    other_version = services.version_publish(user=gm, draft_id=other.id, revision=other.revision)
    assert refusal(version_preview, game_id=game.id, version_id=other_version.id).code == "other_variant"


def test_a_game_of_an_installed_variant_is_offered_nothing(gm, first):
    game = GameFactory(name="Standard", masters=[gm])
    assert versions_offered(game=game) == []
    assert refusal(version_preview, game_id=game.id, version_id=first.id).code == "other_variant"


def test_a_finished_game_is_refused(gm, game, first):
    second = republished(gm, first.draft, five_to_win)
    Game.objects.filter(id=game.id).update(status=Game.Status.FINISHED)
    refused = refusal(version_apply, game_id=game.id, version_id=second.id, phase_name="S1901M", user=gm)
    assert refused.code == "not_in_play"


def test_an_unpublished_version_is_not_offered(gm, game, first):
    second = republished(gm, first.draft, five_to_win)
    services.version_unpublish(user=AdminFactory(username="admin"), version_id=second.id)
    assert versions_offered(game=game) == []
    assert refusal(version_preview, game_id=game.id, version_id=second.id).code == "not_found"


def test_a_forming_game_moves_before_it_starts(gm, first):
    game = GameFactory(name="Forming", variant="", studio_version=first.id, masters=[gm])
    second = republished(gm, first.draft, five_to_win)
    version_apply(game_id=game.id, version_id=second.id, phase_name=None, user=gm)
    game.refresh_from_db()
    assert game.studio_version == second


def test_the_game_plays_on_after_the_change(gm, game, first):
    second = republished(gm, first.draft, five_to_win)
    version_apply(game_id=game.id, version_id=second.id, phase_name="S1901M", user=gm)
    game.refresh_from_db()
    assert phase_process(phase_id=game.current_phase_id, force=True) == "processed"
    game.refresh_from_db()
    assert Phase.objects.get(id=game.current_phase_id).variant_version == second.version


def test_the_history_replays_across_the_change(gm, game, first):
    second = republished(gm, first.draft, without_ess)
    assert phase_process(phase_id=game.current_phase_id, force=True) == "processed"
    game.refresh_from_db()
    name = Phase.objects.get(id=game.current_phase_id).name
    version_apply(game_id=game.id, version_id=second.id, phase_name=name, user=gm)
    game.refresh_from_db()
    assert phase_process(phase_id=game.current_phase_id, force=True) == "processed"
    assert game_replay(game_id=game.id) == []


def test_a_correction_reaches_the_map_where_play_left_it_alone(gm, game, first):
    def far_impassable(tables: dict[str, Any]) -> None:
        tables["map"]["provinces"]["FAR"]["terrain"] = "impassable"
        tables["map"]["provinces"]["FAR"]["sc"] = False

    second = republished(gm, first.draft, far_impassable)
    old, new = game_variant(game), load_variant_from_sources(second.slug, second.files)
    snapshot = Phase.objects.get(game=game, index=0).snapshot
    moved, problems = carried_over(snapshot, old, new)
    assert moved["map"]["terrain"]["FAR"] == "impassable" and problems == []
    snapshot["map"]["terrain"]["FAR"] = "sea"  # as if a timeline event had flooded it
    assert carried_over(snapshot, old, new)[0]["map"]["terrain"]["FAR"] == "sea"


def test_an_exported_game_keeps_its_changes_and_replays(gm, game, first):
    second = republished(gm, first.draft, without_ess)
    version_apply(game_id=game.id, version_id=second.id, phase_name="S1901M", user=gm)
    game.refresh_from_db()
    assert phase_process(phase_id=game.current_phase_id, force=True) == "processed"
    copy = game_import(data=json.loads(json.dumps(game_export(game_id=game.id))))
    (change,) = version_changes(game=copy)
    assert (change.from_version["number"], change.to_version["number"], change.by) == (1, 2, gm)
    assert game_replay(game_id=copy.id) == []


def without_dal(tables: dict[str, Any]) -> None:
    provinces = tables["map"]["provinces"]
    del provinces["DAL"]
    for spec in provinces.values():
        spec["borders"] = [b for b in spec.get("borders", []) if b != "DAL"]


def red_orders(game: Game, text: str) -> None:
    red = game.powers.get(name="RED").user
    assert orders_submit(game_id=game.id, user=red, text=text, phase="S1901M", now=START).accepted


def test_the_preview_names_an_order_the_new_map_no_longer_allows(gm, game, first):
    second = republished(gm, first.draft, alp_apart_from_dal)
    red_orders(game, "A ALP - DAL")
    [problem] = version_preview(game_id=game.id, version_id=second.id).problems
    assert {k: problem[k] for k in ("code", "power", "order", "provinces")} == {
        "code": "order_refused",
        "power": "RED",
        "order": "A ALP - DAL",
        "provinces": ["ALP", "DAL"],
    }
    assert problem["reason"] and problem["reason"] in problem["message"]


def test_the_preview_names_an_order_naming_a_province_the_new_map_removes(gm, game, first):
    second = republished(gm, first.draft, without_dal)
    red_orders(game, "A ALP - DAL")
    [problem] = version_preview(game_id=game.id, version_id=second.id).problems
    assert (problem["code"], problem["power"]) == ("order_province_removed", "RED")
    assert problem["order"] == "A ALP - DAL"
    assert problem["provinces"] == ["ALP", "DAL"] and problem["reason"]


def test_the_preview_leaves_out_the_orders_the_new_map_still_takes(gm, game, first):
    second = republished(gm, first.draft, alp_apart_from_dal)
    red_orders(game, "A ALP - BRE")
    assert version_preview(game_id=game.id, version_id=second.id).problems == ()


def test_the_refusal_carries_each_problem_as_data(gm, game, first):
    second = republished(gm, first.draft, alp_apart_from_dal)
    red_orders(game, "A ALP - DAL")
    refused = refusal(version_apply, game_id=game.id, version_id=second.id, phase_name="S1901M", user=gm)
    assert [(p["code"], p["order"]) for p in refused.problems] == [("order_refused", "A ALP - DAL")]


def test_a_unit_the_new_map_cannot_hold_is_a_problem_with_its_code(gm, game, first):
    second = republished(gm, first.draft, without_ess)
    phase = Phase.objects.get(game=game, index=0)
    phase.snapshot["units"].append({"power": "RED", "type": "A", "location": "ESS"})
    phase.save(update_fields=["snapshot"])
    [problem] = version_preview(game_id=game.id, version_id=second.id).problems
    assert (problem["code"], problem["provinces"]) == ("province_removed", ["ESS"])
