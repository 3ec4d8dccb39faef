"""Every answer with a body is documented with its schema, so a client generated from the schema gets typed
objects: each 2xx but 204 and 304 names its body, each error the one ``Error`` body (extras included), and
the studio's and a game's version answers, as the server gives them, validate against what is documented
(schemathesis' own response check, as in ``test_schema.py``, whose requests rarely reach these answers)."""

from __future__ import annotations

import requests
import schemathesis
from schemathesis.core.transport import Response

from dipserver.studio import services
from tests.api.conftest import client_for
from tests.api.test_schema import DOCUMENT
from tests.factories import AdminFactory, GameFactory, UserFactory
from tests.studio.conftest import shipped_tables, shipped_tests, small_draft, small_map
from tests.studio.test_game_versions import republished, without_ess
from tests.studio.test_scenarios import HOLDS, MOVES_AWAY, with_cases

SCHEMA = schemathesis.openapi.from_dict(DOCUMENT)
BODILESS = ("204", "304")


def conforms(answer, method: str, path: str, template: str | None = None) -> dict:
    """``answer`` (a test client's) is documented for its status with a JSON schema, and validates against
    it; its body is returned. ``template`` is the schema's path when ``path`` has ids filled in."""
    template = f"/api/v1{template or path}"
    documented = DOCUMENT["paths"][template][method]["responses"][str(answer.status_code)]
    assert "schema" in documented["content"]["application/json"], (method, template, answer.status_code)
    request = requests.Request(method.upper(), f"http://testserver/api/v1{path}").prepare()
    headers = {name.lower(): [value] for name, value in answer.items()}
    response = Response(answer.status_code, headers, answer.content, request, 0.0, verify=False)
    SCHEMA[template][method.upper()].validate_response(response)  # raises, naming each mismatch
    return answer.json()


def test_every_answer_with_a_body_documents_its_schema():
    bare = [
        (method, path, code)
        for path, item in DOCUMENT["paths"].items()
        for method, operation in item.items()
        for code, response in operation["responses"].items()
        if code not in BODILESS
        and not all("schema" in media for media in response.get("content", {None: {}}).values())
    ]
    assert not bare


def test_a_refusals_provinces_and_problems_are_documented_in_the_error_body():
    detail = DOCUMENT["components"]["schemas"]["ErrorDetail"]
    assert {"provinces", "problems"} <= set(detail["properties"])
    assert set(detail["required"]) == {"code", "message", "fields"}


def test_a_drafts_answers_are_as_documented(api, gm):
    made = api.post("/api/v1/studio/drafts", {"slug": "mine", "name": "Mine"}, format="json")
    draft = conforms(made, "post", "/studio/drafts")
    one = f"/studio/drafts/{draft['id']}"
    job = conforms(
        api.post(f"/api/v1{one}/svg", {"svg": small_map().decode(), "revision": 1}, format="json"),
        "post",
        f"{one}/svg",
        "/studio/drafts/{draft_id}/svg",
    )
    assert job["status"] == "done" and job["error"] is None and job["draft"]["geometry"]
    polled = conforms(
        api.get(job["url"]), "get", job["url"].removeprefix("/api/v1"), "/studio/imports/{job_id}"
    )
    saved = polled["draft"]
    body = {"tables": saved["tables"], "revision": saved["revision"]}
    conforms(api.put(f"/api/v1{one}", body, format="json"), "put", one, "/studio/drafts/{draft_id}")
    conforms(api.get(f"/api/v1{one}"), "get", one, "/studio/drafts/{draft_id}")
    listed = conforms(api.get("/api/v1/studio/drafts"), "get", "/studio/drafts")
    assert [d["slug"] for d in listed["results"]] == ["mine"]
    report = conforms(
        api.get(f"/api/v1{one}/check"), "get", f"{one}/check", "/studio/drafts/{draft_id}/check"
    )
    assert report["ok"] is False and report["problems"][0]["at"] == "files"  # no powers yet


def test_a_failed_import_is_as_documented(api, gm):
    draft = small_draft(gm)
    one = f"/studio/drafts/{draft.id}"
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9">'
        '<rect id="AB" width="1" height="1"/><rect id="AB" width="1" height="1"/></svg>'
    )
    answer = api.post(f"/api/v1{one}/svg", {"svg": svg, "revision": draft.revision}, format="json")
    job = conforms(answer, "post", f"{one}/svg", "/studio/drafts/{draft_id}/svg")
    assert job["status"] == "failed" and job["error"]["problems"] and "draft" not in job


