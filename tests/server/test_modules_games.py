"""Rule modules in games (variant-rulings §8): blizzards, supply lines and the generated Ice Lords board,
played through the services like any game."""

from __future__ import annotations

import datetime as dt

import pytest

from dipserver.engine import icelords
from dipserver.games import selectors
from dipserver.games.errors import GameError
from dipserver.games.models import Game, Phase
from dipserver.games.services.games import game_create, game_join
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.phases import phase_process
from dipserver.games.services.transfer import game_replay
from dipserver.games.variants import game_variant
from tests.server.conftest import START, seat, started_game
from tests.server.test_processing import LATE, SOON

BLIZZARDS = {"blizzards": {"count": "1d6"}}


def play(game: Game, phases: int) -> list[Phase]:
    """Process ``phases`` phases with no orders; the phases opened, in order."""
    opened = []
    for n in range(phases):
        game.refresh_from_db()
        phase_process(phase_id=game.current_phase_id, now=LATE + n * (LATE - START))
        game.refresh_from_db()
        opened.append(game.current_phase)
    return opened


def blizzard_event(phase: Phase) -> dict:
    [event] = phase.snapshot["modules"]["events"]
    assert event["kind"] == "blizzards" and event["phase"] == phase.name
    return event


def test_a_blizzard_game_announces_each_movement_phases_blizzards_when_it_opens(users):
    game = started_game(users, variant="wall_of_ice", options=BLIZZARDS)
    assert game.options["blizzards"] == {"count": "1d6", "eligible": "all", "snow_storm_tokens": 0}
    first = game.current_phase
    event = blizzard_event(first)
    assert 1 <= len(event["provinces"]) <= 6
    assert first.snapshot["modules"]["state"]["blizzards"] == event["provinces"]

    for phase in play(game, 6):
        if phase.name.endswith("M"):
            assert 1 <= len(blizzard_event(phase)["provinces"]) <= 6
        else:
            assert phase.snapshot["modules"]["events"] == []
    assert game_replay(game_id=game.id) == []  # the draws come from the secret: the history replays


def army_beside_a_blizzard(game: Game) -> tuple[Phase, dict, str] | None:
    """The first movement phase, in up to four years of play, where an army stands beside a blizzard: the
    phase, the army and the snowed-in province next to it (in sorted order, so the search is repeatable)."""
    for _ in range(8):
        phase = game.current_phase
        snowed = set(phase.snapshot["modules"]["state"]["blizzards"])
        board = selectors.phase_board(game=game, phase=phase)
        for unit in phase.snapshot["units"]:
            if unit["type"] != "A" or unit["location"] in snowed:
                continue
            into = sorted(board.army_moves(unit["location"]) & snowed)
            if phase.name.endswith("M") and into:
                return phase, unit, into[0]
        play(game, 1)
    return None


def test_an_order_into_a_blizzard_is_refused_at_entry_with_the_reason(users):
    # A game's blizzards come from its secret, and with some secrets no army ever stands beside one: the
    # test takes the first of a few games (their secrets fixed by tests/conftest.py) where one does.
    for _ in range(4):
        game = started_game(users, variant="wall_of_ice", options=BLIZZARDS)
        found = army_beside_a_blizzard(game)
        if found is not None:
            break
    else:
        pytest.fail("no army stood beside a blizzard in four years of four games")
    phase, unit, into = found
    text = f"{unit['type']} {unit['location']} - {into}"
    user = seat(game, unit["power"]).user
    before = phase.deadline - dt.timedelta(minutes=1)
    submitted = orders_submit(game_id=game.id, user=user, text=text, phase=phase.name, now=before)
    [refused] = submitted.rejected
    assert "is under a blizzard: no unit may enter it" in refused.reason, refused.reason
    assert submitted.accepted == []


def test_bad_module_options_are_refused_with_a_message(users):
    with pytest.raises(GameError, match="blizzards: 'eligible' must be one of"):
        game_create(name="Snow", variant="standard", options={"blizzards": {"eligible": "lakes"}})


