"""Drafts: only game masters write them, each is its owner's alone, saved as edited with no lost update."""

from __future__ import annotations

import pytest

from dipserver.studio import services
from dipserver.studio.errors import StudioError
from dipserver.studio.models import Draft
from dipserver.studio.selectors import draft_of, draft_report
from tests.factories import GameMasterFactory
from tests.studio.conftest import small_draft, small_map


def refusal(call, *args, **kwargs) -> StudioError:
    with pytest.raises(StudioError) as refused:
        call(*args, **kwargs)
    return refused.value


def test_a_game_master_creates_a_blank_draft(gm):
    draft = services.draft_create(user=gm, slug="mine", name="Mine")
    assert draft.owner == gm and draft.revision == 1
    assert draft.data["variant"]["name"] == "Mine"


def test_a_draft_from_an_installed_variant_extends_it(gm):
    draft = services.draft_create(user=gm, slug="mine", name="Mine", start_from="standard")
    assert draft.data == {"variant": {"base": "standard", "name": "Mine"}}
    assert draft_report(draft).ok


def test_a_player_who_is_no_game_master_may_not_create_a_draft(player):
    assert refusal(services.draft_create, user=player, slug="mine", name="Mine").code == "not_game_master"


def test_an_installed_variants_slug_is_refused(gm):
    assert refusal(services.draft_create, user=gm, slug="standard", name="X").code == "slug_taken"


def test_a_bad_slug_is_refused(gm):
    assert refusal(services.draft_create, user=gm, slug="Has Spaces", name="X").code == "invalid_data"


def test_two_drafts_of_one_owner_cannot_share_a_slug(gm):
    services.draft_create(user=gm, slug="mine", name="Mine")
    assert refusal(services.draft_create, user=gm, slug="mine", name="Again").code == "slug_taken"


def test_starting_from_a_variant_that_is_not_installed_is_refused(gm):
    assert (
        refusal(services.draft_create, user=gm, slug="x", name="X", start_from="nowhere").code
        == "unknown_variant"
    )


def test_saving_moves_the_revision_on(gm):
    draft = services.draft_create(user=gm, slug="mine", name="Mine")
    saved = services.draft_save(user=gm, draft_id=draft.id, data={"variant": {"name": "New"}}, revision=1)
    assert saved.revision == 2 and Draft.objects.get(id=draft.id).data == {"variant": {"name": "New"}}


def test_a_save_from_a_stale_tab_is_refused_and_changes_nothing(gm):
    draft = services.draft_create(user=gm, slug="mine", name="Mine")
    services.draft_save(user=gm, draft_id=draft.id, data={"variant": {"name": "First"}}, revision=1)
    assert (
        refusal(services.draft_save, user=gm, draft_id=draft.id, data={}, revision=1).code == "stale_revision"
    )
    assert Draft.objects.get(id=draft.id).data == {"variant": {"name": "First"}}


def test_another_game_masters_draft_is_as_missing_as_none(gm):
    draft = services.draft_create(user=gm, slug="mine", name="Mine")
    other = GameMasterFactory(username="other")
    assert refusal(draft_of, other, draft.id).code == "not_found"
    assert (
        refusal(services.draft_save, user=other, draft_id=draft.id, data={}, revision=1).code == "not_found"
    )
    assert refusal(services.draft_delete, user=other, draft_id=draft.id).code == "not_found"


def test_data_too_large_is_refused(gm):
    draft = services.draft_create(user=gm, slug="mine", name="Mine")
    huge = {"variant": {"description": "x" * services.MAX_DATA_BYTES}}
    assert refusal(services.draft_save, user=gm, draft_id=draft.id, data=huge, revision=1).code == "too_large"


def test_an_svg_map_gives_the_draft_its_provinces_borders_and_drawing(gm):
    draft = services.draft_create(user=gm, slug="mine", name="Mine")
    draft, warnings = services.draft_svg_import(user=gm, draft_id=draft.id, svg=small_map(), revision=1)
    assert draft.data["map"]["provinces"]["ALP"]["borders"] == ["BRE", "DAL", "NTH"]
    assert set(draft.geometry["provinces"]) == set(draft.data["map"]["provinces"])
    assert draft.svg.startswith("<svg") and warnings


def test_an_svg_map_again_keeps_what_the_game_master_wrote(gm):
    draft = small_draft(gm)
    draft, _ = services.draft_svg_import(user=gm, draft_id=draft.id, svg=small_map(), revision=draft.revision)
    assert draft.data["map"]["provinces"]["ALP"]["home"] == "RED"


def test_an_svg_map_for_a_draft_that_extends_a_variant_is_refused(gm):
    draft = services.draft_create(user=gm, slug="mine", name="Mine", start_from="standard")
    assert (
        refusal(services.draft_svg_import, user=gm, draft_id=draft.id, svg=small_map(), revision=1).code
        == "has_base"
    )


def test_a_hostile_svg_is_refused_before_the_draft_changes(gm):
    draft = services.draft_create(user=gm, slug="mine", name="Mine")
    bomb = b'<!DOCTYPE svg [<!ENTITY a "a">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>'
    assert (
        refusal(services.draft_svg_import, user=gm, draft_id=draft.id, svg=bomb, revision=1).code
        == "invalid_svg"
    )
    assert Draft.objects.get(id=draft.id).revision == 1


def test_deleting_a_draft(gm):
    draft = services.draft_create(user=gm, slug="mine", name="Mine")
    services.draft_delete(user=gm, draft_id=draft.id)
    assert not Draft.objects.filter(id=draft.id).exists()
