"""A newer version of a game's studio variant, offered to the running game by its game master.

A game pins the version it started on and never changes under it (``games.variants``). Only a game
master moves it on (the API checks who asks), only to a newer published version of the same studio
variant, and only at the start of the open phase: the phase's position is carried onto the new map and
checked there, and the orders already given are read again on it. Anything the new version cannot hold (a
unit on a province it no longer has, an owned centre it drops, an order it no longer reads) refuses the
change with ``position_invalid`` and changes nothing; the preview says so before.

Carrying the position over is a three-way merge per province of the map (terrain, centre, home, coasts):
where the game's play left the old version's start value, the new version's start value applies (a
correction of the map reaches the game); where play changed it (a timeline event fired), the game's value
stands. Provinces the new version adds join with their start values; provinces it removes leave.

The change is recorded as a ``VersionChange`` (who, when, from which version to which, the diff, and the
position as the old version left it, so the phase before replays to it), and told to the game's players
on every channel of its news (``notifications.version_changed_send``: mail, the inbox, webhooks).

Each problem is data: ``{"code", "message", "provinces"}``, and an order the new version refuses also
names its ``power``, the ``order`` as given and the engine's ``reason``. Orders are secret until the phase
is processed, but not from the game's masters (their console lists the open phase's orders): the preview
and the refusal are theirs alone, and a master cannot fix what the preview does not name.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from dipserver.engine import (
    ModuleState,
    TimelineError,
    UnitType,
    Variant,
    board_for,
    load_timeline,
    modules_for,
    read_orders,
)
from dipserver.games.errors import GameError
from dipserver.games.mappers import map_state_of, position_of
from dipserver.games.models import Game, Order, Phase, VersionChange
from dipserver.games.services.announcements import announcement_later
from dipserver.games.services.common import game_locked, phase_locked, phase_named_or_conflict
from dipserver.games.variants import game_variant, options_checked, studio_files_pinned
from dipserver.games.version_diff import version_diff
from dipserver.studio.models import VariantVersion


@dataclass(frozen=True)
class Preview:
    """What moving ``game`` to ``version`` would change: the diff of the variants, the phase it would
    apply at, and the problems that refuse it now (empty: it may be applied)."""

    game: Game
    version: VariantVersion
    diff: dict[str, Any]
    phase: str | None
    problems: tuple[dict[str, Any], ...]


def versions_offered(*, game: Game) -> list[VariantVersion]:
    """The published versions of the game's studio variant newer than the one it plays, newest first."""
    if game.studio_version_id is None:
        return []
    current = _pinned(game)
    return list(
        VariantVersion.objects.filter(slug=current.slug, number__gt=current.number, published=True)
        .select_related("author")
        .order_by("-number")
    )


def version_changes(*, game: Game) -> list[VersionChange]:
    """The game's record of its version changes, oldest first."""
    return list(VersionChange.objects.filter(game=game).select_related("by").order_by("id"))


def version_data(version: VariantVersion) -> dict[str, Any]:
    """A studio version as a ``VersionChange`` keeps it: plain data, valid on any server."""
    return {"id": version.id, "slug": version.slug, "number": version.number, "version": version.version}


def version_preview(*, game_id: int, version_id: int) -> Preview:
    """The differences ``version_id`` would bring to the game, and why it may not be applied now."""
    game = Game.objects.filter(id=game_id).first()
    if game is None:
        raise GameError(f"There is no game {game_id}", code="not_found")
    version = _offerable(game, version_id)
    old, new = game_variant(game), _variant_of(version)
    diff = version_diff(old, new, load_timeline(old), load_timeline(new))
    phase = Phase.objects.filter(id=game.current_phase_id).first() if game.current_phase_id else None
    problems: list[dict[str, Any]] = []
    if phase is not None:
        snapshot, problems = carried_over(phase.snapshot, old, new)
        problems = problems or _orders_unread(game, phase, old, new, snapshot)
    problems += _options_problems(game, new)
    return Preview(game, version, diff, phase.name if phase else None, tuple(problems))


