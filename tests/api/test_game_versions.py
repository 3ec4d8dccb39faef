"""The API of a newer studio version offered to a running game: listed, previewed and applied by the
game's master, with every refusal."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from dipserver.games.models import Phase
from dipserver.games.services.orders import orders_submit
from dipserver.games.version_diff import diff_lines
from dipserver.studio import services
from tests.api.conftest import client_for
from tests.factories import AdminFactory, GameFactory, GameMasterFactory, UserFactory
from tests.studio.conftest import small_draft
from tests.studio.test_game_versions import alp_apart_from_dal, republished, without_ess

START = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def gm(db):
    return GameMasterFactory(username="author")


@pytest.fixture
def first(gm):
    draft = small_draft(gm)
    return services.version_publish(user=gm, draft_id=draft.id, revision=draft.revision)


@pytest.fixture
def second(gm, first):
    return republished(gm, first.draft, without_ess)


@pytest.fixture
def game(gm, first):
    players = [UserFactory(username=f"p{i}") for i in range(2)]
    return GameFactory(
        name="Small game", variant="", studio_version=first.id, players=players, joined_at=START, masters=[gm]
    )


def url(game: Any, version: Any = None) -> str:
    base = f"/api/v1/games/{game.id}/studio-versions"
    return base if version is None else f"{base}/{version.id}"


def code_of(response) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def test_the_master_lists_the_versions_on_offer(gm, game, second):
    body = client_for(gm).get(url(game)).json()
    assert body["current"]["number"] == 1 and [v["number"] for v in body["offered"]] == [2]
    assert body["changes"] == []


def test_the_master_previews_the_differences(gm, game, second):
    body = client_for(gm).get(url(game, second)).json()
    assert body["diff"]["provinces"]["removed"] == ["ESS"] and body["applicable"] is True
    assert body["phase"] == "S1901M" and body["to"]["number"] == 2


def test_the_preview_says_what_changes_in_the_sentences_the_players_are_told(gm, game, second):
    body = client_for(gm).get(url(game, second)).json()
    lines = body["diff_lines"]
    assert lines[:2] == ["Provinces removed: ESS", "Supply centres removed: ESS"]
    assert any(line.startswith("Borders removed: ") for line in lines)
    assert lines == diff_lines(body["diff"])  # one wording, the mail's and the inbox's


def test_the_master_applies_it(gm, game, second):
    response = client_for(gm).post(url(game, second), {"phase": "S1901M"}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["to"]["number"] == 2 and response.json()["by"] == "author"
    assert "Provinces removed: ESS" in response.json()["diff_lines"]
    assert client_for(gm).get(url(game)).json()["changes"][0]["phase"] == "S1901M"
    assert client_for().get(f"/api/v1/games/{game.id}").status_code == 200


def test_a_player_may_not_list_preview_or_apply(game, second):
    player = client_for(game.powers.first().user)
    assert player.get(url(game)).status_code == 403
    assert player.get(url(game, second)).status_code == 403
    assert player.post(url(game, second), {"phase": "S1901M"}, format="json").status_code == 403


def test_another_game_master_may_not_apply(game, second):
    other = client_for(GameMasterFactory(username="other"))
    assert other.post(url(game, second), {"phase": "S1901M"}, format="json").status_code == 403


def test_nobody_logged_in_may_apply(game, second):
    assert client_for().post(url(game, second), {"phase": "S1901M"}, format="json").status_code in (401, 403)


def test_a_stale_phase(gm, game, second):
    response = client_for(gm).post(url(game, second), {"phase": "F1901M"}, format="json")
    assert code_of(response) == (409, "conflict")


def test_a_version_not_newer(gm, game, first):
    assert code_of(client_for(gm).get(url(game, first))) == (409, "not_newer")
    assert code_of(client_for(gm).post(url(game, first), {"phase": "S1901M"}, format="json")) == (
        409,
        "not_newer",
    )


def test_a_version_of_another_variant(gm, game):
    draft = small_draft(gm, slug="other")
    other = services.version_publish(user=gm, draft_id=draft.id, revision=draft.revision)
    response = client_for(gm).post(url(game, other), {"phase": "S1901M"}, format="json")
    assert code_of(response) == (422, "other_variant")


def test_a_finished_game(gm, game, second):
    type(game).objects.filter(id=game.id).update(status="finished")
    response = client_for(gm).post(url(game, second), {"phase": "S1901M"}, format="json")
    assert code_of(response) == (409, "not_in_play")


def test_a_position_the_new_version_cannot_hold(gm, game, second):
    phase = Phase.objects.get(game=game, index=0)
    phase.snapshot["units"].append({"power": "RED", "type": "A", "location": "ESS"})
    phase.save(update_fields=["snapshot"])
    preview = client_for(gm).get(url(game, second)).json()
    assert preview["applicable"] is False and preview["problems"][0]["provinces"] == ["ESS"]
    response = client_for(gm).post(url(game, second), {"phase": "S1901M"}, format="json")
    assert code_of(response) == (409, "position_invalid") and "ESS" in response.json()["error"]["message"]


def test_an_unpublished_version(gm, game, second):
    services.version_unpublish(user=AdminFactory(username="admin"), version_id=second.id)
    assert code_of(client_for(gm).get(url(game, second))) == (404, "not_found")


def test_a_missing_game(gm):
    assert client_for(gm).get("/api/v1/games/999/studio-versions").status_code == 404


def test_a_malformed_phase(gm, game, second):
    response = client_for(gm).post(url(game, second), {"phase": "tomorrow"}, format="json")
    assert response.status_code == 400


def test_the_preview_and_the_refusal_name_each_order_refused_with_its_power_and_reason(gm, game, first):
    third = republished(gm, first.draft, alp_apart_from_dal)
    red = game.powers.get(name="RED").user
    assert orders_submit(game_id=game.id, user=red, text="A ALP - DAL", phase="S1901M", now=START).accepted
    [problem] = client_for(gm).get(url(game, third)).json()["problems"]
    assert {k: problem[k] for k in ("code", "power", "order", "provinces")} == {
        "code": "order_refused",
        "power": "RED",
        "order": "A ALP - DAL",
        "provinces": ["ALP", "DAL"],
    }
    assert problem["reason"]
    response = client_for(gm).post(url(game, third), {"phase": "S1901M"}, format="json")
    assert code_of(response) == (409, "position_invalid")
    assert response.json()["error"]["problems"] == [problem]
