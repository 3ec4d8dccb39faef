"""The JSON contract of ``adjudicate`` for variants whose map changes (Wall of Ice, Sahara, Deluge), and
for requests that switch on rule modules or play a generated board.

Such a request is the usual one (``jsonio.py``) with four optional fields more:

- ``"options"``: ``{"mode": "exact"|"random", "seed": "game secret", <variant switch>: true|false}`` —
  the game's timeline options (``timeline`` / ``map`` take the same as ``--mode``, ``--seed``,
  ``--option``); random mode needs the seed;
- ``"map"``: the map of the phase, in the shape ``map VARIANT --at PHASE`` prints (``{"phase",
  "provinces": {"NTH": {"terrain", "coasts", "sc", "owner", "home"}}}``); left out, the start map. Only
  ``terrain``, ``sc`` and ``home`` are read: the named coasts follow from the terrain and are checked
  against it, and owners come from ``"centers"``;
- ``"stay_flags"``: in a retreat phase, the provinces of Sahara fleets told to stay fleets in the
  movement phase before (an answer's ``next`` carries them);
- ``"last_occupants"``: ``{province: power}``, Deluge's memory of who stood where at the end of the
  last Spring or Autumn (new-centre ownership, E11); ``next`` carries it.

The same ``"options"`` (then with the rule modules, ``blizzards`` and ``supply_lines``), ``"module_state"``
(the modules' state as the phase opened) and a generated board's ``"board"`` may be given for any variant;
``request.played`` sends such requests here too (docs/engine.md, "Rule modules and generated boards").

Orders may include the variant's conversion orders (``F BRE becomes army``, ``A POR becomes fleet``,
``F NAO stays fleet``). The phase is played by ``turn.play_phase``; the answer adds ``"events"`` (the
map changes between this phase and the next, as ``hooks.event_text`` describes them) and
``"outcome"`` (``null`` while the game goes on, else ``{"result": "win"|"draw"|"no_winner", "powers",
"reason"}``), and ``next`` carries the changed map, the options and the flags, so ``next`` + orders is
again a valid request.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import dipserver.engine.modules as rules  # their play, loaded when a request first has modules
from dipserver.adjudicator.answers import position_data
from dipserver.engine.board import MapState, board_for
from dipserver.engine.coasts import recompute_coasts
from dipserver.engine.definition import Variant
from dipserver.engine.hooks import event_text, map_data
from dipserver.engine.modules import modules_for, split_options
from dipserver.engine.position import Position
from dipserver.engine.records import shown as shown_text
from dipserver.engine.results import rows_of
from dipserver.engine.timelinecache import load_timeline
from dipserver.engine.timelinedata import TimelineError
from dipserver.engine.turn import Turn, open_modules, play_phase
from dipserver.engine.types import Terrain

if TYPE_CHECKING:
    from dipserver.engine.modules.phase import ModuleState

TIMELINE_KEYS = frozenset({"options", "map", "stay_flags", "last_occupants"})


class MapRequestError(ValueError):
    """A field of a changing-map request is wrong; ``request`` turns it into a ``RequestError``."""


def game_options(
    variant: Variant, raw: Any, defaults: Mapping[str, Any] | None = None
) -> tuple[dict[str, Any], str | None]:
    """The request's ``"options"``: the timeline options checked, the rule modules switched on
    (``blizzards``, ``supply_lines``, checked as the server checks a new game's), and the game secret.
    ``defaults`` go under the request's (a generated board's ``DEFAULT_OPTIONS``)."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise MapRequestError('"options" is an object like {"mode": "random", "seed": "...", "errata": true}')
    options = {**(defaults or {}), **raw}
    secret = options.pop("seed", None)
    if secret is not None and not isinstance(secret, str):
        raise MapRequestError('"options": "seed" is the game secret, a string')
    try:
        modules, rest = split_options(options)
    except ValueError as exc:
        raise MapRequestError(f'"options": {exc}') from exc
    try:
        resolved = load_timeline(variant).game_options(rest)
    except TimelineError as exc:
        raise MapRequestError(f'"options": {exc}') from exc
    if resolved["mode"] == "random" and not secret and any(e.chance for e in load_timeline(variant).events):
        raise MapRequestError('"options": random mode draws from the game secret: give it as "seed"')
    if modules.blizzards is not None and not secret:
        raise MapRequestError('"options": blizzards are drawn from the game secret: give it as "seed"')
    switched = {k: v for k, v in modules.to_options().items() if v is not False}
    return {**resolved, **switched}, (secret if resolved["mode"] == "random" or modules.any else None)


