"""The sandbox API: open, order, play, branch, edit, share, copy and delete, as a bot author drives it."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tests.api.conftest import client_for
from tests.factories import UserFactory
from tests.sandbox.positions import step_at

pytestmark = pytest.mark.django_db

BASE = "/api/v1/sandboxes"


@pytest.fixture
def owner():
    return UserFactory(username="studier")


@pytest.fixture
def api(owner):
    return client_for(owner)


def _open(api, **body):
    answer = api.post(BASE, {"variant": "standard", **body}, format="json")
    assert answer.status_code == 201, answer.json()
    return answer.json()


def test_a_sandbox_opens_at_the_variants_start_with_one_open_step(api):
    box = _open(api, title="Lepanto drill")
    assert box["title"] == "Lepanto drill" and box["yours"] and not box["shared"]
    assert box["steps"] == [
        {
            "number": 0,
            "phase": "S1901M",
            "status": "open",
            "parent": None,
            "branched_from": None,
            "children": [],
        }
    ]
    assert [p["name"] for p in box["powers"]][:2] == ["AUSTRIA", "ENGLAND"]


def test_orders_for_every_power_are_given_and_answered_like_a_games(api):
    box = _open(api)
    url = f"{BASE}/{box['id']}/steps/0/powers"
    assert (
        api.put(
            f"{url}/FRANCE/orders", {"phase": "S1901M", "orders": ["A PAR - BUR"]}, format="json"
        ).status_code
        == 200
    )
    bad = api.put(f"{url}/GERMANY/orders", {"orders": ["A MUN - BUR", "A BER - PAR"]}, format="json")
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_orders"
    assert [o["valid"] for o in bad.json()["error"]["orders"]] == [True, False]
    step = api.get(f"{BASE}/{box['id']}/steps/0").json()
    assert step["orders"] == {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]}


def test_orders_come_back_with_how_the_map_draws_them_as_a_games_do(api):
    box = _open(api)
    url = f"{BASE}/{box['id']}/steps/0/powers/FRANCE/orders"

    put = api.put(url, {"orders": ["A PAR - BUR"]}, format="json").json()
    got = api.get(url).json()

    arrow = {"shape": "arrow", "start": "PAR", "end": "BUR", "label": "move"}
    for answer in (put, got):
        [row] = answer["orders"]
        assert {key: row["drawing"][key] for key in arrow} == arrow


def test_options_are_a_powers_legal_orders(api):
    box = _open(api)
    options = api.get(f"{BASE}/{box['id']}/steps/0/powers/ITALY/options").json()
    assert options["power"] == "ITALY" and "A VEN - TRI" in [o["text"] for o in options["units"]["VEN"]]


def test_playing_a_step_answers_the_next_position_and_keeps_the_results(api):
    box = _open(api)
    url = f"{BASE}/{box['id']}/steps"
    api.put(f"{url}/0/powers/FRANCE/orders", {"orders": ["A PAR - BUR"]}, format="json")
    api.put(f"{url}/0/powers/GERMANY/orders", {"orders": ["A MUN - BUR"]}, format="json")
    child = api.post(f"{url}/0/play").json()
    assert child["number"] == 1 and child["phase"] == "F1901M" and child["parent"] == 0
    played = api.get(f"{url}/0").json()
    assert played["status"] == "played" and played["children"] == [1]
    assert {r["order"]: r["outcome"] for r in played["results"]}["A PAR - BUR"] == "bounce"


def test_a_played_step_refuses_orders_with_a_conflict_and_can_be_branched(api):
    box = _open(api)
    url = f"{BASE}/{box['id']}/steps"
    api.post(f"{url}/0/play")
    refused = api.put(f"{url}/0/powers/FRANCE/orders", {"orders": ["A PAR - BUR"]}, format="json")
    assert refused.status_code == 409
    branch = api.post(f"{url}/0/branch")
    assert (
        branch.status_code == 201
        and branch.json()["branched_from"] == 0
        and branch.json()["status"] == "open"
    )


def test_setup_edits_the_position_and_explains_a_refusal(api):
    box = _open(api)
    url = f"{BASE}/{box['id']}/steps/0/setup"
    done = api.post(
        url,
        {"place": [{"power": "TURKEY", "type": "F", "location": "ION"}], "owners": {"TUN": "TURKEY"}},
        format="json",
    )
    assert done.status_code == 200
    assert {"power": "TURKEY", "type": "F", "location": "ION"} in done.json()["units"]
    assert done.json()["owners"]["TUN"] == "TURKEY"
    bad = api.post(url, {"place": [{"power": "TURKEY", "type": "A", "location": "ION"}]}, format="json")
    assert bad.status_code == 422 and "cannot stand" in bad.json()["error"]["message"]


def test_the_map_of_a_step_is_an_svg(api):
    box = _open(api)
    answer = api.get(f"{BASE}/{box['id']}/steps/0/map.svg")
    assert answer.status_code == 200 and answer["Content-Type"] == "image/svg+xml"


def test_the_timeline_says_what_the_map_does_and_what_it_does_to_a_power(api):
    box = _open(api, variant="sahara")
    timeline = api.get(f"{BASE}/{box['id']}/steps/0/powers/FRANCE/timeline").json()
    assert timeline["phase"] == "S1901M" and timeline["entries"]
    assert "mine" in timeline


def test_a_start_with_nothing_to_start_from_is_refused_saying_so(api):
    answer = api.post(BASE, {"title": "nothing"}, format="json")
    assert answer.status_code == 422
    assert "a variant, a game or a draft" in answer.json()["error"]["message"]


def test_an_unknown_variant_is_refused_with_its_reason(api):
    answer = api.post(BASE, {"variant": "atlantis"}, format="json")
    assert answer.status_code == 422


def test_my_list_has_my_sandboxes_only(api, owner):
    _open(api, title="mine")
    client_for(UserFactory(username="other")).post(
        BASE, {"variant": "standard", "title": "theirs"}, format="json"
    )
    rows = api.get(BASE).json()["results"]
    assert [r["title"] for r in rows] == ["mine"]


def test_copy_and_delete(api):
    box = _open(api)
    api.post(f"{BASE}/{box['id']}/steps/0/play")
    copy = api.post(f"{BASE}/{box['id']}/copy").json()
    assert copy["id"] != box["id"] and len(copy["steps"]) == 2
    assert api.delete(f"{BASE}/{box['id']}").status_code == 204
    assert api.get(f"{BASE}/{box['id']}").status_code == 404
    assert api.get(f"{BASE}/{copy['id']}").status_code == 200


def test_the_sandbox_api_is_rate_limited(api, settings):
    cache.clear()
    settings.DIPSERVER_API_THROTTLES = {**settings.DIPSERVER_API_THROTTLES, "sandboxes": "3/min"}
    box = _open(api)
    assert api.get(f"{BASE}/{box['id']}").status_code == 200
    assert api.get(f"{BASE}/{box['id']}").status_code == 200
    limited = api.get(f"{BASE}/{box['id']}")
    assert limited.status_code == 429
    cache.clear()


def test_the_timeline_without_a_power_says_what_the_changes_do_to_every_power(api):
    box = _open(api, variant="sahara")
    step_at(box["id"], "F1903M", "ITALY F ADR", "AUSTRIA A VIE")
    timeline = api.get(f"{BASE}/{box['id']}/steps/0/timeline").json()
    assert "mine" not in timeline
    assert list(timeline["powers"]) == ["ITALY"]
    assert [(r["unit"], r["kind"]) for r in timeline["powers"]["ITALY"]] == [("F ADR", "converted")]
