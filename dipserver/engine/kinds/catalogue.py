"""Every order kind's names, as the API's schema lists them: what a record's ``kind`` and an option's
``kind`` may be. Importing this module loads every kind (the registry loads those few games give only
when asked for all of them), so only what lists the kinds imports it: the engine's face and the API.
"""

from __future__ import annotations

from dipserver.engine.kinds import standard as _standard  # noqa: F401  (registers the Diplomacy kinds)
from dipserver.engine.kinds.registry import kinds, record_kinds

# Every kind a record may have (``Kind.records``), sorted.
RECORD_KINDS: tuple[str, ...] = record_kinds()
# Every kind's name (an option's ``kind``), sorted: the same list whichever module a process loaded first.
OPTION_KINDS: tuple[str, ...] = tuple(sorted(kind.name for kind in kinds().values()))
