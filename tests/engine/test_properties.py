"""Properties of the adjudicator on random positions and random orders, legal and illegal.

Whatever the orders, adjudication never crashes, gives every order a result, never puts two units in one
province or a unit where it cannot stand, and never creates or loses a unit except by dislodgement and
disbanding, or by a build or a disband.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dipserver.engine.adjudicate import adjudicate
from dipserver.engine.board import Board, board_for
from dipserver.engine.lateorders import Build, Disband, Retreat, Waive
from dipserver.engine.movement import MovementPhase, water_neighbours
from dipserver.engine.orders import Convoy, Hold, Move, Order, Outcome, SupportHold, SupportMove
from dipserver.engine.position import Position
from dipserver.engine.types import Phase, Unit, UnitType, province_of
from dipserver.engine.variant import VARIANTS_DIR, load_variant

STANDARD = load_variant("standard")
POWERS = sorted(STANDARD.powers)
VARIANTS = sorted(p.name for p in VARIANTS_DIR.iterdir() if (p / "variant.toml").is_file())
PROPERTY_SETTINGS = settings(
    max_examples=75, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _places(board: Board) -> list[tuple[UnitType, str]]:
    """Every (unit type, location) a unit may stand on."""
    places = [(UnitType.ARMY, p) for p in sorted(board.army_locations)]
    return places + [(UnitType.FLEET, loc) for loc in sorted(board.fleet_positions)]


@st.composite
def positions(draw: st.DrawFn, board: Board) -> dict[str, Unit]:
    chosen = draw(st.lists(st.sampled_from(_places(board)), min_size=12, max_size=60))
    units: dict[str, Unit] = {}
    for unit_type, loc in chosen:
        prov = province_of(loc)
        if prov not in units:
            units[prov] = Unit(draw(st.sampled_from(sorted(board.variant.powers))), unit_type, loc)
    return units


@st.composite
def movement_orders(draw: st.DrawFn, board: Board, units: Mapping[str, Unit]) -> dict[str, list[Order]]:
    """Orders that mostly make sense together (moves, and supports and convoys of them), some that do not."""
    locations = sorted({loc for _, loc in _places(board)} | set(board.provinces))
    anywhere = st.sampled_from(locations)
    fleets_at_sea = [p for p, u in units.items() if u.type is UnitType.FLEET and board.is_water(p)]
    moving: dict[str, str] = {}
    for prov, unit in units.items():
        near = sorted(
            board.army_moves(prov) if unit.type is UnitType.ARMY else board.fleet_moves(unit.location)
        )
        hostile = [n for n in near if (p := province_of(n)) in units and units[p].power != unit.power]
        if hostile and draw(st.integers(0, 9)) < 4:
            moving[prov] = draw(st.sampled_from(hostile))  # an attack: what makes dislodgements
        elif near and draw(st.integers(0, 9)) < 5:
            moving[prov] = draw(st.sampled_from(near))
        elif unit.type is UnitType.ARMY and draw(st.integers(0, 2)) == 0:
            # A try at a convoy: across a sea holding a fleet, when there is one.
            shores = sorted(
                land
                for sea in water_neighbours(board, prov) & set(fleets_at_sea)
                for land in board.neighbours(sea)
                if land != prov and board.is_coastal(land)
            )
            if shores:
                moving[prov] = draw(st.sampled_from(shores))
    orders: dict[str, list[Order]] = {}
    for prov, unit in units.items():
        loc = unit.location
        if prov in moving:
            order: Order = Move(loc, moving[prov], draw(st.integers(0, 9)) == 0)
        else:
            reach = [p for p in units if p != prov and board.can_reach_province(unit.type, loc, p)]
            helps = [
                m
                for m, d in moving.items()
                if m != prov and board.can_reach_province(unit.type, loc, province_of(d))
            ]
            choices: list[Order] = [Hold(loc)]
            choices += [SupportHold(loc, p) for p in reach]
            choices += [SupportMove(loc, m, moving[m]) for m in helps]
            carrying = [
                Convoy(loc, m, province_of(d))
                for m, d in moving.items()
                if prov in fleets_at_sea and units[m].type is UnitType.ARMY and d in board.neighbours(prov)
            ]
            backing = [c for c in choices if isinstance(c, SupportMove)]
            if carrying and draw(st.integers(0, 4)):
                order = draw(st.sampled_from(carrying))
            elif backing and draw(st.booleans()):
                order = draw(st.sampled_from(backing))
            else:
                order = draw(st.sampled_from(choices))
        if draw(st.integers(0, 7)) == 0:  # now and then, nonsense
            other = st.sampled_from(sorted(units))
            order = draw(
                st.one_of(
                    st.builds(Move, st.just(loc), anywhere, st.booleans()),
                    st.builds(SupportHold, st.just(loc), other),
                    st.builds(SupportMove, st.just(loc), other, anywhere),
                    st.builds(Convoy, st.just(loc), other, anywhere),
                    st.builds(Retreat, st.just(loc), anywhere),
                    st.builds(Build, st.just(unit.power), st.sampled_from(list(UnitType)), anywhere),
                )
            )
        if draw(st.integers(0, 9)) == 0:
            continue  # left unordered: it holds
        # Now and then a power orders a unit that is not its own.
        power = (
            unit.power if draw(st.integers(0, 19)) else draw(st.sampled_from(sorted(board.variant.powers)))
        )
        orders.setdefault(power, []).append(order)
    if orders and draw(st.booleans()):
        orders[next(iter(orders))].append(draw(st.builds(Move, anywhere, anywhere)))  # no one's unit
    return orders


def _census(units: Mapping[str, Unit]) -> Counter[tuple[str, UnitType]]:
    return Counter((u.power, u.type) for u in units.values())


def _assert_well_placed(board: Board, units: Mapping[str, Unit]) -> None:
    for prov, unit in units.items():
        assert unit.province == prov
        assert board.can_occupy(unit.type, unit.location), unit


@pytest.fixture(params=VARIANTS)
def start_board(request: pytest.FixtureRequest) -> Board:
    """Each variant's board as it starts."""
    variant = load_variant(request.param)
    return board_for(variant, variant.map_state)


