"""Loads the Diplomacy order kinds, each of which registers itself (``registry``), and names the modules of
the engine's kinds that the registry loads when it first needs them. Imported by the reader, the
adjudicator's movement phase and the options, which use them through the registry only."""

from __future__ import annotations

from dipserver.engine.kinds import convoy, hold, move, plugins, support
from dipserver.engine.kinds.registry import Kind, later
from dipserver.engine.types import PhaseType

STANDARD: tuple[Kind, ...] = (hold.HOLD, move.MOVE, support.SUPPORT_HOLD, support.SUPPORT_MOVE, convoy.CONVOY)

# The retreat phase's and Winter's kinds: loaded with the first question about such a phase (a unit's
# options there are theirs), or about one of their orders.
later("dipserver.engine.kinds.retreat", "dipserver.engine.kinds.disband", phases=(PhaseType.RETREATS,))
later("dipserver.engine.kinds.build", "dipserver.engine.kinds.waive", phases=(PhaseType.ADJUSTMENTS,))
# The variants' conversions, the rule modules' depots and Snow Storms, and the Abstraction A/F rules'
# boarding and landing: loaded the first time the registry is asked for a kind it does not have, or for
# every kind (``registry.later``).
later(
    "dipserver.engine.kinds.conversion", "dipserver.engine.modules.kinds", "dipserver.engine.kinds.boarding"
)

# The kinds from outside the engine's modules (``plugins.py``), loaded once the standard ones are.
plugins.load()
