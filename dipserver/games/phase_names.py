"""Phases in words: ``S1903M`` is ``Spring 1903 movement``, or in the variant's own season names (Sahara's
``Early Summer 1905``). Mails, order errors, the admin and the pages all name phases through here.
"""

from __future__ import annotations

from dipserver.engine import Phase as EnginePhase
from dipserver.engine import Timeline
from dipserver.games.errors import GameError
from dipserver.games.models import Game
from dipserver.games.variants import game_timeline

# As the game page says them (static/js/words.js): one name for a season everywhere a player reads it.
SEASONS = {"S": "Spring", "F": "Autumn", "W": "Winter"}
KINDS = {"M": "movement", "R": "retreats", "A": "builds"}


def phase_label(name: str, timeline: Timeline | None = None) -> str:
    """``S1903M`` -> ``Spring 1903``, as players speak of deadlines; with the variant's ``timeline``, its
    own season names (Sahara's ``Early Summer 1905``)."""
    phase = EnginePhase.parse(name)
    own = timeline.season_label(phase.season, phase.year) if timeline is not None else None
    return f"{own or SEASONS[name[0]]} {name[1:5]}"


def phase_title(name: str, timeline: Timeline | None = None) -> str:
    """``F1903R`` -> ``Autumn 1903 retreats`` (see ``phase_label`` for ``timeline``)."""
    return f"{phase_label(name, timeline)} {KINDS[name[-1]]}"


def game_phase_title(game: Game, name: str) -> str:
    """A phase of ``game`` in words, with its variant's season names."""
    try:
        timeline = game_timeline(game)[1]
    except GameError:
        timeline = None  # a variant that cannot be loaded still has phases to name
    return phase_title(name, timeline)
