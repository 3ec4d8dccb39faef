"""The server plays an order kind defined outside the engine (``tests/engine/kinds_outside/``) as the engine
does: offered among a unit's options, accepted when given, applied when the phase is processed, its result
served as a record of its own kind, and its effect on the map kept in the game's next phase; and the page
draws it from the drawing its kind gives, which its option and its stored order carry (no script per kind)."""

from __future__ import annotations

import pytest

from dipserver.games.models import Game, Phase
from dipserver.games.services.phases import phase_process
from tests.api.conftest import client_for, user_of
from tests.engine.test_kind_from_outside import scorch  # noqa: F401  (the engine test's fixture)

pytestmark = pytest.mark.usefixtures("scorch")  # the kind registered for each test, then taken out


def test_the_server_offers_accepts_and_applies_the_kind(game: Game) -> None:
    france = client_for(user_of(game, "FRANCE"))
    options = france.get(f"/api/v1/games/{game.id}/options").json()
    offered = [{k: v for k, v in o.items() if k != "drawing"} for o in options["units"]["PAR"]]
    assert {"text": "A PAR scorches", "kind": "scorch", "unit": "PAR"} in offered
    answer = france.put(
        f"/api/v1/games/{game.id}/orders", {"phase": "S1901M", "orders": ["A PAR scorches"]}, format="json"
    )
    assert answer.status_code == 200, answer.content[:300]
    assert [row["valid"] for row in answer.json()["orders"]] == [True]
    phase_process(phase_id=game.current_phase_id, force=True)

    served = client_for().get(f"/api/v1/games/{game.id}/phases/0").json()["results"]
    [burnt] = [r for r in served if r["kind"] == "scorch"]
    assert (burnt["power"], burnt["order"], burnt["outcome"]) == ("FRANCE", "A PAR scorches", "success")
    following = Phase.objects.get(game=game, index=1).snapshot
    assert "PAR" not in following["map"]["supply_centres"] and "PAR" not in following["owners"]


# What the kind's ``drawing`` says of a scorch order of the army in Paris: its mark, with its own words.
SCORCH_MARK = {
    "shape": "mark",
    "start": "PAR",
    "end": None,
    "via": None,
    "label": "Scorch",
    "dislodged": False,
    "unit": None,
    "words": "scorched",
}


def test_the_kinds_option_carries_the_drawing_the_kind_gives(game: Game) -> None:
    options = client_for(user_of(game, "FRANCE")).get(f"/api/v1/games/{game.id}/options").json()
    [offered] = [o for o in options["units"]["PAR"] if o["kind"] == "scorch"]
    assert offered["drawing"] == SCORCH_MARK


def test_the_kinds_stored_order_carries_the_drawing_the_kind_gives(game: Game) -> None:
    france = client_for(user_of(game, "FRANCE"))
    url = f"/api/v1/games/{game.id}/orders"
    answer = france.put(url, {"phase": "S1901M", "orders": ["A PAR scorches"]}, format="json")
    assert [row["drawing"] for row in answer.json()["orders"]] == [SCORCH_MARK]
    assert [row["drawing"] for row in france.get(url).json()["orders"]] == [SCORCH_MARK]
