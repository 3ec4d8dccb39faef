"""The picture draws a phase's results from their records (``engine.records``): what the record says,
never its order text."""

from __future__ import annotations

from dipserver.engine.kinds.conversion import ConvertToFleet
from dipserver.engine.orders import Hold, Move, OrderResult, Outcome, SupportMove
from dipserver.engine.records import order_record, result_record, unread_record
from dipserver.engine.variant import load_variant
from dipserver.render import render_svg
from tests.render.snapshots import layer

STANDARD = load_variant("standard")


def start_svg(results: list) -> str:
    return render_svg(STANDARD, STANDARD.map_state, STANDARD.start, results=results)


def test_records_are_drawn_as_the_results_they_record():
    # A conversion's result is a record from the first (``turn.py``: no ``OrderResult`` holds one; compiled,
    # the class refuses it), drawn among the adjudicator's results.
    conversion = order_record("FRANCE", ConvertToFleet("BRE"), STANDARD.start, outcome=Outcome.SUCCESS)
    results = [
        OrderResult("FRANCE", Move("PAR", "BUR"), Outcome.BOUNCE, "bounced with Munich"),
        OrderResult("GERMANY", Move("MUN", "BUR"), Outcome.BOUNCE, "bounced with Paris"),
        OrderResult("FRANCE", SupportMove("MAR", "PAR", "BUR"), Outcome.CUT, "cut"),
        OrderResult("AUSTRIA", Hold("VIE"), Outcome.DISLODGED, dislodged=True),
        conversion,
    ]
    records = [result_record(r, STANDARD.start) if isinstance(r, OrderResult) else r for r in results]
    assert start_svg(records) == start_svg(results)
    assert "conversion-mark" in start_svg(results)


def test_a_record_s_text_is_not_what_is_drawn():
    record = result_record(OrderResult("FRANCE", Move("PAR", "BUR"), Outcome.SUCCESS), STANDARD.start)
    relabelled = {**record, "order": "anything at all"}
    assert start_svg([relabelled]) == start_svg([record])


def test_a_line_that_read_as_no_order_draws_nothing():
    drawn = layer(start_svg([unread_record("FRANCE", "A PAR - BUR", "refused")]), "orders")
    assert list(drawn) == []
