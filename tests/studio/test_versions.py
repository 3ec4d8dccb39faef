"""Publishing freezes a checked draft as the next version of its slug; site admins unpublish."""

from __future__ import annotations

import pytest

from dipserver.engine import load_variant_from_sources
from dipserver.studio import services
from dipserver.studio.errors import StudioError
from dipserver.studio.models import VariantVersion
from dipserver.studio.selectors import version_published, versions_visible
from tests.factories import AdminFactory, GameMasterFactory, UserFactory
from tests.studio.conftest import small_draft


def refusal(call, **kwargs) -> StudioError:
    with pytest.raises(StudioError) as refused:
        call(**kwargs)
    return refused.value


@pytest.fixture
def published(gm):
    draft = small_draft(gm)
    return services.version_publish(user=gm, draft_id=draft.id, revision=draft.revision)


def test_publishing_freezes_the_files_the_engine_loads(published):
    variant = load_variant_from_sources(published.slug, published.files)
    assert variant.version == published.version and published.number == 1
    assert sorted(variant.powers) == ["BLUE", "RED"]


def test_the_drawing_is_frozen_with_the_files(published):
    assert set(published.geometry["provinces"]) == {"ALP", "BRE", "COR", "DAL", "ESS", "FAR", "NTH"}


def test_a_version_never_changes_after_it_is_published(published):
    published.files = {}
    with pytest.raises(ValueError, match="frozen"):
        published.save()
    assert VariantVersion.objects.get(id=published.id).files != {}


def test_editing_the_draft_does_not_change_the_version(gm, published):
    draft = published.draft
    draft.data["variant"]["name"] = "Renamed"
    services.draft_save(user=gm, draft_id=draft.id, data=draft.data, revision=draft.revision)
    assert VariantVersion.objects.get(id=published.id).name == "Small"


def test_the_next_publication_is_the_next_version(gm, published):
    draft = published.draft
    draft.data["variant"]["victory"]["centres"] = 5
    draft = services.draft_save(user=gm, draft_id=draft.id, data=draft.data, revision=draft.revision)
    second = services.version_publish(user=gm, draft_id=draft.id, revision=draft.revision)
    assert second.number == 2 and second.version != published.version
    assert version_published("small") == second


def test_publishing_the_same_files_again_is_refused(gm, published):
    draft = published.draft
    assert (
        refusal(services.version_publish, user=gm, draft_id=draft.id, revision=draft.revision).code
        == "unchanged"
    )


def test_publishing_a_stale_revision_is_refused(gm):
    draft = small_draft(gm)
    assert refusal(services.version_publish, user=gm, draft_id=draft.id, revision=1).code == "stale_revision"


def test_only_game_masters_publish(gm, player):
    draft = small_draft(gm)
    assert (
        refusal(services.version_publish, user=player, draft_id=draft.id, revision=draft.revision).code
        == "not_game_master"
    )


def test_another_authors_slug_cannot_be_published(published):
    other = GameMasterFactory(username="other")
    assert refusal(services.draft_create, user=other, slug="small", name="Mine").code == "slug_taken"


def test_a_site_admin_unpublishes(published):
    admin = AdminFactory(username="admin")
    version = services.version_unpublish(user=admin, version_id=published.id)
    assert not version.published and version.unpublished_by == admin
    assert version_published("small") is None


def test_a_game_master_who_is_not_a_site_admin_may_not_unpublish(gm, published):
    assert refusal(services.version_unpublish, user=gm, version_id=published.id).code == "not_site_admin"


def test_unpublishing_twice_is_refused(published):
    admin = AdminFactory(username="admin")
    services.version_unpublish(user=admin, version_id=published.id)
    assert refusal(services.version_unpublish, user=admin, version_id=published.id).code == "not_published"


def test_an_unpublished_version_shows_only_to_its_author_and_admins(gm, published):
    services.version_unpublish(user=AdminFactory(username="admin"), version_id=published.id)
    assert list(versions_visible(UserFactory(username="someone"))) == []
    assert list(versions_visible(gm)) == [published]


def test_a_new_draft_from_a_version_has_its_tables_and_drawing(gm, published):
    draft = services.draft_from_version(user=gm, version_id=published.id, slug="small-two")
    assert draft.data["map"] == published.draft.data["map"] and draft.geometry == published.geometry
