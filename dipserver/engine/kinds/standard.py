"""Loads the Diplomacy order kinds, each of which registers itself (``registry``), and names the modules of
the engine's kinds that few games give, which the registry loads when it first needs them. Imported by the
reader, the adjudicator's movement phase and the options, which use them through the registry only."""

from __future__ import annotations

from dipserver.engine.kinds import build, convoy, disband, hold, move, plugins, retreat, support, waive
from dipserver.engine.kinds.registry import Kind, later

STANDARD: tuple[Kind, ...] = (hold.HOLD, move.MOVE, support.SUPPORT_HOLD, support.SUPPORT_MOVE, convoy.CONVOY)
STANDARD += (retreat.RETREAT, disband.DISBAND, build.BUILD, waive.WAIVE)

# The variants' conversions and the rule modules' depots and Snow Storms: loaded the first time the registry
# is asked for a kind it does not have, or for every kind (``registry.later``).
later("dipserver.engine.kinds.conversion", "dipserver.engine.modules.kinds")

# The kinds from outside the engine's modules (``plugins.py``), loaded once the standard ones are.
plugins.load()
