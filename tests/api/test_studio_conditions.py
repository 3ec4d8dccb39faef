"""Conditional timeline events (``when``) through the studio's API: a draft with one saves, checks clean
with the event shown firing, publishes, and a broken ``when`` is a problem on the event it is in."""

from __future__ import annotations

from tests.studio.conftest import small_draft

DRAFTS = "/api/v1/studio/drafts"
CONDITIONAL = {
    "hook": "after_fall_retreats",
    "change": "impassable",
    "provinces": ["ESS"],
    "when": {"occupied": ["ALP"], "power": "RED"},
    "year": 1901,
    "until": 1910,
}
DATED = {"year": 1903, "hook": "after_spring_retreats", "change": "sc_loss", "provinces": ["FAR"]}


def saved_with(api, gm, *events) -> dict:
    draft = small_draft(gm)
    tables = {**draft.data, "timeline": {"events": list(events)}}
    response = api.put(f"{DRAFTS}/{draft.id}", {"tables": tables, "revision": draft.revision}, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


def check_of(api, draft: dict) -> dict:
    return api.get(f"{DRAFTS}/{draft['id']}/check").json()


def test_a_draft_with_a_when_event_saves_as_written(api, gm):
    draft = saved_with(api, gm, DATED, CONDITIONAL)
    assert draft["tables"]["timeline"]["events"][1]["when"] == {"occupied": ["ALP"], "power": "RED"}


def test_a_draft_with_a_when_event_checks_clean_and_the_preview_shows_it_fire(api, gm):
    report = check_of(api, saved_with(api, gm, DATED, CONDITIONAL))
    assert report["ok"] is True and report["problems"] == []
    first = report["timeline"][0]
    assert first["when"] == "1901 after the Autumn retreats"
    assert first["events"][0] == {
        "kind": "condition_met",
        "event": 2,
        "when": "RED's units stand in ALP",
        "text": "RED's units stand in ALP (event 2)",
    }
    assert first["terrain"]["ESS"] == "impassable" and "ESS" not in first["centres"]


def test_the_check_gives_the_start_map_for_the_preview(api, gm):
    report = check_of(api, saved_with(api, gm, CONDITIONAL))
    assert report["start"]["terrain"]["ESS"] == "land" and "ESS" in report["start"]["centres"]


def test_a_draft_with_a_when_event_publishes(api, gm):
    draft = saved_with(api, gm, DATED, CONDITIONAL)
    response = api.post(f"{DRAFTS}/{draft['id']}/publish", {"revision": draft["revision"]}, format="json")
    assert response.status_code == 201, response.json()
    files = api.get(f"/api/v1/studio/versions/{response.json()['id']}").json()["files"]
    assert 'power = "RED"' in files["small/timeline.toml"]


def test_a_when_naming_an_unknown_power_is_a_problem_on_its_event(api, gm):
    broken = {**CONDITIONAL, "when": {"controls": ["ALP"], "power": "GREEN"}}
    [problem] = check_of(api, saved_with(api, gm, DATED, broken))["problems"]
    assert problem["at"] == "timeline" and problem["events"] == [2]
    assert "'GREEN' is not a power" in problem["message"]


def test_a_when_naming_an_unknown_province_is_a_problem_on_its_event(api, gm):
    broken = {**CONDITIONAL, "when": {"occupied": ["ZZZ"]}}
    [problem] = check_of(api, saved_with(api, gm, broken, DATED))["problems"]
    assert problem["events"] == [1] and "'ZZZ' is not a province" in problem["message"]


def test_a_broken_when_cannot_be_published(api, gm):
    draft = saved_with(api, gm, {**CONDITIONAL, "when": {"centres": 0}})
    response = api.post(f"{DRAFTS}/{draft['id']}/publish", {"revision": draft["revision"]}, format="json")
    assert response.status_code == 422 and response.json()["error"]["code"] == "check_failed"
    assert response.json()["error"]["problems"][0]["events"] == [1]


def test_a_finding_after_a_change_names_the_events_of_that_moment(api, gm):
    closed = {
        "year": 1903,
        "hook": "after_fall_retreats",
        "change": "impassable",
        "provinces": ["ESS", "ALP"],
    }
    [note] = check_of(api, saved_with(api, gm, DATED, closed))["notes"]
    assert note["at"] == "1903 after_fall_retreats" and note["provinces"] == ["DAL"]
    assert note["events"] == [2]


def test_a_change_the_timeline_refuses_names_the_events_on_its_provinces(api, gm):
    sea = {"year": 1903, "hook": "after_fall_retreats", "change": "sea", "provinces": ["ESS"]}
    [problem] = check_of(api, saved_with(api, gm, DATED, sea))["problems"]
    assert problem["at"] == "timeline" and "ESS" in problem["provinces"] and problem["events"] == [2]