def test_a_supply_lines_game_stores_and_shows_everyones_supply(users):
    game = started_game(users, options={"supply_lines": True})
    report = game.current_phase.snapshot["modules"]["supply"]
    assert report["phase"] == "S1901M"
    units = {u["location"] for u in game.current_phase.snapshot["units"]}
    assert set(report["units"]) == {u[:3] for u in units}
    assert all(line["supplied"] for line in report["units"].values())  # everyone starts at home
    rows = selectors.supply_rows(game=game, phase=game.current_phase)
    assert "Moscow (RUSSIA): supplied from Moscow" in rows

    opened = play(game, 2)
    autumn = next(p for p in opened if p.name == "F1901M")
    assert autumn.snapshot["modules"]["supply"]["phase"] == "F1901M"


def test_an_ice_lords_game_is_generated_from_its_secret_started_and_played(users):
    game = game_create(name="Ice", variant="ice_lords", powers=3)
    assert game.board == {"powers": 3}
    assert game.options["blizzards"]["count"] == "1d6"  # Ice Lords' Blizzard Phase is on by default
    assert game.variant_version == icelords.generate(game.secret, 3).variant.version
    for user in users[:3]:
        game_join(game_id=game.id, user=user, now=START)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    first = game.current_phase
    assert first.name == "S1901M" and len(first.snapshot["units"]) == 3
    assert {s.name for s in game.powers.all()} == set(game_variant(game).powers)
    blizzard_event(first)

    hero = first.snapshot["units"][0]
    owner = seat(game, hero["power"]).user
    assert orders_submit(game_id=game.id, user=owner, text=f"A {hero['location']} H", now=SOON).ok
    opened = play(game, 4)
    assert opened[0].name == "F1901M"
    for phase in opened:
        if phase.name.endswith("M"):
            blizzard_event(phase)
    assert Phase.objects.filter(game=game).count() == 5
    assert all(u["type"] == "A" for p in opened for u in p.snapshot["units"])


def test_an_ice_lords_game_needs_two_to_six_powers(users):
    with pytest.raises(GameError, match="2 to 6 powers"):
        game_create(name="Ice", variant="ice_lords", powers=7)
    with pytest.raises(GameError, match="Only a generated board"):
        game_create(name="Std", variant="standard", powers=3)


def test_a_depot_ordered_through_the_services_is_founded_and_operative_the_next_phase(users):
    # Free depots (an option): the founding unit stays, so no Winter comes between (by default it
    # garrisons the depot and leaves the board).
    game = started_game(users, options={"supply_lines": {"depot_cost": "free"}})
    france = seat(game, "FRANCE").user
    assert orders_submit(game_id=game.id, user=france, text="A PAR - BUR", phase="S1901M", now=SOON).ok
    [autumn] = play(game, 1)
    assert autumn.name == "F1901M"
    before = autumn.deadline - dt.timedelta(minutes=1)
    submitted = orders_submit(
        game_id=game.id, user=france, text="A BUR establish depot\nA MAR H", phase="F1901M", now=before
    )
    assert submitted.accepted == ["establish depot BUR", "A MAR H"], submitted.rejected
    game.refresh_from_db()
    phase_process(phase_id=autumn.id, now=autumn.deadline + dt.timedelta(minutes=1))
    game.refresh_from_db()
    spring = game.current_phase
    assert spring.name == "S1902M"
    assert spring.snapshot["modules"]["state"]["supply"]["depots"] == {
        "BUR": {"power": "FRANCE", "since": "F1901M"}
    }
    assert "BUR" in spring.snapshot["modules"]["supply"]["depots"]  # operative: joined to a source


def test_a_depot_where_the_power_has_no_unit_is_refused_at_entry(users):
    game = started_game(users, options={"supply_lines": True})
    france = seat(game, "FRANCE").user
    submitted = orders_submit(game_id=game.id, user=france, text="establish depot BUR", now=SOON)
    [refused] = submitted.rejected
    assert "FRANCE has no unit in Burgundy" in refused.reason, refused.reason


