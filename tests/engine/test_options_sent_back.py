"""Options are never judged invalid when sent back: a property over seeded random games of every variant
(the generated Ice Lords board too) with each rule module and with them all.

Each game is played as the server and the command line play it (``turn.play_phase``, the rule modules
opened with each phase). In every phase, every power's options (``phase_options``, the modules in play) are
sent back as a full set: one option per unit, a conversion in place of a unit's own order at times, builds
and disbands as due (Deluge's free home centres first), a module order at times. In some phases
(``ALONE_IN``, and every retreat and adjustment phase) every option is sent alone as well. None may be
judged invalid; an order may fail, bounce or be void, as the others decide. The full set also goes through
the command line (``options`` then ``adjudicate``), whose answers must agree. The game goes on with the
full set's result.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from dipserver.adjudicator.answers import position_data
from dipserver.adjudicator.cli import answer_text
from dipserver.engine.board import MapState, board_for
from dipserver.engine.hooks import map_data
from dipserver.engine.icelords import DEFAULT_OPTIONS, generate
from dipserver.engine.lateorders import Build
from dipserver.engine.modules import modules_for
from dipserver.engine.modules.phase import InPlay, ModuleState
from dipserver.engine.options import PowerOptions, phase_options
from dipserver.engine.position import Position
from dipserver.engine.timeline import load_timeline
from dipserver.engine.turn import Turn, open_modules, play_phase
from dipserver.engine.types import PhaseType, province_of
from dipserver.engine.variant import Variant, load_variant

PHASES = 12  # phases played per game
# Every option alone in these movement phases of a game (by count from 1: once units have met, fleets
# carry armies and blizzards have fallen), and in every retreat and adjustment phase.
ALONE_IN = (3,)

BLIZZARDS = {"count": "2d4", "snow_storm_tokens": 1}
MODULES: dict[str, dict[str, Any]] = {
    "none": {},
    "blizzards": {"blizzards": BLIZZARDS},
    "supply": {"supply_lines": True},
    "abstraction": {"abstraction": True},
    "davis": {"davis_af_limit": True},  # the A/F rules with Davis's limit (an A/F lasts three moves)
    "all": {"blizzards": BLIZZARDS, "supply_lines": True, "abstraction": True},
}
CASES = [(slug, name) for slug in ("standard", "wall_of_ice", "sahara", "deluge") for name in MODULES]
CASES += [("ice_lords", "default"), ("ice_lords", "abstraction")]


def variant_of(slug: str) -> Variant:
    return generate("sent back", 4).variant if slug == "ice_lords" else load_variant(slug)


def options_of(slug: str, name: str) -> dict[str, Any]:
    if slug == "ice_lords":
        return {**DEFAULT_OPTIONS, **({"abstraction": True} if name == "abstraction" else {})}
    return MODULES[name]


def full_set(rng: random.Random, offered: PowerOptions, phase: PhaseType) -> list[str]:
    """One option per unit (or its conversion), the builds or disbands due, perhaps one module order."""
    if phase is PhaseType.ADJUSTMENTS:
        return adjustments(rng, offered)
    conversions: dict[str, list[str]] = {}
    for option in offered.conversions:
        conversions.setdefault(province_of(option.order.unit), []).append(option.text)  # type: ignore[union-attr]
    texts = []
    for loc, options in offered.units.items():
        instead = conversions.get(province_of(loc))
        if instead and rng.random() < 0.3:
            texts.append(rng.choice(instead))
        elif options:
            texts.append(rng.choice(options).text)
    if offered.module_orders and rng.random() < 0.5:
        texts.append(rng.choice(offered.module_orders).text)
    return texts


def adjustments(rng: random.Random, offered: PowerOptions) -> list[str]:
    if offered.adjustment.due < 0:
        # An A/F counts as two units and is disbanded by one order: the disbands due may outnumber them.
        due = min(len(offered.units), -offered.adjustment.due)
        return [offered.units[loc][-1].text for loc in rng.sample(sorted(offered.units), due)]
    builds = [o for o in offered.adjustment.builds if isinstance(o.order, Build)]
    rng.shuffle(builds)
    first = set(offered.adjustment.builds_first)
    builds.sort(key=lambda o: province_of(o.order.location) not in first)  # type: ignore[union-attr]
    chosen: dict[str, str] = {}
    for option in builds:
        site = province_of(option.order.location)  # type: ignore[union-attr]
        if site not in chosen and len(chosen) < offered.adjustment.due:
            chosen[site] = option.text
    return list(chosen.values())


def request_of(
    variant: Variant, map_state: MapState, position: Position, game: dict[str, Any]
) -> dict[str, Any]:
    """The phase as a command line request, as an answer's ``next`` would give it."""
    data = position_data(variant, position, board_for(variant, map_state))
    timeline = load_timeline(variant)
    if timeline.events or timeline.orders:
        data["map"] = map_data(map_state, position)
        if position.last_occupants:
            data["last_occupants"] = dict(position.last_occupants)
        if game["flags"]:
            data["stay_flags"] = sorted(game["flags"])
    if game["options"]:
        data["options"] = {**game["options"], "seed": game["secret"]}
    if game["state"] is not None:
        data["module_state"] = game["state"].to_data()
    if variant.slug == "ice_lords":
        data["board"] = {"seed": "sent back", "powers": 4}
    return data


