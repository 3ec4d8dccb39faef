"""A draft is checked by the engine's own loader and ``check``; each problem names its provinces."""

from __future__ import annotations

import pytest

from dipserver.engine import check_variant, event_text, load_variant, walk
from dipserver.studio import services
from dipserver.studio.checking import report_of
from dipserver.studio.errors import StudioError
from tests.studio.conftest import shipped_tables, small_draft


def test_sahara_written_as_a_draft_checks_as_the_shipped_variant(gm):
    report = report_of("my-sahara", shipped_tables("sahara"), None)
    shipped = check_variant(load_variant("sahara"), {"mode": "exact"})
    assert report.ok and not shipped.problems
    assert [n.message for n in report.notes] == [n.message for n in shipped.notes]


def test_sahara_written_as_a_draft_has_the_shipped_timeline(gm):
    report = report_of("my-sahara", shipped_tables("sahara"), None)
    expected = [
        (year, hook.value, [event_text(e) for e in step.events])
        for year, hook, step in walk(load_variant("sahara"), {"mode": "exact"})
        if step.events
    ]
    assert [(m["year"], m["hook"], [e["text"] for e in m["events"]]) for m in report.timeline] == expected


def test_the_small_map_with_powers_and_centres_checks_clean(gm):
    report = report_of("small", small_draft(gm).data, small_draft(gm, "small2").geometry)
    assert report.ok, report.problems


def test_a_border_listed_on_one_side_only_is_reported_on_its_province(gm):
    draft = small_draft(gm)
    draft.data["map"]["provinces"]["ALP"]["borders"].append("FAR")
    [problem] = report_of("small", draft.data, draft.geometry).problems
    assert problem.at == "files" and problem.provinces[:2] == ("ALP", "FAR")


def test_a_home_centre_that_is_not_a_centre_is_reported_on_its_province(gm):
    draft = small_draft(gm)
    draft.data["map"]["provinces"]["ALP"]["sc"] = False
    [problem] = report_of("small", draft.data, draft.geometry).problems
    assert problem.provinces == ("ALP",) and "home centre" in problem.message


def test_a_coast_no_sea_touches_is_reported_on_its_province(gm):
    draft = small_draft(gm)
    draft.data["map"]["provinces"]["BRE"]["coasts"] = {"NC": ["ALP"], "SC": ["COR"]}
    [problem] = report_of("small", draft.data, draft.geometry).problems
    assert problem.provinces[0] == "BRE" and "touches no water" in problem.message


def test_an_event_on_a_province_that_does_not_exist_is_reported(gm):
    draft = small_draft(gm)
    draft.data["timeline"] = {
        "events": [{"year": 1902, "hook": "after_fall_retreats", "change": "sea", "provinces": ["ZZZ"]}]
    }
    [problem] = report_of("small", draft.data, draft.geometry).problems
    assert problem.at == "timeline" and "ZZZ" in problem.message


def test_a_change_that_can_never_apply_is_reported_on_its_province(gm):
    draft = small_draft(gm)
    draft.data["timeline"] = {
        "events": [{"year": 1902, "hook": "after_fall_retreats", "change": "land", "provinces": ["ALP"]}]
    }
    [problem] = report_of("small", draft.data, draft.geometry).problems
    assert problem.at == "timeline" and problem.provinces == ("ALP",)


def test_a_province_the_drawing_lacks_is_reported_on_it(gm):
    draft = small_draft(gm)
    del draft.geometry["provinces"]["ESS"]
    problems = report_of("small", draft.data, draft.geometry).problems
    assert [(p.at, p.provinces) for p in problems] == [("drawing", ("ESS",))]


def test_a_value_toml_cannot_hold_is_reported_not_raised(gm):
    draft = small_draft(gm)
    draft.data["map"]["provinces"]["ALP"]["home"] = None
    [problem] = report_of("small", draft.data, draft.geometry).problems
    assert problem.at == "files" and "map.toml" in problem.message


def test_the_timeline_comes_back_season_by_season(gm):
    draft = small_draft(gm)
    draft.data["timeline"] = {
        "events": [
            {"year": 1902, "hook": "after_fall_retreats", "change": "impassable", "provinces": ["ESS"]}
        ]
    }
    report = report_of("small", draft.data, draft.geometry)
    [moment] = report.timeline
    assert moment["year"] == 1902 and moment["terrain"]["ESS"] == "impassable"
    assert [e["text"] for e in moment["events"]] == [
        "ESS becomes impassable",
        "ESS stops being a supply centre",
    ]


def test_publishing_needs_a_clean_check(gm):
    draft = small_draft(gm)
    draft.data["map"]["provinces"]["ALP"]["sc"] = False
    draft = services.draft_save(user=gm, draft_id=draft.id, data=draft.data, revision=draft.revision)
    with pytest.raises(StudioError) as refused:
        services.version_publish(user=gm, draft_id=draft.id, revision=draft.revision)
    assert refused.value.code == "check_failed" and refused.value.problems[0]["provinces"] == ["ALP"]


def test_a_timeline_year_far_off_is_refused_before_the_walk(gm):
    draft = small_draft(gm)
    event = {"year": 100_000, "hook": "after_fall_retreats", "change": "impassable", "provinces": ["ESS"]}
    draft.data["timeline"] = {"events": [event]}
    [problem] = report_of("small", draft.data, draft.geometry).problems
    assert problem.at == "timeline" and "over 200 years" in problem.message


def test_a_chance_year_far_off_is_refused_too(gm):
    draft = small_draft(gm)
    event = {"year": 1902, "hook": "after_fall_retreats", "change": "impassable", "provinces": ["ESS"]}
    draft.data["timeline"] = {"events": [{**event, "chance": {"1902": 50, "5000": 100}}]}
    [problem] = report_of("small", draft.data, draft.geometry).problems
    assert "year 5000" in problem.message


def test_season_labels_that_are_not_tables_are_a_problem_not_a_crash(gm):
    draft = small_draft(gm)
    draft.data["timeline"] = {"season_labels": "Early Summer"}
    [problem] = report_of("small", draft.data, draft.geometry).problems
    assert problem.at == "timeline" and "season_labels" in problem.message


def test_a_timeline_table_in_a_shape_the_reader_does_not_expect_is_a_problem_not_a_crash(gm):
    draft = small_draft(gm)
    draft.data["timeline"] = {"territories": "RED"}
    [problem] = report_of("small", draft.data, draft.geometry).problems
    assert problem.at == "timeline" and "not in the shape" in problem.message


def test_a_year_far_off_is_a_problem_on_its_event(gm):
    draft = small_draft(gm)
    event = {"year": 1902, "hook": "after_fall_retreats", "change": "impassable", "provinces": ["ESS"]}
    draft.data["timeline"] = {"events": [event, {**event, "year": 100_000}]}
    [problem] = report_of("small", draft.data, draft.geometry).problems
    assert problem.events == (2,)


def test_the_start_map_comes_with_the_report(gm):
    draft = small_draft(gm)
    start = report_of("small", draft.data, draft.geometry).start
    assert start is not None and start["terrain"]["NTH"] == "sea"
    assert start["centres"] == ["ALP", "BRE", "COR", "DAL", "ESS", "FAR"]
