"""An SVG map given to a draft through the API: the request refuses at once what needs no shape read
(413, 422, 409), and otherwise answers 202 with an import job that a worker runs (eagerly in these tests)
and the studio polls; the same upload twice is one job."""

from __future__ import annotations

import pytest

from dipserver.studio import imports
from dipserver.studio.models import SvgImport
from tests.api.conftest import client_for
from tests.factories import GameMasterFactory, UserFactory
from tests.studio.conftest import small_map

DRAFTS = "/api/v1/studio/drafts"


@pytest.fixture
def draft(api):
    response = api.post(DRAFTS, {"slug": "mine", "name": "Mine"}, format="json")
    assert response.status_code == 201
    return response.json()


def upload(api, draft, svg: str | bytes | None = None, revision: int = 1, **headers):
    text = svg if isinstance(svg, str) else (svg or small_map()).decode()
    return api.post(
        f"{DRAFTS}/{draft['id']}/svg", {"svg": text, "revision": revision}, format="json", headers=headers
    )


def code_of(response) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def test_an_upload_is_answered_with_its_job(api, draft):
    response = upload(api, draft)
    body = response.json()
    assert response.status_code == 202 and response["Location"] == body["url"]
    assert body["status"] == "done" and body["draft"]["tables"]["map"]["provinces"]["NTH"]["terrain"] == "sea"
    assert "shape 'path42' is drawn as scenery: its id is not a province code" in body["warnings"]


def test_the_job_is_polled_at_its_url(api, draft):
    job = upload(api, draft).json()
    polled = api.get(job["url"]).json()
    assert polled["status"] == "done" and polled["draft"]["revision"] == 2


def test_the_request_leaves_the_reading_to_a_worker(api, draft, monkeypatch):
    sent = []
    monkeypatch.setattr(imports, "_sender", [sent.append])
    body = upload(api, draft).json()
    assert body["status"] == "queued" and sent == [body["id"]] and "draft" not in body
    assert api.get(f"{DRAFTS}/{draft['id']}").json()["revision"] == 1
    assert imports.svg_import_run(job_id=body["id"]) == "done"
    assert api.get(body["url"]).json()["draft"]["revision"] == 2


def test_a_message_delivered_twice_runs_once(api, draft, monkeypatch):
    monkeypatch.setattr(imports, "_sender", [lambda job_id: None])
    job = upload(api, draft).json()
    assert imports.svg_import_run(job_id=job["id"]) == "done"
    assert imports.svg_import_run(job_id=job["id"]) == "done"
    assert api.get(f"{DRAFTS}/{draft['id']}").json()["revision"] == 2


def test_the_same_upload_twice_is_one_job(api, draft):
    first = upload(api, draft).json()
    again = upload(api, draft).json()  # the same drawing for revision 1: not read again
    assert again["id"] == first["id"] and SvgImport.objects.count() == 1


def test_the_same_idempotency_key_is_the_same_job(api, draft, monkeypatch):
    monkeypatch.setattr(imports, "_sender", [lambda job_id: None])
    first = upload(api, draft, **{"Idempotency-Key": "upload-1"}).json()
    other = small_map().decode().replace('id="FAR"', 'id="FAX"')
    again = upload(api, draft, other, **{"Idempotency-Key": "upload-1"}).json()
    assert again["id"] == first["id"] and SvgImport.objects.count() == 1


def test_a_queued_job_lost_by_the_broker_is_sent_again_when_polled(api, draft, monkeypatch):
    sent = []
    monkeypatch.setattr(imports, "_sender", [sent.append])
    job = upload(api, draft).json()
    SvgImport.objects.filter(id=job["id"]).update(
        sent_at=SvgImport.objects.get().created_at - imports.RESEND_AFTER * 2
    )
    api.get(job["url"])
    api.get(job["url"])
    assert sent == [job["id"], job["id"]]  # sent, then sent again once (not on every poll)


