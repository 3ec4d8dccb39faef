"""One unit's chosen order in a movement phase."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

Option = Mapping[str, Any]


@dataclass
class Plan:
    """The order's score, the option (as the options endpoint gives it), and the province the unit ends
    in if all goes well."""

    score: float
    option: Option
    ends: str