def module_state(variant: Variant, raw: Any) -> ModuleState | None:
    """The request's ``"module_state"``: the phase's module state as it opened (an answer's ``next``
    carries it); ``None`` when it is absent."""
    if raw is None:
        return None
    shape = (
        '"module_state" is {"blizzards", "storms", "tokens_used", "supply"}, as an answer\'s "next" gives it'
    )
    if not isinstance(raw, dict):
        raise MapRequestError(shape)
    try:
        state = rules.phase.ModuleState.from_data(raw)
        unknown = sorted(set(state.blizzards) - set(variant.provinces))
    except (AttributeError, KeyError, TypeError, ValueError):
        raise MapRequestError(shape) from None
    if unknown:
        raise MapRequestError(f'"module_state": unknown province(s) {unknown} under "blizzards"')
    return state


def map_state(variant: Variant, raw: Any) -> MapState:
    """The request's ``"map"`` as a ``MapState``; the start map when it is absent."""
    if raw is None:
        return variant.map_state
    provinces = raw.get("provinces") if isinstance(raw, dict) else None
    if not isinstance(provinces, dict):
        raise MapRequestError(
            '"map" is {"provinces": {"NTH": {"terrain": "sea", ...}}}, as "map --at" prints'
        )
    missing = sorted(set(variant.provinces) - set(provinces))
    unknown = sorted(set(provinces) - set(variant.provinces))
    if unknown or missing:
        what = f"unknown province(s) {unknown}" if unknown else f"missing province(s) {missing}"
        raise MapRequestError(f'"map": {what}; it lists every province of {variant.slug}')
    terrain: dict[str, Terrain] = {}
    centres, homes = set(), {}
    for code, entry in provinces.items():
        where = f'"map" {code}'
        if not isinstance(entry, dict):
            raise MapRequestError(f'{where}: an object {{"terrain", "coasts", "sc", "owner", "home"}}')
        try:
            given: Any = entry.get("terrain")  # anything: Terrain() refuses what is not a terrain's name
            terrain[code] = Terrain(given)
        except ValueError:
            kinds = ", ".join(t.value for t in Terrain)
            raise MapRequestError(
                f"{where}: terrain is one of {kinds}, not {entry.get('terrain')!r}"
            ) from None
        if entry.get("sc"):
            if terrain[code] is not Terrain.LAND:
                raise MapRequestError(f"{where}: a supply centre stands on land, not {terrain[code].value}")
            centres.add(code)
        home = entry.get("home")
        if home is not None:
            if home not in variant.powers or code not in centres:
                raise MapRequestError(f"{where}: home {home!r} must be a power's, on a supply centre")
            homes[code] = home
    frozen = variant.impassable_seas == "shore"  # as the timeline's fix-ups read it (Sahara: "closed")
    coasts = recompute_coasts(variant, terrain, load_timeline(variant).coast_names, frozen)
    for code, entry in provinces.items():
        given = entry.get("coasts", sorted(coasts.get(code, {})))
        if sorted(given) != sorted(coasts.get(code, {})):
            expected = sorted(coasts.get(code, {})) or "none"
            raise MapRequestError(
                f'"map" {code}: coasts {given} do not fit the terrain (expected {expected})'
            )
    return MapState(terrain, coasts, frozenset(centres), homes)


def provinces(variant: Variant, raw: Any, field: str) -> frozenset[str]:
    if raw is None:
        return frozenset()
    if not isinstance(raw, list) or not all(isinstance(p, str) and p in variant.provinces for p in raw):
        raise MapRequestError(f'"{field}" is a list of province codes')
    return frozenset(raw)


def occupants(variant: Variant, raw: Any) -> dict[str, str]:
    if raw is None:
        return {}
    if not isinstance(raw, dict) or not all(
        p in variant.provinces and power in variant.powers for p, power in raw.items()
    ):
        raise MapRequestError('"last_occupants" is an object from province code to power')
    return dict(raw)


