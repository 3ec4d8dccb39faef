"""A draft's own tests: saved with its tables, run on every check (green or red, a red one a problem that
stops publishing), exported in its package as tests/scenarios.toml; the API runs them or tries one case."""

from __future__ import annotations

import io
import zipfile
from typing import Any

import pytest

from dipserver.engine import load_scenarios, load_variant, run_scenarios
from dipserver.studio import services
from dipserver.studio.checking import report_of
from dipserver.studio.errors import StudioError
from dipserver.studio.package import package_bytes, package_read
from tests.api.conftest import client_for
from tests.factories import UserFactory
from tests.studio.conftest import VARIANTS, shipped_tables, shipped_tests, small_draft

HOLDS = {"name": "Red holds", "units": {"RED": ["A ALP"]}, "orders": {"RED": ["A ALP H"]}}
MOVES_AWAY = {
    **HOLDS,
    "name": "Red stays",
    "orders": {"RED": ["A ALP - BRE"]},
    "expect": {"units": {"RED": ["A ALP"]}},
}


def with_cases(gm, *cases: dict[str, Any]) -> Any:
    draft = small_draft(gm)
    data = {**draft.data, "tests": {"scenarios": list(cases)}}
    return services.draft_save(user=gm, draft_id=draft.id, data=data, revision=draft.revision)


def runner_url(draft) -> str:
    return f"/api/v1/studio/drafts/{draft.id}/tests"


def test_sahara_written_as_a_draft_passes_the_shipped_variants_own_tests(gm):
    data = {**shipped_tables("sahara"), "tests": shipped_tests("sahara")}
    report = report_of("my-sahara", data, None)
    shipped = run_scenarios(load_variant("sahara"), load_scenarios(VARIANTS / "sahara"))
    assert report.ok
    assert list(report.tests) == [r.as_data() for r in shipped]
    assert all(t["passed"] for t in report.tests)


def test_a_passing_case_is_green_in_the_check(gm):
    report = report_of("small", with_cases(gm, HOLDS).data, None)
    assert report.tests == ({"name": "Red holds", "passed": True, "failures": []},)


def test_a_failing_case_is_red_and_a_problem_beside_its_provinces(gm):
    draft = with_cases(gm, MOVES_AWAY)
    report = report_of("small", draft.data, draft.geometry)
    assert report.tests[0]["passed"] is False
    [problem] = report.problems
    assert problem.at == "tests" and "RED's units are A BRE, not A ALP" in problem.message
    assert problem.provinces == ("BRE", "ALP")


def test_a_draft_whose_test_fails_is_not_published(gm):
    draft = with_cases(gm, MOVES_AWAY)
    with pytest.raises(StudioError) as refused:
        services.version_publish(user=gm, draft_id=draft.id, revision=draft.revision)
    assert refused.value.code == "check_failed"
    assert "Red stays" in refused.value.problems[0]["message"]


def test_a_tests_table_the_runner_cannot_read_is_one_problem_of_the_check(gm):
    draft = with_cases(gm, {"units": {}})
    [problem] = report_of("small", draft.data, draft.geometry).problems
    assert problem.at == "tests" and "every scenario has a name" in problem.message


def test_the_package_holds_the_tests_and_reads_them_back(gm):
    draft = with_cases(gm, HOLDS)
    raw = package_bytes(services.package_of_draft(draft))
    assert "small/tests/scenarios.toml" in zipfile.ZipFile(io.BytesIO(raw)).namelist()
    assert package_read(raw).data["tests"] == {"scenarios": [HOLDS]}


def test_the_tests_are_not_among_the_files_a_version_hashes(gm):
    draft = with_cases(gm, HOLDS)
    version = services.version_publish(user=gm, draft_id=draft.id, revision=draft.revision)
    assert not any("tests" in name for name in version.files)


# --- the API ---------------------------------------------------------------------------------------------


def test_the_api_runs_the_drafts_tests(gm):
    draft = with_cases(gm, HOLDS, MOVES_AWAY)
    body = client_for(gm).get(runner_url(draft)).json()
    assert body["ok"] is False
    assert [(t["name"], t["passed"]) for t in body["tests"]] == [("Red holds", True), ("Red stays", False)]


def test_the_check_answers_the_tests_too(gm):
    draft = with_cases(gm, HOLDS)
    body = client_for(gm).get(f"/api/v1/studio/drafts/{draft.id}/check").json()
    assert body["tests"] == [{"name": "Red holds", "passed": True, "failures": []}]


def test_the_api_tries_one_case_without_saving_it(gm):
    draft = small_draft(gm)
    response = client_for(gm).post(runner_url(draft), {"scenario": MOVES_AWAY}, format="json")
    assert response.status_code == 200
    assert response.json()["failures"] == ["RED's units are A BRE, not A ALP"]
    draft.refresh_from_db()
    assert "tests" not in draft.data


def test_trying_a_case_in_a_shape_the_runner_cannot_read_is_refused(gm):
    draft = small_draft(gm)
    response = client_for(gm).post(runner_url(draft), {"scenario": {"name": "x", "colour": 1}}, format="json")
    assert (response.status_code, response.json()["error"]["code"]) == (422, "invalid_data")


def test_trying_a_case_without_one_is_malformed(gm):
    response = client_for(gm).post(runner_url(small_draft(gm)), {}, format="json")
    assert response.status_code == 400


def test_running_the_tests_of_a_draft_whose_files_do_not_load_is_refused(gm):
    draft = small_draft(gm)
    draft.data["map"]["provinces"]["ALP"]["borders"].append("FAR")
    draft.save()
    response = client_for(gm).get(runner_url(draft))
    assert (response.status_code, response.json()["error"]["code"]) == (422, "check_failed")


def test_anothers_draft_has_no_tests_to_run(gm):
    draft = small_draft(gm)
    other = client_for(UserFactory(username="other"))
    assert other.get(runner_url(draft)).status_code == 404
    assert other.post(runner_url(draft), {"scenario": HOLDS}, format="json").status_code == 404


def test_the_tests_need_a_login(gm):
    assert client_for().get(runner_url(small_draft(gm))).status_code == 401
