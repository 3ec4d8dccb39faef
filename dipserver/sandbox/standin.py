"""A sandbox seen as the game functions see a game: an unsaved ``Game`` (and ``Phase``) carrying exactly
what they read — the pinned variant, options, generated board, secret and the position shown — so the
variant pin, the timeline, the rule modules, "map changes coming" and the map's picture are worked out by
the game server's own code (``dipserver.games``), never a second copy. Nothing here is ever saved.
"""

from __future__ import annotations

from dipserver.games.models import Game, Phase
from dipserver.sandbox.models import Sandbox, Step


def standin_game(sandbox: Sandbox, step: Step | None = None) -> Game:
    """The sandbox as an unsaved game in play, at ``step`` when given (its ``current_phase``)."""
    game = Game(name=sandbox.title, status=Game.Status.ACTIVE, **sandbox.pinned())
    if step is not None:
        game.current_phase = standin_phase(sandbox, step)
    return game


def standin_phase(sandbox: Sandbox, step: Step) -> Phase:
    """The step as an unsaved phase: open while it takes orders, processed (with its results) once played."""
    return Phase(
        index=step.number,
        name=step.snapshot["phase"],
        status=Phase.Status.PROCESSED if step.status == Step.Status.PLAYED else Phase.Status.OPEN,
        variant_version=sandbox.variant_version,
        **step.phase_fields(),
    )
