"""A game's move to a newer version of its studio variant as its players are told it, by mail and on the
channels beside it (the inbox, webhooks): which version it left and which it plays now, from which phase,
who gave it, and what changes, the diff in sentences (``diff_lines``) as the game master's preview showed
them. Read once for the mail and every channel in the announcing task."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dipserver.games.models import Game, Power, VersionChange
from dipserver.games.phase_names import game_phase_title
from dipserver.games.phase_news import shared_read
from dipserver.games.version_diff import diff_lines


@dataclass(frozen=True)
class VersionNews:
    change: VersionChange
    game: Game
    seats: list[Power]  # every seat of the game, its player loaded
    title: str
    lines: list[str]  # what happened, then each change
    facts: dict[str, Any]  # the structured fields of webhook payloads


def version_news(change_id: int) -> VersionNews | None:
    """The news of one version change (None: the change is gone, with its game)."""
    return shared_read(("version_news", change_id), lambda: _read(change_id))


def _read(change_id: int) -> VersionNews | None:
    change = VersionChange.objects.select_related("game", "by").filter(id=change_id).first()
    if change is None:
        return None
    game = change.game
    old, new = change.from_version, change.to_version
    since = game_phase_title(game, change.phase_name) if change.phase_name else "the start"
    by = change.by.username if change.by else "A game master"
    title = f"[{game.name}] The game plays version {new['number']} of its variant from {since}"
    lines = [
        f"{by} moved {game.name} from version {old['number']} to version {new['number']} of the studio "
        f"variant {new['slug']}, from {since} on.",
        "What changes:",
        *(f"- {line}" for line in diff_lines(change.diff)),
    ]
    facts = {
        "phase": change.phase_name or None,
        "from_version": old,
        "to_version": new,
        "by": change.by.username if change.by else None,
        "diff": change.diff,
    }
    seats = list(Power.objects.filter(game=game).select_related("user").order_by("name", "id"))
    return VersionNews(change, game, seats, title, lines, facts)
