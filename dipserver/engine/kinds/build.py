"""Build: ``A PAR B``, ``BUILD F STP/NC``: a new unit in a vacant centre the build rule opens to the power
(its home centres, or any it owns), a fleet only where it touches open sea, with the coast named where
there are several."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from dipserver.engine.builds import build_problem, free_centres
from dipserver.engine.kinds.recording import Described, Held
from dipserver.engine.kinds.registry import NOTHING, Drawing, Kind, register
from dipserver.engine.lateorders import Build
from dipserver.engine.orders import OrderError
from dipserver.engine.timelinecache import load_timeline
from dipserver.engine.types import BESIDE, PhaseType, Unit, UnitType, coast_of, province_of

if TYPE_CHECKING:
    from dipserver.engine.board import Board
    from dipserver.engine.kinds.offering import Offering
    from dipserver.engine.kinds.reading import BuildRule, Intent, Reading
    from dipserver.engine.position import Position


class BuildKind(Kind):
    name = "build"
    order_class = Build
    reads = ((PhaseType.ADJUSTMENTS, "build"),)

    def read(self, reading: Reading, intent: Intent) -> Build:
        assert intent.unit is not None
        board, loc, name = reading.board, intent.unit, reading.name(intent.unit.province)
        power, power_name = reading.power, reading.power_name(reading.power)
        if intent.unit_type is None:
            raise OrderError(f"Say what to build in {name}: an army (A) or a fleet (F)")
        reading.known_place(loc)
        if reading.balance() <= 0:
            raise OrderError(f"{power_name} has no builds this winter")
        if loc.province not in board.supply_centres:
            raise OrderError(f"{name} is not a supply centre")
        if reading.position.owners.get(loc.province) != power:
            raise OrderError(f"{name} is not owned by {power_name}")
        if loc.province in reading.position.units:
            raise OrderError(f"{name} is occupied; units are built only in vacant centres")
        if loc.province not in reading.build_rule(board, reading.position, power):
            if board.variant.build_rule == BESIDE:
                raise OrderError(f"{power_name} may not build in {name}: no unit of its own stands beside it")
            raise OrderError(f"{power_name} may not build in {name}: it is not one of its home centres")
        if intent.unit_type is UnitType.ARMY:
            if loc.coast is not None:
                raise OrderError(f"An army is built in a province, not on a coast: say {loc.province}")
            return Build(power, UnitType.ARMY, loc.province)
        sites = board.fleet_build_locations(loc.province)
        if not sites:
            raise OrderError(f"A fleet cannot be built in {name}: it does not touch open sea")
        if loc.location in sites:
            return Build(power, UnitType.FLEET, loc.location)
        if loc.coast is not None:
            raise OrderError(
                f"A fleet cannot be built on the {loc.coast} coast of {name}: it touches no open sea"
            )
        if len(sites) > 1:
            coasts = " or ".join(str(coast_of(site)) for site in sites)
            raise OrderError(f"Say which coast of {name} to build the fleet on: {coasts}")
        return Build(power, UnitType.FLEET, sites[0])

    def builds(self, offering: Offering, build_rule: BuildRule) -> list[Build]:
        """Every build open to the power: an army where there is land, a fleet on each coast at sea."""
        board, power = offering.board, offering.power
        found: list[Build] = []
        for site in sorted(build_rule(board, offering.position, power)):
            if board.is_land(site):
                found.append(Build(power, UnitType.ARMY, site))
            found += [Build(power, UnitType.FLEET, loc) for loc in board.fleet_build_locations(site)]
        return found

    def text(self, order: Build, position: Position) -> str:
        return f"{order.unit_type.value} {order.location} B"

    def check_together(self, reading: Reading, orders: Sequence[Any]) -> dict[int, str]:
        """Deluge (E13): builds in home centres always stand; one elsewhere only if ``build_problem`` allows
        it together with every home build given and the other builds accepted before it."""
        timeline = load_timeline(reading.board.variant)
        if timeline.non_home_builds is None:
            return {}
        homes, others = free_centres(reading.board.homes, reading.position, reading.power)
        builds = {
            i: province_of(order.location) for i, order in enumerate(orders) if isinstance(order, Build)
        }
        accepted = [site for site in builds.values() if site in homes]
        refused = {}
        for i, site in builds.items():
            if site in homes:
                continue
            problem = build_problem(timeline, homes, others, [*accepted, site])
            if problem is None:
                accepted.append(site)
            else:
                refused[i] = f"Build refused: {problem}"
        return refused

    def record(self, order: Build, position: Position, board: Board | None) -> Described:
        built = Held(order.power, order.unit_type.value, order.location)
        return "build", built, None, order.location, None

    def drawing(self, record: Mapping[str, Any]) -> Drawing:
        site, unit = record.get("to"), record.get("unit")
        if not site or not unit:
            return NOTHING
        return Drawing("unit", site, unit=Unit(record["power"], UnitType(unit["type"]), site))

    def unit_key(self, order: Build) -> str | None:
        return province_of(order.location)


BUILD = register(BuildKind())
