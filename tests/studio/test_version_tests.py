"""A published version keeps the tests its draft had: frozen with its files, in its package, shown and run
on the version (the API, the studio's list), and a draft made from the version starts with them."""

from __future__ import annotations

import io
import zipfile

import pytest

from dipserver.studio import services
from dipserver.studio.errors import StudioError
from dipserver.studio.models import VariantVersion
from dipserver.studio.package import package_bytes
from dipserver.studio.selectors import version_tests
from tests.api.conftest import client_for
from tests.studio.test_scenarios import HOLDS, with_cases

BLUE_HOLDS = {"name": "Blue holds", "units": {"BLUE": ["F COR"]}, "orders": {"BLUE": ["F COR H"]}}


@pytest.fixture
def published(gm):
    draft = with_cases(gm, HOLDS)
    return services.version_publish(user=gm, draft_id=draft.id, revision=draft.revision)


def republished(gm, version: VariantVersion, *cases) -> VariantVersion:
    draft = version.draft
    data = {**draft.data, "tests": {"scenarios": list(cases)}}
    draft = services.draft_save(user=gm, draft_id=draft.id, data=data, revision=draft.revision)
    return services.version_publish(user=gm, draft_id=draft.id, revision=draft.revision)


def test_publishing_keeps_the_drafts_tests_with_the_version(published):
    assert VariantVersion.objects.get(id=published.id).tests == {"scenarios": [HOLDS]}


def test_the_versions_tests_stay_as_published_when_the_draft_is_edited(gm, published):
    draft = published.draft
    data = {**draft.data, "tests": {"scenarios": [HOLDS, BLUE_HOLDS]}}
    services.draft_save(user=gm, draft_id=draft.id, data=data, revision=draft.revision)
    assert VariantVersion.objects.get(id=published.id).tests == {"scenarios": [HOLDS]}


def test_a_versions_tests_cannot_be_changed_after_it_is_published(published):
    published.tests = {"scenarios": []}
    with pytest.raises(ValueError, match="frozen"):
        published.save(update_fields=["tests"])


def test_new_tests_alone_are_a_new_version(gm, published):
    second = republished(gm, published, HOLDS, BLUE_HOLDS)
    assert second.number == 2 and second.version == published.version
    assert [case["name"] for case in second.tests["scenarios"]] == ["Red holds", "Blue holds"]


def test_the_same_files_and_tests_again_are_refused_as_unchanged(gm, published):
    with pytest.raises(StudioError) as refused:
        republished(gm, published, HOLDS)
    assert refused.value.code == "unchanged"


def test_a_draft_made_from_a_version_starts_with_its_tests(gm, published):
    draft = services.draft_from_version(user=gm, version_id=published.id, slug="small-next")
    assert draft.data["tests"] == {"scenarios": [HOLDS]}


def test_the_versions_package_holds_its_tests(published):
    raw = package_bytes(services.package_of_version(published))
    assert "small/tests/scenarios.toml" in zipfile.ZipFile(io.BytesIO(raw)).namelist()


def test_the_versions_tests_run_on_its_frozen_files(gm, published):
    draft = published.draft
    data = {**draft.data, "tests": {"scenarios": []}}
    data["start"] = {"units": {"RED": ["A BRE"], "BLUE": ["F COR"]}}  # the draft moves on; the version not
    services.draft_save(user=gm, draft_id=draft.id, data=data, revision=draft.revision)
    assert version_tests(VariantVersion.objects.get(id=published.id)) == [
        {"name": "Red holds", "passed": True, "failures": []}
    ]


def test_anyone_reads_and_runs_a_published_versions_tests(published):
    anonymous = client_for()
    detail = anonymous.get(f"/api/v1/studio/versions/{published.id}")
    assert detail.status_code == 200 and detail.json()["tests"] == {"scenarios": [HOLDS]}
    run = anonymous.get(f"/api/v1/studio/versions/{published.id}/tests")
    assert run.status_code == 200
    assert run.json() == {"ok": True, "tests": [{"name": "Red holds", "passed": True, "failures": []}]}


def test_a_version_published_without_tests_runs_none(gm):
    draft = with_cases(gm)
    version = services.version_publish(user=gm, draft_id=draft.id, revision=draft.revision)
    assert version.tests == {}
    assert client_for().get(f"/api/v1/studio/versions/{version.id}/tests").json() == {"ok": True, "tests": []}


def test_the_studio_lists_each_version_with_its_tests_to_run(client, gm, published):
    client.force_login(gm)
    page = client.get("/studio/").content.decode()
    link = f'href="/api/v1/studio/versions/{published.id}/tests" class="version-tests">run its 1 test<'
    assert link in page and "<li>Red holds</li>" in page


def test_a_version_whose_files_no_longer_load_says_so_rather_than_failing(published):
    files = dict.fromkeys(published.files, "not = [valid")  # as if the engine read them otherwise now
    VariantVersion.objects.filter(id=published.id).update(files=files)
    run = client_for().get(f"/api/v1/studio/versions/{published.id}/tests")
    assert run.status_code == 422
    error = run.json()["error"]
    assert error["code"] == "check_failed" and "small v1 no longer loads on this server" in error["message"]