def play(
    variant: Variant,
    state: MapState,
    position: Position,
    orders: Mapping[str, list[str]],
    data: Mapping[str, Any],
    *,
    changing: bool = True,
    board: Mapping[str, Any] | None = None,
    defaults: Mapping[str, Any] | None = None,
    played: bool = True,
) -> dict[str, Any]:
    """Play the request's phase (orders as typed, conversions and module orders included) and answer it.
    ``changing``: whether the variant's map changes (``next`` then carries the map and the flags);
    ``board``: a generated board's ``"board"``, carried in ``next``; ``defaults``: the options it plays
    with unless the request's say otherwise; ``played``: whether the request is one of those this module
    describes (else a plain request on a map that never changes: its answer has no events or outcome)."""
    options, secret = game_options(variant, data.get("options"), defaults)
    flags = provinces(variant, data.get("stay_flags"), "stay_flags")
    position = replace(position, last_occupants=occupants(variant, data.get("last_occupants")))
    modules = modules_for(variant, options)
    opened = module_state(variant, data.get("module_state"))
    if modules.any and opened is None:  # the phase opened as the server opens it: blizzards drawn
        opened = open_modules(variant, state, position, modules, None, secret).state
    turn = play_phase(
        variant,
        state,
        position,
        orders,
        options=options,
        secret=secret,
        stay_flags=flags,
        module_state=opened,
    )
    answered = answer(
        variant, turn, dict(data.get("options") or {}), changing=changing, played=played, typed=orders
    )
    if board is not None:
        answered["next"]["board"] = dict(board)
    return answered


def answer(
    variant: Variant,
    turn: Turn,
    echoed: dict[str, Any],
    changing: bool = True,
    played: bool = True,
    typed: Mapping[str, list[str]] | None = None,
) -> dict[str, Any]:
    """The answer's JSON data; ``next`` in the request's own shape, the changed map included (unless the
    map never changes), and with the rule modules on, the module state of the next phase. Each outcome is
    keyed by its order's text exactly as the request gave it (``typed``), white space and all."""
    as_given = {power: {t.strip(): t for t in texts} for power, texts in (typed or {}).items()}
    results: dict[str, dict[str, str]] = {}
    reasons: dict[str, dict[str, str]] = {}
    position = turn.played_from or turn.position
    # Read as rows (``Played``'s fields): the answer needs no value per order.
    for power, order, typed_text, outcome, reason, _, _ in rows_of(turn.played):
        given = results.setdefault(power, {})
        shown = shown_text(order, typed_text, position)
        text = as_given.get(power, {}).get(shown, shown)
        if text in given:
            continue  # a repeated text: the first gave the unit its order
        given[text] = str(outcome)  # a StrEnum member's own string: ``.value`` is a slow property
        if reason:
            reasons.setdefault(power, {})[text] = reason
    # The phase's own board where the map did not change (most phases): no map state to hash and look up.
    board = turn.board
    if board is None or board.map_state is not turn.map_state:
        board = board_for(variant, turn.map_state)
    following = position_data(variant, turn.position, board)
    if changing:
        following["map"] = map_data(turn.map_state, turn.position)
    if echoed:
        following["options"] = echoed
    if changing and turn.stay_flags:
        following["stay_flags"] = sorted(turn.stay_flags)
    if changing and turn.position.last_occupants:
        following["last_occupants"] = dict(sorted(turn.position.last_occupants.items()))
    if turn.opened is not None:
        following["module_state"] = turn.opened.state.to_data()
    outcome = turn.outcome
    answered: dict[str, Any] = {"phase": str(turn.phase), "results": results, "reasons": reasons}
    answered["skipped"] = turn.skipped
    if played or turn.events:  # a kind's effect may change even a map that never changes otherwise
        answered["events"] = [{**event, "text": event_text(event)} for event in turn.events]
    if played:
        answered["outcome"] = (
            None
            if outcome is None
            else {"result": outcome.result.value, "powers": list(outcome.powers), "reason": outcome.reason}
        )
    answered["next"] = following
    if turn.opened is not None:
        answered["modules"] = {**(turn.module_data or {}), "opened": turn.opened.to_data()}
    return answered
