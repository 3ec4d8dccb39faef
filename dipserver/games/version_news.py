"""A game's move to a newer version of its studio variant as its players are told it, by mail and on the
channels beside it (the inbox, webhooks): which version it left and which it plays now, from which phase,
who gave it, and what changes, the diff in sentences as the game master's preview showed it
(``static/js/game_versions.js``). Read once for the mail and every channel in the announcing task."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dipserver.games.models import Game, Power, VersionChange
from dipserver.games.phase_names import game_phase_title
from dipserver.games.phase_news import shared_read


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


def diff_lines(diff: dict[str, Any]) -> list[str]:
    """``version_diff``'s diff in sentences, one per kind of change."""
    if not diff or diff.get("same"):
        return ["Nothing changes on the map, in the timeline or in victory."]
    lines: list[str] = []
    provinces, centres, powers = diff["provinces"], diff["centres"], diff["powers"]
    for label, names in (
        ("Provinces added", provinces["added"]),
        ("Provinces removed", provinces["removed"]),
        ("Supply centres added", centres["added"]),
        ("Supply centres removed", centres["removed"]),
        ("Powers added", powers["added"]),
        ("Powers removed", powers["removed"]),
    ):
        if names:
            lines.append(f"{label}: {', '.join(names)}")
    lines += [f"{c['province']}: {c['field']} {c['from']} → {c['to']}" for c in provinces["changed"]]
    for label, pairs in (
        ("Borders added", diff["adjacencies"]["added"]),
        ("Borders removed", diff["adjacencies"]["removed"]),
    ):
        if pairs:
            lines.append(f"{label}: {', '.join(f'{a}-{b}' for a, b in pairs)}")
    lines += [
        f"Home centre {h['province']}: {h['from'] or 'none'} → {h['to'] or 'none'}" for h in diff["homes"]
    ]
    timeline = diff["timeline"]
    lines += [f"New map change: {e['text']}" for e in timeline["added"]]
    lines += [f"Map change dropped: {e['text']}" for e in timeline["removed"]]
    if timeline["settings_changed"]:
        lines.append("The timeline's settings or options change.")
    if diff["victory"]:
        before, after = diff["victory"]["from"]["centres"], diff["victory"]["to"]["centres"]
        lines.append(f"Victory: {before} → {after} centres (or its rules change)")
    return lines
