"""Loads the Diplomacy order kinds, each of which registers itself (``registry``). Imported by the reader,
the adjudicator's movement phase and the options, which use them through the registry only."""

from __future__ import annotations

from dipserver.engine.kinds import build, convoy, disband, hold, move, plugins, retreat, support, waive
from dipserver.engine.kinds.registry import Kind

STANDARD: tuple[Kind, ...] = (hold.HOLD, move.MOVE, support.SUPPORT_HOLD, support.SUPPORT_MOVE, convoy.CONVOY)
STANDARD += (retreat.RETREAT, disband.DISBAND, build.BUILD, waive.WAIVE)

# The kinds from outside the engine's modules (``plugins.py``), loaded once the standard ones are.
plugins.load()
