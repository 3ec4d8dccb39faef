"""The JSON contract of ``python -m dipserver.adjudicator adjudicate``: request and answer <-> engine values.

A request is one phase of one game as plain JSON::

    {"variant": "standard", "phase": "S1901M",
     "units":     {"ENGLAND": ["F LON", "A LVP", "F STP/SC"], ...},
     "centers":   {"ENGLAND": ["EDI", "LON", "LVP"], ...},
     "homes":     {"ENGLAND": ["EDI", "LON", "LVP"], ...},          optional: default from the variant
     "dislodged": {"AUSTRIA": [{"unit": "A RUM", "retreats": ["SER"]}]},   retreat phases only
     "orders":    {"ENGLAND": ["F LON - NTH", "A LVP - EDI"], ...}}

The answer holds each order's outcome keyed by the order's text as given, the reasons for every outcome
that has one, the phases skipped, and ``next``: the following position in the request's own shape, so a
tool can add orders to it and send it straight back. Anything wrong with a request raises
``RequestError`` with a message that names the field and the problem.
"""

from __future__ import annotations

from typing import Any

from dipserver.adjudicator.answers import position_data
from dipserver.adjudicator.request import Request, RequestError, _generated_defaults, read_request
from dipserver.adjudicator.turnio import MapRequestError, play

__all__ = ["Request", "RequestError", "adjudicate_request", "position_data", "read_request"]


def adjudicate_request(data: Any) -> dict[str, Any]:
    """One decoded request in, its decoded answer out (``RequestError`` for a bad request). Every request,
    whatever its variant, is played by the one phase pipeline (``turn.play_phase``)."""
    request = read_request(data)
    try:
        return play(
            request.variant,
            request.board.map_state,
            request.position,
            request.orders,
            request.changing or {},
            changing=request.map_changes,
            board=request.generated,
            defaults=_generated_defaults() if request.generated is not None else None,
            played=request.changing is not None,
        )
    except MapRequestError as exc:
        raise RequestError(str(exc)) from exc
