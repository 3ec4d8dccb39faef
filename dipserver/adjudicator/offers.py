"""The answer of ``python -m dipserver.adjudicator options``: every power's legal orders for a position.

The request is ``adjudicate``'s (``jsonio.py``, and ``turnio.py`` for a map that changes, rule modules
or a generated board): an answer's ``next`` may be sent as it is. Its ``"orders"``, if any, are not read:
options do not depend on them. The answer is::

    {"phase": "S1901M",
     "options": {"AUSTRIA": {"power": "AUSTRIA", "phase": "S1901M", "adjustment": 0,
                             "units": {"BUD": [{"text": "A BUD - GAL", "kind": "move", ...}, ...]},
                             "builds": [], "conversions": [], "module_orders": [],
                             "builds_first": [], "builds_elsewhere": null},
                 ...}}

Each power's entry is what the server's ``GET /api/v1/games/<id>/options`` answers that power for the same
position: both are ``PowerOptions.to_data`` of the engine's options, with the game's rule modules in play
(``tests/api/test_options_cli.py`` holds the two to the same answer). With the modules on and no
``"module_state"``, the phase is opened as the server opens it (its blizzards drawn from the game secret).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import dipserver.engine.modules as rules  # their play, loaded when a request first has modules
from dipserver.adjudicator.request import Request, RequestError, _generated_defaults, read_request
from dipserver.engine.position import Position

if TYPE_CHECKING:
    from dipserver.engine.modules.phase import InPlay


def options_request(data: Any) -> dict[str, Any]:
    """One decoded request in, every power's options out (``RequestError`` for a bad request)."""
    from dipserver.engine.options import phase_options

    request = read_request(data)
    position, modules = request.position, None
    if request.changing is not None:
        position, modules = _in_play(request, data)
    found = phase_options(request.board, position, modules=modules)
    return {"phase": str(position.phase), "options": {power: o.to_data() for power, o in found.items()}}


def _in_play(request: Request, data: Any) -> tuple[Position, InPlay | None]:
    """The position (with Deluge's memory of occupants) and the rule modules in play, with the state the
    phase opened with: the request's ``"module_state"``, or drawn as the server draws it."""
    from dipserver.adjudicator.turnio import MapRequestError, game_options, module_state, occupants
    from dipserver.engine.modules import modules_for
    from dipserver.engine.turn import open_modules

    variant, position = request.variant, request.position
    defaults = _generated_defaults() if request.generated is not None else None
    try:
        options, secret = game_options(variant, data.get("options"), defaults)
        position = replace(position, last_occupants=occupants(variant, data.get("last_occupants")))
        modules = modules_for(variant, options)
        opened = module_state(variant, data.get("module_state"))
    except MapRequestError as exc:
        raise RequestError(str(exc)) from exc
    if not modules.any:
        return position, None
    if opened is None:
        opened = open_modules(variant, request.board.map_state, position, modules, None, secret).state
    return position, rules.phase.InPlay(modules, opened)