def test_a_check_with_a_timeline_and_tests_is_as_documented(api, gm):
    made = api.post("/api/v1/studio/drafts", {"slug": "mine", "start_from": "standard"}, format="json")
    draft = made.json()
    one = f"/studio/drafts/{draft['id']}"
    tables = {**shipped_tables("sahara"), "tests": shipped_tests("sahara")}
    api.put(f"/api/v1{one}", {"tables": tables, "revision": 1}, format="json")
    report = conforms(
        api.get(f"/api/v1{one}/check"), "get", f"{one}/check", "/studio/drafts/{draft_id}/check"
    )
    assert report["ok"] and report["start"] and report["timeline"][0]["events"] and report["tests"]


def test_a_drafts_tests_answer_as_documented(gm):
    api = client_for(gm)
    draft = with_cases(gm, HOLDS, MOVES_AWAY)
    url = f"/studio/drafts/{draft.id}/tests"
    run = conforms(api.get(f"/api/v1{url}"), "get", url, "/studio/drafts/{draft_id}/tests")
    assert run["ok"] is False and run["tests"][1]["failures"]
    one = api.post(f"/api/v1{url}", {"scenario": MOVES_AWAY}, format="json")
    assert conforms(one, "post", url, "/studio/drafts/{draft_id}/tests")["passed"] is False


def test_a_versions_answers_are_as_documented(gm):
    api, draft = client_for(gm), with_cases(gm, HOLDS)
    publish = f"/studio/drafts/{draft.id}/publish"
    answer = api.post(f"/api/v1{publish}", {"revision": draft.revision}, format="json")
    version = conforms(answer, "post", publish, "/studio/drafts/{draft_id}/publish")
    one = f"/studio/versions/{version['id']}"
    listed = conforms(client_for().get("/api/v1/studio/versions"), "get", "/studio/versions")
    assert [v["id"] for v in listed["results"]] == [version["id"]]
    detail = conforms(client_for().get(f"/api/v1{one}"), "get", one, "/studio/versions/{version_id}")
    assert detail["tests"] == {"scenarios": [HOLDS]}
    run = client_for().get(f"/api/v1{one}/tests")
    assert conforms(run, "get", f"{one}/tests", "/studio/versions/{version_id}/tests")["ok"] is True
    admin = client_for(AdminFactory(username="admin"))
    gone = admin.post(f"/api/v1{one}/unpublish")
    assert conforms(gone, "post", f"{one}/unpublish", "/studio/versions/{version_id}/unpublish")[
        "unpublished_at"
    ]


def test_a_games_version_answers_are_as_documented(gm):
    draft = small_draft(gm)
    first = services.version_publish(user=gm, draft_id=draft.id, revision=draft.revision)
    second = republished(gm, first.draft, without_ess)
    players = [UserFactory(username=f"p{i}") for i in range(2)]
    game = GameFactory(name="Small game", variant="", studio_version=first.id, players=players, masters=[gm])
    api, listed = client_for(gm), f"/games/{game.id}/studio-versions"
    template = "/games/{game_id}/studio-versions"
    offered = conforms(api.get(f"/api/v1{listed}"), "get", listed, template)
    assert [v["id"] for v in offered["offered"]] == [second.id] and offered["changes"] == []
    one = f"{listed}/{second.id}"
    preview = conforms(api.get(f"/api/v1{one}"), "get", one, f"{template}/{{version_id}}")
    assert preview["from"]["id"] == first.id and preview["applicable"]
    applied = api.post(f"/api/v1{one}", {"phase": preview["phase"]}, format="json")
    change = conforms(applied, "post", one, f"{template}/{{version_id}}")
    assert change["from"]["id"] == first.id and change["to"]["id"] == second.id
    record = conforms(api.get(f"/api/v1{listed}"), "get", listed, template)
    assert record["current"]["id"] == second.id and [c["id"] for c in record["changes"]] == [change["id"]]


def test_a_refusal_naming_its_problems_is_as_documented(api, gm):
    draft = small_draft(gm)
    draft.data["map"]["provinces"]["ALP"]["sc"] = False
    draft.save()
    publish = f"/studio/drafts/{draft.id}/publish"
    answer = api.post(f"/api/v1{publish}", {"revision": draft.revision}, format="json")
    assert answer.status_code == 422
    refusal = conforms(answer, "post", publish, "/studio/drafts/{draft_id}/publish")["error"]
    assert refusal["problems"][0]["provinces"] == ["ALP"] and "provinces" in refusal
