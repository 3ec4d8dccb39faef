"""The picture draws a phase's results from their records (``engine.records``): what the record says,
never its order text."""

from __future__ import annotations

from dipserver.engine.orders import ConvertToFleet, Hold, Move, OrderResult, Outcome, SupportMove
from dipserver.engine.records import result_record, unread_record
from dipserver.engine.variant import load_variant
from dipserver.render import render_svg
from tests.render.snapshots import layer

STANDARD = load_variant("standard")


def start_svg(results: list) -> str:
    return render_svg(STANDARD, STANDARD.map_state, STANDARD.start, results=results)


def test_records_are_drawn_as_the_results_they_record():
    results = [
        OrderResult("FRANCE", Move("PAR", "BUR"), Outcome.BOUNCE, "bounced with Munich"),
        OrderResult("GERMANY", Move("MUN", "BUR"), Outcome.BOUNCE, "bounced with Paris"),
        OrderResult("FRANCE", SupportMove("MAR", "PAR", "BUR"), Outcome.CUT, "cut"),
        OrderResult("AUSTRIA", Hold("VIE"), Outcome.DISLODGED, dislodged=True),
        OrderResult("FRANCE", ConvertToFleet("BRE"), Outcome.SUCCESS),  # type: ignore[arg-type]
    ]
    records = [result_record(r, STANDARD.start) for r in results]
    assert start_svg(records) == start_svg(results)


def test_a_record_s_text_is_not_what_is_drawn():
    record = result_record(OrderResult("FRANCE", Move("PAR", "BUR"), Outcome.SUCCESS), STANDARD.start)
    relabelled = {**record, "order": "anything at all"}
    assert start_svg([relabelled]) == start_svg([record])


def test_a_line_that_read_as_no_order_draws_nothing():
    drawn = layer(start_svg([unread_record("FRANCE", "A PAR - BUR", "refused")]), "orders")
    assert list(drawn) == []
