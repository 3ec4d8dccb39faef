"""The dry run's map pictures: the current phase with the orders as they would be adjudicated (what its
history map will show once processed) and the map of the phase that would follow, drawn by
``dipserver.render`` as the API draws a phase, for the game masters' dry-run page."""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Any

from dipserver.engine import Variant
from dipserver.games.changes import next_changes
from dipserver.games.errors import GameError
from dipserver.games.mappers import map_state_of, position_of
from dipserver.games.models import Game
from dipserver.games.turn import Turn
from dipserver.games.variants import game_variant, geometry_of
from dipserver.render import GeometryError, render_svg


@dataclass(frozen=True)
class DryRunPicture:
    caption: str
    src: str  # a data: URL of the SVG (the page's policy allows data: images), or "" with ``problem``
    problem: str = ""


def dry_run_pictures(*, game: Game, snapshot: dict[str, Any], turn: Turn) -> list[DryRunPicture]:
    """The current phase with the dry run's results drawn, then the resulting phase's map."""
    try:
        variant = game_variant(game)
    except GameError as exc:
        return [DryRunPicture("Map", "", f"the variant cannot be loaded: {exc}")]
    after = turn.next_snapshot
    shown = [
        (
            f"{snapshot['phase']}: the orders as they would be adjudicated",
            snapshot,
            turn.results,  # the records the engine made
        ),
        (f"{after['phase']}: the map that would follow", after, None),
    ]
    pictures = []
    for caption, phase_snapshot, results in shown:
        try:
            svg = render_svg(**_args(game, variant, phase_snapshot, results))
        except GeometryError as exc:
            pictures.append(DryRunPicture(caption, "", f"there is no drawing of this map yet: {exc}"))
            continue
        encoded = base64.b64encode(svg.encode()).decode("ascii")
        pictures.append(DryRunPicture(caption, f"data:image/svg+xml;base64,{encoded}"))
    return pictures


def _args(
    game: Game, variant: Variant, snapshot: dict[str, Any], results: list[dict[str, Any]] | None
) -> dict[str, Any]:
    modules = snapshot.get("modules")
    if modules:  # Snow Storms waiting to be drawn are other powers' secret orders: left out, as in the API
        modules = {
            **modules,
            "state": {k: v for k, v in (modules.get("state") or {}).items() if k != "storms"},
        }
    return {
        "variant": variant,
        "map_state": map_state_of(snapshot),
        "position": position_of(snapshot),
        "results": results or None,
        "next_changes": next_changes(game, snapshot["phase"]) or None,
        "modules": modules or None,
        "geometry": geometry_of(game),
    }