def version_apply(*, game_id: int, version_id: int, phase_name: str | None, user: Any) -> VersionChange:
    """Move the game onto ``version_id`` from the start of its open phase (named ``phase_name``, so a
    change previewed for one phase never lands on the next: ``conflict``). Refused, with nothing changed,
    when the position or the orders given cannot be carried over (``position_invalid``)."""
    with transaction.atomic():
        game = game_locked(game_id)  # the lock order: the game, then its phase
        version = _offerable(game, version_id)
        old, new = game_variant(game), _variant_of(version)
        options = _options_or_refusal(game, new)
        phase = phase_locked(game) if game.current_phase_id is not None else None
        if phase is None:
            if phase_name:
                phase_named_or_conflict(game, "", phase_name)
            before: dict[str, Any] | None = None
        else:
            phase_named_or_conflict(game, phase.name, phase_name or "")
            if phase.status != Phase.Status.OPEN:
                raise GameError(f"{game.name}'s phase {phase.name} is being processed", code="conflict")
            before = phase.snapshot
            snapshot, problems = carried_over(before, old, new)
            problems = problems or _orders_unread(game, phase, old, new, snapshot)
            if problems:
                raise GameError(
                    _refusal_text(version, problems), code="position_invalid", problems=tuple(problems)
                )
            phase.snapshot, phase.variant_version = snapshot, new.version
            phase.save(update_fields=["snapshot", "variant_version"])
        change = VersionChange.objects.create(
            game=game,
            phase_index=phase.index if phase else None,
            phase_name=phase.name if phase else "",
            from_version=version_data(_pinned(game)),
            to_version=version_data(version),
            by=user,
            diff=version_diff(old, new, load_timeline(old), load_timeline(new)),
            snapshot_before=before,
        )
        game.studio_version, game.variant_version, game.options = version, new.version, options
        game.save(update_fields=["studio_version", "variant_version", "options"])
        # Its players hear it as they hear the game's other news (mail, inbox, webhooks), once committed.
        announcement_later("version_changed_send", game_id=game.id, change_id=change.id)
    return change


def carried_over(
    snapshot: dict[str, Any], old: Variant, new: Variant
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The snapshot's position on ``new``'s map (module docstring), and each thing it cannot hold there."""
    moved = copy.deepcopy(snapshot)
    moved["map"] = _map_merged(snapshot["map"], old, new)
    problems = _position_problems(moved, new)
    gone = set(snapshot["owners"]) - set(moved["map"]["supply_centres"])
    for centre in sorted(gone):
        problems.append(
            _problem(
                "centre_removed",
                f"{centre}, owned by {snapshot['owners'][centre]}, is no longer a supply centre",
                centre,
            )
        )
    moved["owners"] = {p: o for p, o in snapshot["owners"].items() if p not in gone}
    moved["last_occupants"] = {
        p: o for p, o in snapshot.get("last_occupants", {}).items() if p in new.provinces
    }
    return moved, problems


def _map_merged(current: dict[str, Any], old: Variant, new: Variant) -> dict[str, Any]:
    start_old, start_new = old.map_state, new.map_state
    terrain, coasts, homes, centres = {}, {}, {}, []
    for code in sorted(new.provinces):
        played = code in current["terrain"]
        terrain[code] = _merged(
            current["terrain"].get(code),
            _value(start_old.terrain.get(code)),
            _value(start_new.terrain[code]),
            played,
        )
        coast = _merged(
            current["coasts"].get(code),
            _coasts(start_old.coasts.get(code)),
            _coasts(start_new.coasts.get(code)),
            played,
        )
        if coast:
            coasts[code] = coast
        home = _merged(
            current["homes"].get(code), start_old.homes.get(code), start_new.homes.get(code), played
        )
        if home:
            homes[code] = home
        centre = _merged(
            code in current["supply_centres"],
            code in start_old.supply_centres,
            code in start_new.supply_centres,
            played,
        )
        if centre:
            centres.append(code)
    return {"terrain": terrain, "coasts": coasts, "supply_centres": centres, "homes": homes}


def _merged(played: Any, old_start: Any, new_start: Any, known: bool) -> Any:
    """The game's value where play changed it from the old start, else the new version's start value."""
    return new_start if not known or played == old_start else played


def _position_problems(snapshot: dict[str, Any], new: Variant) -> list[dict[str, Any]]:
    board = board_for(new, map_state_of(snapshot))
    problems = []
    units = [(u, "") for u in snapshot["units"]] + [(d, "dislodged ") for d in snapshot["dislodged"]]
    for unit, dislodged in units:
        location, kind = unit["location"], UnitType(unit["type"])
        province = location.partition("/")[0]
        what = (
            f"the {dislodged}{'army' if kind is UnitType.ARMY else 'fleet'} of {unit['power']} in {location}"
        )
        if unit["power"] not in new.powers:
            problems.append(
                _problem(
                    "power_removed", f"{what}: {unit['power']} is not a power of the new version", province
                )
            )
        elif province not in new.provinces:
            problems.append(
                _problem("province_removed", f"{what}: {province} is not on the new map", province)
            )
        elif not board.can_occupy(kind, location):
            problems.append(
                _problem("unit_cannot_stand", f"{what}: it cannot stand there on the new map", province)
            )
    retreats = {place for dislodged in snapshot["dislodged"] for place in dislodged["retreats"]}
    problems += [
        _problem("retreat_removed", f"a retreat to {place} is not on the new map", place.partition("/")[0])
        for place in sorted(retreats)
        if place.partition("/")[0] not in new.provinces
    ]
    return problems


def _orders_unread(
    game: Game, phase: Phase, old: Variant, new: Variant, snapshot: dict[str, Any]
) -> list[dict[str, Any]]:
    """Each order already given that the new version refuses, read as the game's orders are: the power,
    the order, and the engine's reason, coded ``order_province_removed`` (it names a province the new map
    no longer has) or ``order_refused`` (the new map refuses it otherwise: a border gone, a unit that
    cannot go there)."""
    board, position = board_for(new, map_state_of(snapshot)), position_of(snapshot)
    modules = snapshot.get("modules")
    state = ModuleState.from_data(modules["state"]) if modules else None
    texts: dict[str, list[str]] = {}
    for power, text in Order.objects.filter(phase=phase).order_by("id").values_list("power__name", "text"):
        texts.setdefault(power, []).append(text)
    known = set(old.provinces) | set(new.provinces)
    problems = []
    for power, lines in sorted(texts.items()):
        read = read_orders(
            lines, board, position, power, modules=modules_for(new, game.options), module_state=state
        )
        for line in read:
            if line.error is None:
                continue
            provinces = _provinces_in(line.text, known)
            gone = set(provinces) - set(new.provinces)
            code = "order_province_removed" if gone else "order_refused"
            message = f"{power}'s order {line.text} would no longer be valid: {line.error}"
            problem = _problem(code, message, *provinces)
            problems.append({**problem, "power": power, "order": line.text, "reason": line.error})
    return problems


def _provinces_in(text: str, known: set[str]) -> list[str]:
    """The provinces an order's text names (coasts left off), in its order."""
    words = (word.partition("/")[0] for word in re.findall(r"[A-Za-z0-9/]+", text.upper()))
    return list(dict.fromkeys(word for word in words if word in known))


