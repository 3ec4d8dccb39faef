"""A sandbox of a studio draft: its owner tries the draft as it is saved, played with its files and its
imported drawing, and later edits of the draft never change the sandbox."""

from __future__ import annotations

import pytest

from dipserver.games.models import VariantArchive
from dipserver.studio import services as studio
from tests.api.conftest import client_for
from tests.factories import GameFactory, GameMasterFactory, UserFactory
from tests.studio.conftest import small_draft

BASE = "/api/v1/sandboxes"


@pytest.fixture
def draft(gm):
    return small_draft(gm)


def _open(api, draft, **body):
    answer = api.post(BASE, {"draft": draft.id, **body}, format="json")
    assert answer.status_code == 201, answer.json()
    return answer.json()


def test_a_draft_opens_at_its_start_pinning_its_files(api, draft):
    box = _open(api, draft, title="Small try")
    assert box["title"] == "Small try" and box["variant"] == "small" and box["source"] == "draft"
    assert box["origin"] == {"draft": draft.id, "slug": "small", "revision": draft.revision}
    assert [p["name"] for p in box["powers"]] == ["RED", "BLUE"]
    assert box["steps"][0]["phase"] == "S1901M"
    assert VariantArchive.objects.filter(slug="small").count() == 1


def test_a_step_of_a_draft_is_played(api, draft):
    box = _open(api, draft)
    url = f"{BASE}/{box['id']}/steps"
    api.put(f"{url}/0/powers/RED/orders", {"orders": ["A ALP - BRE"]}, format="json")
    child = api.post(f"{url}/0/play").json()
    assert child["phase"] == "F1901M"
    assert {"power": "RED", "type": "A", "location": "BRE"} in api.get(f"{url}/1").json()["units"]


def test_the_map_is_drawn_from_the_drafts_drawing(api, draft):
    box = _open(api, draft)
    answer = api.get(f"{BASE}/{box['id']}/steps/0/map.svg")
    assert answer.status_code == 200 and answer["Content-Type"] == "image/svg+xml"
    # A studio slug has no geometry.json: without the draft's drawing there is no map to draw (404).
    assert 'data-variant="small"' in answer.content.decode()


def test_later_edits_of_the_draft_never_change_the_sandbox(api, gm, draft):
    box = _open(api, draft)
    draft.data["variant"]["powers"]["RED"]["name"] = "Scarlet"
    studio.draft_save(user=gm, draft_id=draft.id, data=draft.data, revision=draft.revision)
    draft.refresh_from_db()
    draft.geometry = None
    draft.save(update_fields=["geometry"])
    again = api.get(f"{BASE}/{box['id']}").json()
    assert {p["name"]: p["display_name"] for p in again["powers"]}["RED"] == "Red"
    assert api.get(f"{BASE}/{box['id']}/steps/0/map.svg").status_code == 200


def test_another_users_draft_is_not_found(draft):
    other = client_for(GameMasterFactory(username="someone"))
    answer = other.post(BASE, {"draft": draft.id}, format="json")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"


def test_a_draft_with_problems_is_refused_with_each_problem(api, draft):
    draft.data["map"]["provinces"]["ALP"]["sc"] = False
    draft.save()
    answer = api.post(BASE, {"draft": draft.id}, format="json")
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "check_failed"
    assert answer.json()["error"]["problems"][0]["provinces"] == ["ALP"]


def test_a_draft_saved_since_the_revision_seen_is_refused(api, draft):
    answer = api.post(BASE, {"draft": draft.id, "revision": draft.revision - 1}, format="json")
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "stale_revision"


def test_a_sandbox_of_a_studio_versions_game_keeps_the_versions_drawing(api, gm, draft):
    version = studio.version_publish(user=gm, draft_id=draft.id, revision=draft.revision)
    players = [UserFactory(username=f"p{i}") for i in range(2)]
    game = GameFactory(name="Small game", variant="", studio_version=version.id, players=players)
    answer = api.post(BASE, {"game": game.id}, format="json")
    assert answer.status_code == 201, answer.json()
    assert api.get(f"{BASE}/{answer.json()['id']}/steps/0/map.svg").status_code == 200