@PROPERTY_SETTINGS
@given(data=st.data())
def test_movement_keeps_every_unit_somewhere(start_board: Board, data: st.DataObject) -> None:
    board = start_board
    units = data.draw(positions(board))
    orders = data.draw(movement_orders(board, units))
    results, after, dislodged_units = MovementPhase(board, units).run(orders)

    assert [(r.power, r.order) for r in results] == [(p, o) for p, os in orders.items() for o in os]
    _assert_well_placed(board, after)
    # Units only move or are dislodged: none appears, none vanishes.
    dislodged = {prov: d.unit for prov, d in dislodged_units.items()}
    assert _census(after) + _census(dislodged) == _census(units)
    for prov, d in dislodged_units.items():
        assert units[prov] == d.unit and prov in after  # the attacker stands where it was
        for loc in d.retreats:
            assert province_of(loc) not in after
            assert board.can_move(d.unit.type, d.unit.location, loc)


@PROPERTY_SETTINGS
@given(data=st.data())
def test_movement_does_not_depend_on_the_order_of_units_or_orders(board: Board, data: st.DataObject) -> None:
    units = data.draw(positions(board))
    orders = data.draw(movement_orders(board, units))
    shuffled = {
        power: data.draw(st.permutations(orders[power])) for power in data.draw(st.permutations(list(orders)))
    }
    # The resolver numbers units in the position's order: paradox handling must not depend on it.
    reordered = {prov: units[prov] for prov in data.draw(st.permutations(list(units)))}
    first_results, first_units, first_dislodged = MovementPhase(board, units).run(orders)
    second_results, second_units, second_dislodged = MovementPhase(board, reordered).run(shuffled)
    assert first_units == second_units
    assert first_dislodged == second_dislodged
    outcomes = Counter((r.power, r.order, r.outcome) for r in first_results)
    assert outcomes == Counter((r.power, r.order, r.outcome) for r in second_results)