def _offerable(game: Game, version_id: int) -> VariantVersion:
    if game.status == Game.Status.FINISHED:
        raise GameError(f"{game.name} is over: its variant version no longer changes", code="not_in_play")
    if game.studio_version_id is None:
        raise GameError(f"{game.name} does not play a studio variant", code="other_variant")
    version = VariantVersion.objects.filter(id=version_id, published=True).first()
    if version is None:
        raise GameError(f"There is no published studio variant version {version_id}", code="not_found")
    current = _pinned(game)
    if version.slug != current.slug:
        raise GameError(
            f"{version} is a version of another variant; {game.name} plays {current.slug}",
            code="other_variant",
        )
    if version.number <= current.number:
        raise GameError(f"{version} is not newer than {current}, which {game.name} plays", code="not_newer")
    return version


def _pinned(game: Game) -> VariantVersion:
    """The version the game plays (a studio game's: callers check ``studio_version_id`` first)."""
    pinned = game.studio_version
    assert pinned is not None
    return pinned


def _variant_of(version: VariantVersion) -> Variant:
    return studio_files_pinned(version.slug, version.files, version.version, str(version))


def _options_or_refusal(game: Game, new: Variant) -> dict[str, Any]:
    try:
        return options_checked(load_timeline(new), game.options)
    except (GameError, TimelineError) as exc:
        raise GameError(
            f"The game's options do not fit the new version: {exc}", code="position_invalid"
        ) from None


def _options_problems(game: Game, new: Variant) -> list[dict[str, Any]]:
    try:
        _options_or_refusal(game, new)
    except GameError as exc:
        return [_problem("options_unfit", str(exc))]
    return []


def _refusal_text(version: VariantVersion, problems: list[dict[str, Any]]) -> str:
    return f"The game cannot move to {version}: " + "; ".join(p["message"] for p in problems)


def _problem(code: str, message: str, *provinces: str) -> dict[str, Any]:
    return {"code": code, "message": message, "provinces": list(provinces)}


def _value(terrain: Any) -> str | None:
    return None if terrain is None else str(getattr(terrain, "value", terrain))


def _coasts(named: Any) -> dict[str, list[str]] | None:
    if not named:
        return None
    return {coast: sorted(waters) for coast, waters in sorted(named.items())}
