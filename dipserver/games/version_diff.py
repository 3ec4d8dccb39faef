"""What a newer version of a studio variant changes, as data a game master reads before offering it to a
running game: provinces (added, removed, renamed, terrain at the start), adjacencies, supply and home
centres, powers, the timeline's events and settings, and victory. Read from the two variants the engine
builds (so a base chain's map counts) and from their timelines; nothing is written. ``diff_lines`` says
the same in sentences."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from dipserver.engine import HOOK_WORDS, Timeline, Variant


def version_diff(
    old: Variant, new: Variant, old_timeline: Timeline, new_timeline: Timeline
) -> dict[str, Any]:
    """Each kind of change from ``old`` to ``new``; ``same`` is true when none of them differs."""
    diff: dict[str, Any] = {
        "provinces": _provinces(old, new),
        "adjacencies": _adjacencies(old, new),
        "centres": _added_removed(old.map_state.supply_centres, new.map_state.supply_centres),
        "homes": _changed(old.map_state.homes, new.map_state.homes),
        "powers": _added_removed(old.powers.keys(), new.powers.keys()),
        "timeline": _timeline(old_timeline, new_timeline),
        "victory": _victory(old, new),
    }
    diff["same"] = not any(_counts(part) for part in diff.values())
    return diff


def diff_lines(diff: dict[str, Any]) -> list[str]:
    """``version_diff``'s diff in sentences, one per kind of change: the one wording of what a version
    changes, read by the game master's preview (through the API's ``diff_lines``) and by the players' news."""
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


def _provinces(old: Variant, new: Variant) -> dict[str, Any]:
    both = sorted(old.provinces.keys() & new.provinces.keys())
    changed: list[dict[str, str | None]] = []
    for code in both:
        before, after = old.provinces[code].name, new.provinces[code].name
        if before != after:
            changed.append({"province": code, "field": "name", "from": before, "to": after})
        before_t, after_t = old.map_state.terrain.get(code), new.map_state.terrain.get(code)
        if before_t != after_t:
            changed.append(
                {"province": code, "field": "terrain", "from": _str(before_t), "to": _str(after_t)}
            )
    return {**_added_removed(old.provinces.keys(), new.provinces.keys()), "changed": changed}


def _adjacencies(old: Variant, new: Variant) -> dict[str, list[list[str]]]:
    def pairs(variant: Variant) -> set[tuple[str, str]]:
        return {(a, b) for a, near in variant.borders.items() for b in near if a < b}

    before, after = pairs(old), pairs(new)
    return {
        "added": [list(p) for p in sorted(after - before)],
        "removed": [list(p) for p in sorted(before - after)],
    }


def _timeline(old: Timeline, new: Timeline) -> dict[str, Any]:
    def rows(timeline: Timeline) -> dict[str, dict[str, Any]]:
        return {json.dumps(row, sort_keys=True): row for row in map(_event_row, timeline.events)}

    before, after = rows(old), rows(new)
    return {
        "added": [after[key] for key in sorted(after.keys() - before.keys())],
        "removed": [before[key] for key in sorted(before.keys() - after.keys())],
        "settings_changed": old.settings != new.settings or dict(old.options) != dict(new.options),
    }


def _event_row(event: Any) -> dict[str, Any]:
    """One timeline event (``engine`` Event) as plain data, with its date and change in words."""
    row: dict[str, Any] = {
        "change": str(event.change.value),
        "hook": str(event.hook.value),
        "provinces": sorted(event.provinces),
        "year": event.year,
        "until": event.until,
        "chance": [list(pair) for pair in event.chance],
        "keep": sorted(event.keep),
        "only_with": event.only_with,
        "only_without": event.only_without,
        "condition": None if event.when is None else repr(event.when),
    }
    when = f"{event.year} " if event.year else ""
    places = ", ".join(row["provinces"]) or "every centre"
    condition = ", when its condition holds" if event.when is not None else ""
    row["text"] = f"{when}{HOOK_WORDS[event.hook]}{condition}: {places} → {row['change']}"
    return row


def _victory(old: Variant, new: Variant) -> dict[str, Any] | None:
    before = {"centres": old.victory_centres, "rules": [dict(v) for v in old.victory]}
    after = {"centres": new.victory_centres, "rules": [dict(v) for v in new.victory]}
    return None if _json(before) == _json(after) else {"from": before, "to": after}


def _added_removed(before: Any, after: Any) -> dict[str, list[str]]:
    old, new = set(before), set(after)
    return {"added": sorted(new - old), "removed": sorted(old - new)}


def _changed(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[dict[str, Any]]:
    keys = sorted(before.keys() | after.keys())
    return [
        {"province": key, "from": before.get(key), "to": after.get(key)}
        for key in keys
        if before.get(key) != after.get(key)
    ]


def _counts(part: Any) -> bool:
    """Whether one part of the diff holds a change."""
    if isinstance(part, dict):
        return any(_counts(value) for value in part.values())
    if isinstance(part, list):
        return bool(part)
    return bool(part) and part is not False


def _str(value: Any) -> str | None:
    return None if value is None else str(getattr(value, "value", value))


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)
