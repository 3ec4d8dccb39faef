"""The studio's draft API: every operation, and every refusal with its code and status."""

from __future__ import annotations

import base64
import io
import zipfile

from tests.api.conftest import client_for
from tests.factories import GameMasterFactory, UserFactory
from tests.studio.conftest import small_draft, small_map, small_variant_tables

DRAFTS = "/api/v1/studio/drafts"


def created(api, **body):
    response = api.post(DRAFTS, {"slug": "mine", "name": "Mine", **body}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def code_of(response) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def test_creating_and_listing_drafts(api):
    draft = created(api)
    assert draft["slug"] == "mine" and draft["revision"] == 1 and draft["tables"]["variant"]["name"] == "Mine"
    assert [d["slug"] for d in api.get(DRAFTS).json()["results"]] == ["mine"]


def test_creating_a_draft_from_an_installed_variant(api):
    draft = created(api, start_from="standard")
    assert draft["tables"]["variant"]["base"] == "standard"


def test_creating_needs_a_login(db):
    assert client_for().post(DRAFTS, {"slug": "x"}, format="json").status_code == 401


def test_creating_is_for_game_masters(db):
    api = client_for(UserFactory(username="plain"))
    assert code_of(api.post(DRAFTS, {"slug": "x", "name": "X"}, format="json")) == (403, "not_game_master")


def test_creating_without_a_slug_is_malformed(api):
    assert code_of(api.post(DRAFTS, {"name": "X"}, format="json")) == (400, "invalid")


def test_creating_with_a_taken_slug(api):
    assert code_of(api.post(DRAFTS, {"slug": "standard", "name": "X"}, format="json")) == (409, "slug_taken")


def test_creating_from_an_unknown_variant(api):
    response = api.post(DRAFTS, {"slug": "x", "name": "X", "start_from": "nowhere"}, format="json")
    assert code_of(response) == (422, "unknown_variant")


def test_reading_a_draft(api):
    draft = created(api)
    assert api.get(f"{DRAFTS}/{draft['id']}").json()["tables"] == draft["tables"]


def test_another_game_masters_draft_is_not_found(api):
    draft = created(api)
    other = client_for(GameMasterFactory(username="other"))
    assert code_of(other.get(f"{DRAFTS}/{draft['id']}")) == (404, "not_found")
    assert code_of(other.delete(f"{DRAFTS}/{draft['id']}")) == (404, "not_found")


def test_saving_a_draft(api):
    draft = created(api)
    response = api.put(
        f"{DRAFTS}/{draft['id']}", {"tables": {"variant": {"name": "New"}}, "revision": 1}, format="json"
    )
    assert response.status_code == 200 and response.json()["revision"] == 2


def test_saving_from_a_stale_tab(api):
    draft = created(api)
    api.put(f"{DRAFTS}/{draft['id']}", {"tables": {}, "revision": 1}, format="json")
    response = api.put(f"{DRAFTS}/{draft['id']}", {"tables": {}, "revision": 1}, format="json")
    assert code_of(response) == (409, "stale_revision")


def test_saving_data_that_is_not_a_table(api):
    draft = created(api)
    response = api.put(f"{DRAFTS}/{draft['id']}", {"tables": [1], "revision": 1}, format="json")
    assert code_of(response) == (400, "invalid")


def test_deleting_a_draft(api):
    draft = created(api)
    assert api.delete(f"{DRAFTS}/{draft['id']}").status_code == 204
    assert code_of(api.get(f"{DRAFTS}/{draft['id']}")) == (404, "not_found")


def test_checking_a_draft_reports_problems_on_their_provinces(api):
    draft = created(api)
    api.post(f"{DRAFTS}/{draft['id']}/svg", {"svg": small_map().decode(), "revision": 1}, format="json")
    report = api.get(f"{DRAFTS}/{draft['id']}/check").json()
    assert report["ok"] is False and report["problems"][0]["at"] == "files"


def test_checking_a_clean_draft(api, gm):
    draft = small_draft(gm)
    report = api.get(f"{DRAFTS}/{draft.id}/check").json()
    assert report == {**report, "ok": True, "problems": []} and report["version"]


def test_exporting_a_draft_as_a_package(api, gm):
    draft = small_draft(gm)
    response = api.get(f"{DRAFTS}/{draft.id}/package")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert "small/map.toml" in zipfile.ZipFile(io.BytesIO(response.content)).namelist()


def test_importing_a_package(api, gm):
    draft = small_draft(gm)
    raw = api.get(f"{DRAFTS}/{draft.id}/package").content
    api.delete(f"{DRAFTS}/{draft.id}")
    response = api.post(f"{DRAFTS}/import", {"package": base64.b64encode(raw).decode()}, format="json")
    assert response.status_code == 201 and response.json()["tables"] == draft.data


def test_importing_what_is_not_base64(api):
    assert code_of(api.post(f"{DRAFTS}/import", {"package": "***"}, format="json")) == (
        422,
        "invalid_package",
    )


def test_importing_what_is_not_a_package(api):
    body = {"package": base64.b64encode(b"plain text").decode()}
    assert code_of(api.post(f"{DRAFTS}/import", body, format="json")) == (422, "invalid_package")


def test_importing_is_for_game_masters(db):
    api = client_for(UserFactory(username="plain"))
    body = {"package": base64.b64encode(b"any package").decode()}
    assert code_of(api.post(f"{DRAFTS}/import", body, format="json")) == (403, "not_game_master")


def test_a_draft_built_from_tables_through_the_api_checks_clean(api):
    draft = created(api)
    svg = api.post(
        f"{DRAFTS}/{draft['id']}/svg", {"svg": small_map().decode(), "revision": 1}, format="json"
    ).json()["draft"]
    data = {**svg["tables"], **small_variant_tables()}
    for code in ("ALP", "BRE", "COR", "DAL", "ESS", "FAR"):
        data["map"]["provinces"][code]["sc"] = True
    data["map"]["provinces"]["ALP"]["home"], data["map"]["provinces"]["COR"]["home"] = "RED", "BLUE"
    api.put(f"{DRAFTS}/{draft['id']}", {"tables": data, "revision": svg["revision"]}, format="json")
    assert api.get(f"{DRAFTS}/{draft['id']}/check").json()["ok"] is True


def test_sahara_written_in_the_studio_checks_as_the_shipped_sahara(api):
    from dipserver.engine import check_variant, event_text, load_variant, walk
    from tests.studio.conftest import shipped_tables

    draft = created(api, start_from="standard")
    tables = shipped_tables("sahara")
    saved = api.put(f"{DRAFTS}/{draft['id']}", {"tables": tables, "revision": 1}, format="json")
    assert saved.status_code == 200
    report = api.get(f"{DRAFTS}/{draft['id']}/check").json()
    shipped = load_variant("sahara")
    expected = [
        [event_text(e) for e in step.events] for _, _, step in walk(shipped, {"mode": "exact"}) if step.events
    ]
    assert report["ok"] and [[e["text"] for e in m["events"]] for m in report["timeline"]] == expected
    notes = check_variant(shipped, {"mode": "exact"}).notes
    assert [n["message"] for n in report["notes"]] == [n.message for n in notes]
