"""Sandbox positions the tests set up directly: a step moved on to a later phase of the timeline."""

from __future__ import annotations


def step_at(sandbox_id: int, phase: str, *units: str) -> None:
    """Step 0 becomes ``phase`` on the map the timeline has made by then, with exactly ``units``."""
    from dipserver.engine.position import Position
    from dipserver.engine.timeline import hooks_between, walk
    from dipserver.engine.types import Phase as EnginePhase
    from dipserver.engine.types import Unit, UnitType
    from dipserver.games.mappers import snapshot_from
    from dipserver.games.variants import game_variant
    from dipserver.sandbox.models import Sandbox
    from dipserver.sandbox.standin import standin_game

    sandbox = Sandbox.objects.get(id=sandbox_id)
    variant = game_variant(standin_game(sandbox))
    target = EnginePhase.parse(phase)
    ran = set(hooks_between(variant.start.phase, target))
    map_state = variant.map_state
    for year, hook, step in walk(variant, {"mode": "exact"}, None):
        if (year, hook) not in ran:
            break
        map_state = step.map_state
    placed = {}
    for spec in units:
        power, kind, loc = spec.split()
        placed[loc.split("/")[0]] = Unit(power, UnitType(kind), loc)
    step = sandbox.steps.get(number=0)
    step.snapshot = snapshot_from(map_state, Position(target, placed, {}))
    step.save(update_fields=["snapshot"])
