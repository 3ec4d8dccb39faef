"""The studio's publishing API: publish, list, read, export, unpublish, and every refusal."""

from __future__ import annotations

import io
import zipfile

import pytest

from tests.api.conftest import client_for
from tests.factories import AdminFactory, GameMasterFactory, UserFactory
from tests.studio.conftest import small_draft

VERSIONS = "/api/v1/studio/versions"


def code_of(response) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def publish(api, draft):
    return api.post(f"/api/v1/studio/drafts/{draft.id}/publish", {"revision": draft.revision}, format="json")


@pytest.fixture
def version(api, gm):
    response = publish(api, small_draft(gm))
    assert response.status_code == 201, response.json()
    return response.json()


def test_publishing(version):
    assert version["slug"] == "small" and version["number"] == 1 and version["published"] is True


def test_publishing_a_draft_with_problems(api, gm):
    draft = small_draft(gm)
    draft.data["map"]["provinces"]["ALP"]["sc"] = False
    draft.save()
    response = publish(api, draft)
    assert code_of(response) == (422, "check_failed")
    assert response.json()["error"]["problems"][0]["provinces"] == ["ALP"]


def test_publishing_unchanged_files_again(api, gm, version):
    from dipserver.studio.models import Draft

    assert code_of(publish(api, Draft.objects.get(slug="small"))) == (409, "unchanged")


def test_publishing_a_stale_revision(api, gm):
    draft = small_draft(gm)
    draft.revision -= 1
    assert code_of(publish(api, draft)) == (409, "stale_revision")


def test_publishing_someone_elses_draft(gm):
    draft = small_draft(gm)
    other = client_for(GameMasterFactory(username="other"))
    assert code_of(publish(other, draft)) == (404, "not_found")


def test_publishing_is_for_game_masters(gm):
    draft = small_draft(gm)
    assert code_of(publish(client_for(UserFactory(username="plain")), draft)) == (403, "not_game_master")


def test_publishing_needs_a_login(gm):
    assert publish(client_for(), small_draft(gm)).status_code == 401


def test_anyone_lists_and_reads_published_versions(version):
    anyone = client_for()
    assert [v["slug"] for v in anyone.get(VERSIONS).json()["results"]] == ["small"]
    detail = anyone.get(f"{VERSIONS}/{version['id']}").json()
    assert "small/map.toml" in detail["files"] and detail["geometry"]["width"] == 300


def test_a_missing_version(db):
    assert code_of(client_for().get(f"{VERSIONS}/999")) == (404, "not_found")


def test_exporting_a_version(version):
    response = client_for().get(f"{VERSIONS}/{version['id']}/package")
    assert response.status_code == 200
    assert "small/variant.toml" in zipfile.ZipFile(io.BytesIO(response.content)).namelist()


def test_a_site_admin_unpublishes(version):
    admin = client_for(AdminFactory(username="admin"))
    response = admin.post(f"{VERSIONS}/{version['id']}/unpublish", format="json")
    assert response.status_code == 200 and response.json()["published"] is False
    assert client_for().get(VERSIONS).json()["results"] == []
    assert code_of(client_for().get(f"{VERSIONS}/{version['id']}")) == (404, "not_found")


def test_unpublishing_twice(version):
    admin = client_for(AdminFactory(username="admin"))
    admin.post(f"{VERSIONS}/{version['id']}/unpublish", format="json")
    assert code_of(admin.post(f"{VERSIONS}/{version['id']}/unpublish", format="json")) == (
        409,
        "not_published",
    )


def test_unpublishing_is_for_site_admins(api, version):
    assert code_of(api.post(f"{VERSIONS}/{version['id']}/unpublish", format="json")) == (
        403,
        "not_site_admin",
    )


def test_unpublishing_a_missing_version(db):
    admin = client_for(AdminFactory(username="admin"))
    assert code_of(admin.post(f"{VERSIONS}/999/unpublish", format="json")) == (404, "not_found")


def test_a_new_draft_from_a_version(api, version):
    response = api.post(
        "/api/v1/studio/drafts", {"slug": "small-next", "from_version": version["id"]}, format="json"
    )
    assert response.status_code == 201 and response.json()["tables"]["variant"]["name"] == "Small"


def test_a_game_of_a_published_version(version):
    api = client_for(UserFactory(username="creator"))
    response = api.post(
        "/api/v1/games", {"name": "Small game", "studio_version": version["id"]}, format="json"
    )
    assert response.status_code == 201 and response.json()["variant"] == "small"


def test_a_game_of_an_unpublished_version(version):
    client_for(AdminFactory(username="admin")).post(f"{VERSIONS}/{version['id']}/unpublish", format="json")
    api = client_for(UserFactory(username="creator"))
    response = api.post("/api/v1/games", {"name": "Late", "studio_version": version["id"]}, format="json")
    assert code_of(response) == (404, "not_found")


def test_a_game_names_a_variant_or_a_studio_version_not_both(version):
    api = client_for(UserFactory(username="creator"))
    body = {"name": "Both", "variant": "standard", "studio_version": version["id"]}
    assert code_of(api.post("/api/v1/games", body, format="json")) == (422, "refused")
    assert code_of(api.post("/api/v1/games", {"name": "None"}, format="json")) == (422, "refused")


def test_a_studio_games_pictures_use_the_imported_drawing(version):
    api = client_for(UserFactory(username="creator"))
    game = api.post(
        "/api/v1/games", {"name": "Small game", "studio_version": version["id"]}, format="json"
    ).json()
    for name in ("red", "blue"):
        client_for(UserFactory(username=name)).post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    geometry = client_for().get(f"/api/v1/games/{game['id']}/geometry").json()
    assert geometry["width"] == 300 and set(geometry["provinces"]) >= {"ALP", "NTH"}
    picture = client_for().get(f"/api/v1/games/{game['id']}/phases/0/map.svg")
    assert picture.status_code == 200 and b"<svg" in picture.content


def test_a_staff_member_who_is_no_game_master_may_not_publish(gm):
    draft = small_draft(gm)
    staff = UserFactory(username="staff", is_staff=True)
    assert code_of(publish(client_for(staff), draft)) == (403, "not_game_master")
    assert code_of(client_for(staff).post("/api/v1/studio/drafts", {"slug": "mine"}, format="json")) == (
        403,
        "not_game_master",
    )


def test_a_staff_member_who_is_no_game_master_unpublishes(version):
    staff = client_for(UserFactory(username="staff", is_staff=True))
    response = staff.post(f"{VERSIONS}/{version['id']}/unpublish", format="json")
    assert response.status_code == 200 and response.json()["published"] is False


def test_the_author_may_not_unpublish_their_own_version(api, version):
    assert code_of(api.post(f"{VERSIONS}/{version['id']}/unpublish", format="json")) == (
        403,
        "not_site_admin",
    )