def _random_orders(board: Board, data: st.DataObject, position: Position) -> Mapping[str, list[Order]]:
    """Orders of the kind the phase expects, good and bad."""
    kind = position.phase.type.value
    if kind == "M":
        return data.draw(movement_orders(board, position.units))
    orders: dict[str, list[Order]] = {}
    if kind == "R":
        for prov, d in position.dislodged.items():
            choice = data.draw(st.sampled_from([*d.retreats, "MOS", None]))
            order = Disband(prov) if choice is None else Retreat(d.unit.location, choice)
            orders.setdefault(d.unit.power, []).append(order)
        return orders
    spots = sorted(board.supply_centres | set(position.units))
    for power in POWERS:
        # Mostly its own centres and units, so that builds and disbands often land, twice at times.
        own = sorted(set(position.centres_of(power)) | {u.province for u in position.units_of(power)})
        picks = data.draw(
            st.lists(
                st.sampled_from(own) if own and data.draw(st.booleans()) else st.sampled_from(spots),
                max_size=4,
            )
        )
        kinds = [Build(power, UnitType.ARMY, p) for p in picks] + [Disband(p) for p in picks] + [Waive(power)]
        orders[power] = data.draw(st.lists(st.sampled_from(kinds), max_size=4))
    return orders


@PROPERTY_SETTINGS
@given(data=st.data())
def test_a_year_only_gains_units_by_builds_and_loses_them_by_disbands(
    board: Board, data: st.DataObject
) -> None:
    units = data.draw(positions(board))
    owners = {
        sc: data.draw(st.sampled_from(POWERS))
        for sc in sorted(board.supply_centres)
        if data.draw(st.booleans())
    }
    position = Position(Phase.parse("F1901M"), units, owners)
    while position.phase.year == 1901:
        done = adjudicate(board, position, _random_orders(board, data, position))
        after = done.position
        _assert_well_placed(board, after.units)

        def unit_at(prov: str, position: Position = position) -> Unit:
            waiting = position.dislodged.get(prov)
            return waiting.unit if waiting else position.units[prov]

        built = [
            (r.power, r.order.unit_type)
            for r in done.results
            if isinstance(r.order, Build) and r.outcome is Outcome.SUCCESS
        ]
        gone = [
            unit_at(province_of(r.order.unit))
            for r in done.results
            if (isinstance(r.order, Disband) and r.outcome is Outcome.SUCCESS)
            or (isinstance(r.order, Retreat) and r.outcome is Outcome.BOUNCE)
        ]
        before = _census(position.units) + _census({p: d.unit for p, d in position.dislodged.items()})
        now = _census(after.units) + _census({p: d.unit for p, d in after.dislodged.items()})
        assert now == before + Counter(built) - Counter((u.power, u.type) for u in gone)

        if position.phase.type.value == "A":
            for power in POWERS:
                had, centres = len(position.units_of(power)), len(position.centres_of(power))
                has = len(after.units_of(power))
                assert has == centres if had > centres else had <= has <= centres
        position = after


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_adjustments_change_units_exactly_by_the_builds_and_disbands_reported(
    board: Board, data: st.DataObject
) -> None:
    units = data.draw(positions(board))
    # Home centres mostly owned by their power, so that builds are due and possible.
    owners = {
        sc: board.homes[sc]
        if sc in board.homes and data.draw(st.booleans())
        else data.draw(st.sampled_from(POWERS))
        for sc in sorted(board.supply_centres)
    }
    position = Position(Phase.parse("W1901A"), units, owners)
    done = adjudicate(board, position, _random_orders(board, data, position))
    built = Counter(
        (r.power, r.order.unit_type)
        for r in done.results
        if isinstance(r.order, Build) and r.outcome is Outcome.SUCCESS
    )
    removed = Counter(
        (r.power, units[province_of(r.order.unit)].type)
        for r in done.results
        if isinstance(r.order, Disband) and r.outcome is Outcome.SUCCESS
    )
    assert _census(done.position.units) == _census(units) + built - removed
    _assert_well_placed(board, done.position.units)
