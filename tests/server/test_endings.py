"""Ruling E17 on the server: a game is finished, and a power eliminated, only when it is final.

Each game is set up at the position the case needs (the current phase's snapshot rewritten), then played by
the services as a running game is: orders submitted, the phase processed at its deadline.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError

from dipserver.engine.icelords import DEFAULT_END_YEAR
from dipserver.games.admin_forms import GameForm
from dipserver.games.errors import GameError
from dipserver.games.models import Game, Power
from dipserver.games.services.games import game_create, game_end_year_set, game_join
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.phases import phase_process
from tests.server.conftest import START, seat, set_up, started_game

LATE = START + dt.timedelta(days=2)


def process(game: Game, days: int) -> Game:
    phase_process(phase_id=game.current_phase_id, now=LATE + dt.timedelta(days=days))
    game.refresh_from_db()
    return game


def statuses(game: Game) -> dict[str, str]:
    return dict(Power.objects.filter(game=game).values_list("name", "status"))


def test_a_game_goes_on_while_the_last_rivals_dislodged_unit_can_retreat(users):
    game = started_game(users, variant="deluge")
    set_up(
        game,
        "S1901M",
        *("FRANCE A BRE", "ENGLAND F ENG", "ENGLAND F MAO"),
        owners={"FRANCE": ["BRE", "PAR", "MAR"], "ENGLAND": ["EDI", "LVP"]},
    )
    orders_submit(
        game_id=game.id, user=seat(game, "ENGLAND").user, text="F ENG - BRE\nF MAO S F ENG - BRE", now=START
    )

    game = process(game, 0)

    assert game.status == Game.Status.ACTIVE and game.result == Game.Result.NONE
    assert game.current_phase is not None and game.current_phase.name == "S1901R"
    assert statuses(game)["FRANCE"] == Power.Status.ACTIVE
    assert statuses(game)["ITALY"] == Power.Status.ELIMINATED  # nothing at all: out at once


def test_the_last_rival_is_out_only_after_its_winter_and_the_survivor_plays_on(users):
    # England has no unit but owns London: it may build there in Winter 1901, after which London sinks.
    game = started_game(users, variant="deluge")
    set_up(game, "F1901M", "FRANCE A PAR", owners={"FRANCE": ["PAR"], "ENGLAND": ["LON"]})

    game = process(game, 0)
    assert game.status == Game.Status.ACTIVE
    assert game.current_phase is not None and game.current_phase.name == "W1901A"
    assert statuses(game)["ENGLAND"] == Power.Status.ACTIVE

    game = process(game, 2)  # England builds nothing; London sinks after the adjustments
    assert statuses(game)["ENGLAND"] == Power.Status.ELIMINATED
    # France is alone, but the sea rises until 1907: not yet the survivor after W1908 (issue 31).
    assert (game.status, game.result) == (Game.Status.ACTIVE, Game.Result.NONE)


def test_a_power_without_units_is_eliminated_once_it_owns_no_centre_it_could_build_on(users):
    # Standard builds go only in home centres: Italy, with Tunis alone, can never build again.
    game = started_game(users)
    set_up(
        game,
        "S1901M",
        *("FRANCE A PAR", "TURKEY A CON"),
        owners={"FRANCE": ["PAR"], "TURKEY": ["CON"], "ITALY": ["TUN"], "AUSTRIA": ["VIE"]},
    )

    game = process(game, 0)

    assert game.status == Game.Status.ACTIVE
    assert statuses(game)["ITALY"] == Power.Status.ELIMINATED
    assert statuses(game)["AUSTRIA"] == Power.Status.ACTIVE  # Vienna is a home centre: it may build there


# --- Ice Lords: a game never runs forever ----------------------------------------------------------


def ice_lords_game(users, **settings) -> Game:
    game = game_create(name="Ice", variant="ice_lords", powers=2, **settings)
    for user in users[:2]:
        game_join(game_id=game.id, user=user, now=START)
    game.refresh_from_db()
    return game


def test_an_ice_lords_game_gets_the_variants_default_last_year(users):
    assert ice_lords_game(users).end_year == DEFAULT_END_YEAR
    assert ice_lords_game(users, end_year=1920).end_year == 1920
    assert game_create(name="Standard", variant="standard").end_year is None  # no default: no limit


def test_a_game_master_moves_the_last_year_but_an_ice_lords_game_always_keeps_one(users):
    game = ice_lords_game(users)

    assert game_end_year_set(game_id=game.id, end_year=1930).end_year == 1930
    assert game_end_year_set(game_id=game.id, end_year=None).end_year == DEFAULT_END_YEAR
    with pytest.raises(GameError, match="before the game starts"):
        game_end_year_set(game_id=game.id, end_year=1800)

    form = GameForm(instance=game)  # the admin's change form checks the field the same way
    form.cleaned_data = {"end_year": None}
    assert form.clean_end_year() == DEFAULT_END_YEAR
    form.cleaned_data = {"end_year": 1800}
    with pytest.raises(ValidationError):
        form.clean_end_year()


def test_an_ice_lords_game_ends_with_no_winner_after_its_last_year(users):
    game = ice_lords_game(users)
    game_end_year_set(game_id=game.id, end_year=1901)

    game = process(game, 0)  # Spring 1901
    assert game.status == Game.Status.ACTIVE
    game = process(game, 2)  # Fall 1901; nobody builds, so the Winter is skipped and 1901 is over

    assert (game.status, game.result, game.winners) == (Game.Status.FINISHED, Game.Result.NO_WINNER, [])