def invalid(turn: Turn, sent: dict[str, list[str]]) -> list[tuple[str, str, str]]:
    given = {(power, text) for power, texts in sent.items() for text in texts}
    return [
        (r["power"], r["text"], r["reason"])
        for r in turn.results
        if r["outcome"] == "invalid" and (r["power"], r["text"]) in given
    ]


@pytest.mark.parametrize(("slug", "modules"), CASES)
def test_no_offered_order_is_judged_invalid_alone_or_in_a_full_set(slug: str, modules: str) -> None:
    variant, options = variant_of(slug), options_of(slug, modules)
    rng, secret = random.Random(f"sent back/{slug}/{modules}"), f"secret/{slug}/{modules}"
    in_play = modules_for(variant, options)
    map_state, position = variant.map_state, variant.start
    state = open_modules(variant, map_state, position, in_play, None, secret).state if in_play.any else None
    game: dict[str, Any] = {"options": options, "secret": secret, "flags": frozenset(), "state": state}
    movement = alone = 0
    for _ in range(PHASES):
        board = board_for(variant, map_state)
        found = phase_options(board, position, modules=InPlay(in_play, state) if state is not None else None)

        def play(sent: dict[str, list[str]], at: tuple[Any, ...] = (map_state, position, state)) -> Turn:
            return play_phase(
                variant, at[0], at[1], sent, options=options, secret=secret,
                stay_flags=game["flags"], module_state=at[2],
            )  # fmt: skip

        kind = position.phase.type
        movement += kind is PhaseType.MOVEMENT
        if kind is not PhaseType.MOVEMENT or movement in ALONE_IN:
            for power, offered in found.items():
                for option in offered.all():
                    assert not invalid(play({power: [option.text]}), {power: [option.text]}), option.text
                    alone += 1
        sent = {power: full_set(rng, offered, kind) for power, offered in found.items()}
        turn = play(sent)
        assert not invalid(turn, sent), (str(position.phase), invalid(turn, sent))
        request = request_of(variant, map_state, position, game)
        assert answer_text(json.dumps(request), "options")["options"] == json.loads(
            json.dumps({power: offered.to_data() for power, offered in found.items()})
        )
        answered = answer_text(json.dumps({**request, "orders": sent}))
        assert "error" not in answered, answered
        assert not [t for p, r in answered["results"].items() for t, o in r.items() if o == "invalid"]
        if turn.outcome is not None:
            break
        map_state, position = turn.map_state, turn.position
        game["flags"] = turn.stay_flags
        game["state"] = state = turn.opened.state if turn.opened is not None else None
    assert alone > 0


def test_a_fleet_snowed_in_is_offered_for_no_convoy() -> None:
    """The issue's case: a convoy through a fleet in a blizzard was offered, then refused."""
    standard = load_variant("standard")
    board = board_for(standard, standard.map_state)
    units = {"LON": "ENGLAND A LON", "NTH": "ENGLAND F NTH", "ENG": "ENGLAND F ENG"}
    position = Position(
        standard.start.phase,
        {p: _unit(text) for p, text in units.items()},
        {},
    )
    blizzards = modules_for(standard, {"blizzards": BLIZZARDS})
    snowed = InPlay(blizzards, ModuleState(blizzards=frozenset({"NTH"})))
    plain = phase_options(board, position, modules=InPlay(blizzards, ModuleState()))["ENGLAND"]
    snowy = phase_options(board, position, modules=snowed)["ENGLAND"]
    assert "A LON - NWY VIA" in {o.text for o in plain.units["LON"]}
    assert "A LON - NWY VIA" not in {o.text for o in snowy.units["LON"]}
    assert "A LON - BEL VIA" in {o.text for o in snowy.units["LON"]}  # through the Channel, not snowed in
    assert [o.text for o in snowy.units["NTH"]] == ["F NTH H"]


def _unit(text: str) -> Any:
    from dipserver.engine.types import Unit, UnitType

    power, kind, loc = text.split()
    return Unit(power, UnitType(kind), loc)


def test_orders_that_a_boarding_overtakes_are_void_not_invalid() -> None:
    """The issue's other case: a fleet's convoy, offered, became invalid when an army boarded the fleet.
    Orders that fitted the units as they stood before the boarding are void: the unit holds."""
    standard = load_variant("standard")
    units = {"YOR": "ENGLAND A YOR", "NTH": "ENGLAND F NTH", "LON": "ENGLAND A LON", "EDI": "ENGLAND F EDI"}
    position = Position(standard.start.phase, {p: _unit(text) for p, text in units.items()}, {})
    orders = {"ENGLAND": ["A YOR boards F NTH", "F NTH C A LON - NWY", "A LON - NWY VIA", "F EDI S A YOR"]}
    turn = play_phase(standard, standard.map_state, position, orders, options={"abstraction": True})
    outcomes = {r["text"]: (r["outcome"], r["reason"]) for r in turn.results}
    assert outcomes["A YOR boards F NTH"][0] == "success"
    for text in ("F NTH C A LON - NWY", "F EDI S A YOR"):
        assert outcomes[text][0] == "void" and "an army boarded before the moves" in outcomes[text][1]
    assert outcomes["A LON - NWY VIA"][0] != "invalid"
    assert turn.position.units["NTH"].aboard and "LON" in turn.position.units