def test_a_snow_storm_placed_through_the_services_lands_on_the_next_movement_phase(users):
    options = {"blizzards": {"count": "1d6", "snow_storm_tokens": 1}}
    game = started_game(users, variant="wall_of_ice", options=options)
    first = game.current_phase
    snowed = set(first.snapshot["modules"]["state"]["blizzards"])
    board = selectors.phase_board(game=game, phase=first)
    occupied = {u["location"][:3] for u in first.snapshot["units"]}
    target = next(
        p for p in sorted(board.provinces) if board.is_land(p) and p not in snowed and p not in occupied
    )
    unit = first.snapshot["units"][0]
    user = seat(game, unit["power"]).user
    submitted = orders_submit(game_id=game.id, user=user, text=f"place blizzard {target}", now=SOON)
    assert submitted.accepted == [f"place blizzard {target}"], submitted.rejected
    [after] = play(game, 1)
    movement = after if after.name.endswith("M") else play(game, 1)[0]
    assert movement.name.endswith("M")
    assert target in movement.snapshot["modules"]["state"]["blizzards"]


def test_the_stored_blizzard_announcement_lists_the_snow_storm_placed(users):
    options = {"blizzards": {"count": "1d6", "snow_storm_tokens": 1}}
    game = started_game(users, variant="wall_of_ice", options=options)
    first = game.current_phase
    board = selectors.phase_board(game=game, phase=first)
    occupied = {u["location"][:3] for u in first.snapshot["units"]}
    target = next(p for p in sorted(board.provinces) if board.is_land(p) and p not in occupied)
    unit = first.snapshot["units"][0]
    user = seat(game, unit["power"]).user
    submitted = orders_submit(game_id=game.id, user=user, text=f"place blizzard {target}", now=SOON)
    assert submitted.accepted == [f"place blizzard {target}"], submitted.rejected
    [after] = play(game, 1)
    movement = after if after.name.endswith("M") else play(game, 1)[0]
    event = blizzard_event(movement)
    effect = "no_change" if target in event["drawn"] else "placed"
    assert event["storms"] == [{"power": unit["power"], "province": target, "place": True, "effect": effect}]


# --- the Abstraction A/F rules: Deluge's default (rule 7) -------------------------------------------------


def test_a_deluge_af_is_stored_in_the_phase_snapshot_and_lands_its_army_later(users):
    game = started_game(users, variant="deluge")
    england = seat(game, "ENGLAND").user
    assert orders_submit(game_id=game.id, user=england, text="A LVP - YOR\nF EDI - NTH", now=SOON).ok
    [autumn] = play(game, 1)
    before = autumn.deadline - dt.timedelta(minutes=1)
    text = "A YOR boards F NTH\nA/F NTH - NWG"
    submitted = orders_submit(game_id=game.id, user=england, text=text, phase="F1901M", now=before)
    assert submitted.accepted == ["A YOR boards F NTH", "F NTH - NWG"], submitted.rejected  # NTH: a fleet yet
    phase_process(phase_id=autumn.id, now=autumn.deadline + dt.timedelta(minutes=1))
    game.refresh_from_db()
    units = game.current_phase.snapshot["units"]
    assert {"power": "ENGLAND", "type": "F", "location": "NWG", "aboard": True} in units
    assert not any(u["location"] == "YOR" for u in units)


def test_a_deluge_game_with_standard_convoys_refuses_boarding_at_entry(users):
    game = started_game(users, variant="deluge", options={"standard_convoys": True})
    england = seat(game, "ENGLAND").user
    submitted = orders_submit(game_id=game.id, user=england, text="A LVP boards F NAO", now=SOON)
    [refused] = submitted.rejected
    assert "standard convoys" in refused.reason, refused.reason