def test_the_broker_down_keeps_the_job_queued(api, draft, monkeypatch):
    def down(job_id: int) -> None:
        raise ConnectionError("broker down")

    monkeypatch.setattr(imports, "_sender", [down])
    response = upload(api, draft)
    assert response.status_code == 202 and response.json()["status"] == "queued"


def test_mistakes_found_by_the_worker_fail_the_job_on_their_provinces(api, draft):
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9">'
        '<rect id="AB" width="1" height="1"/><rect id="AB" width="1" height="1"/></svg>'
    )
    body = upload(api, draft, svg).json()
    assert body["status"] == "failed" and body["error"]["code"] == "invalid_svg"
    assert body["error"]["problems"] == [
        {"message": "province AB: two shapes have this id", "provinces": ["AB"]}
    ]


def test_a_draft_saved_while_the_job_waited_fails_it_as_stale(api, draft, monkeypatch):
    monkeypatch.setattr(imports, "_sender", [lambda job_id: None])
    job = upload(api, draft).json()
    tables = api.get(f"{DRAFTS}/{draft['id']}").json()["tables"]
    api.put(f"{DRAFTS}/{draft['id']}", {"tables": tables, "revision": 1}, format="json")
    imports.svg_import_run(job_id=job["id"])
    assert api.get(job["url"]).json()["error"]["code"] == "stale_revision"


def test_a_hostile_svg_is_refused_at_once(api, draft):
    svg = '<!DOCTYPE svg [<!ENTITY a "a">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>'
    assert code_of(upload(api, draft, svg)) == (422, "invalid_svg")
    assert not SvgImport.objects.exists()


def test_too_large_an_svg_is_refused_at_once(api, draft, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 4_000_000
    svg = '<svg xmlns="http://www.w3.org/2000/svg">' + " " * 1_600_000 + "</svg>"
    assert code_of(upload(api, draft, svg)) == (413, "too_large")


def test_too_many_shapes_are_refused_at_once(api, draft):
    shapes = "".join(f'<rect id="s{i}" width="1" height="1"/>' for i in range(401))
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9">{shapes}</svg>'
    assert code_of(upload(api, draft, svg)) == (413, "too_large")
    assert not SvgImport.objects.exists()


def test_a_stale_revision_is_refused_at_once(api, draft):
    assert code_of(upload(api, draft, revision=7)) == (409, "stale_revision")


def test_a_draft_extending_a_variant_is_refused_at_once(api):
    draft = api.post(DRAFTS, {"slug": "std", "name": "Std", "start_from": "standard"}, format="json").json()
    assert code_of(upload(api, draft)) == (409, "has_base")


def test_someone_elses_draft(draft):
    other = client_for(GameMasterFactory(username="other"))
    assert code_of(upload(other, draft)) == (404, "not_found")


def test_uploading_is_for_game_masters(draft):
    assert code_of(upload(client_for(UserFactory(username="plain")), draft)) == (403, "not_game_master")


def test_someone_elses_job(api, draft):
    job = upload(api, draft).json()
    other = client_for(GameMasterFactory(username="other"))
    assert code_of(other.get(job["url"])) == (404, "not_found")


def test_polling_needs_a_login(api, draft):
    job = upload(api, draft).json()
    assert client_for().get(job["url"]).status_code in (401, 403)


def test_a_job_whose_worker_died_is_claimed_again_only_once_stale(api, draft, monkeypatch):
    from django.utils import timezone

    monkeypatch.setattr(imports, "_sender", [lambda job_id: None])
    job = upload(api, draft).json()
    now = timezone.now()
    SvgImport.objects.filter(id=job["id"]).update(status="running", started_at=now)
    assert imports.svg_import_run(job_id=job["id"], now=now) == "running"  # another worker has it
    later = now + imports.STALE_AFTER * 2
    assert imports.svg_import_run(job_id=job["id"], now=later) == "done"
