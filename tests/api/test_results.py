"""A processed phase's results as the API serves and draws them: records, described by the schema, and a
picture drawn from them exactly as it was drawn from the orders' text before."""

from __future__ import annotations

import json

from drf_spectacular.generators import SchemaGenerator

from dipserver.engine.orders import OrderError, OrderResult, Outcome
from dipserver.engine.parse import parse_order
from dipserver.games.mappers import board_of, map_state_of, position_of
from dipserver.games.models import Game, Phase
from dipserver.games.services.phases import phase_process
from dipserver.games.variants import game_variant
from dipserver.render import render_svg
from tests.api.conftest import client_for, user_of

ORDERS = {
    "FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"],
    "GERMANY": ["A MUN - BUR", "F KIE - HOL", "A BER H"],
    "ENGLAND": ["F LON - NTH", "A LVP - YOR", "F EDI S F LON - NTH"],
}


def processed(game: Game) -> Phase:
    for power, orders in ORDERS.items():
        answer = client_for(user_of(game, power)).put(
            f"/api/v1/games/{game.id}/orders", {"phase": "S1901M", "orders": orders}, format="json"
        )
        assert answer.status_code == 200, answer.content[:300]
    game.refresh_from_db()
    phase_process(phase_id=game.current_phase_id, force=True)
    return Phase.objects.get(game=game, index=0)


def served(game: Game) -> list[dict]:
    answer = client_for().get(f"/api/v1/games/{game.id}/phases/0")
    assert answer.status_code == 200, answer.content[:300]
    return answer.json()["results"]


def test_the_phase_serves_each_result_as_a_record(game):
    processed(game)
    [support] = [r for r in served(game) if r["order"] == "A MAR S A PAR - BUR"]
    assert support == {
        "power": "FRANCE",
        "order": "A MAR S A PAR - BUR",
        "outcome": "success",
        "reason": None,  # the null rule: a reason that says nothing is null
        "dislodged": False,
        "kind": "support_move",
        "unit": {"type": "A", "location": "MAR"},
        "from": "MAR",
        "to": None,
        "via": {"convoy": False, "unit": {"type": "A", "location": "PAR"}, "from": "PAR", "to": "BUR"},
    }


def test_the_phase_serves_the_stored_records_as_they_are(game):
    phase = processed(game)
    assert served(game) == [{**row, "reason": row["reason"] or None} for row in phase.results]


def test_the_schema_describes_each_field_of_a_result_with_enums_for_kind_and_outcome():
    document = json.loads(json.dumps(SchemaGenerator().get_schema(request=None, public=True), default=str))
    schemas = document["components"]["schemas"]
    result = schemas["Result"]["properties"]
    assert set(result) == {
        "power",
        "order",
        "outcome",
        "reason",
        "dislodged",
        "kind",
        "unit",
        "from",
        "to",
        "via",
    }
    assert all(
        field.get("description") or "$ref" in field for name, field in result.items() if name != "power"
    )
    assert "support_move" in schemas["ResultKindEnum"]["enum"] and "invalid" in schemas["OutcomeEnum"]["enum"]
    assert set(schemas["Via"]["properties"]) == {"convoy", "unit", "from", "to"}


def test_a_processed_phase_is_drawn_from_its_records_as_it_was_from_the_orders_text(game):
    phase = processed(game)
    variant = game_variant(game)
    board, position = board_of(variant, phase.snapshot), position_of(phase.snapshot)
    read_back = []  # how the picture was drawn before records: each stored text read again
    for row in phase.results:
        try:
            order = parse_order(row["order"], board, position, row["power"])
        except OrderError:
            continue
        read_back.append(
            OrderResult(row["power"], order, Outcome(row["outcome"]), row["reason"], row["dislodged"])
        )
    before = render_svg(variant, map_state_of(phase.snapshot), position, results=read_back)

    after = client_for().get(f"/api/v1/games/{game.id}/phases/0/map.svg").content.decode()

    assert 'class="order support"' in after and 'class="order move failed"' in after
    assert after == before
