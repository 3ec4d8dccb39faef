"""Wall of Ice rule 4 on the server: fleets may become armies in any Winter, so such a Winter is played and
waits for the powers that could convert."""

from __future__ import annotations

import datetime as dt

from dipserver.games.selectors import powers_waiting
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.phases import phase_process
from tests.server.conftest import START, seat, set_up, started_game

LATE = START + dt.timedelta(days=2)


def test_a_winter_with_a_fleet_on_a_coast_is_played_and_waits_for_its_owner(users):
    game = started_game(users, variant="wall_of_ice")
    set_up(
        game,
        "F1901M",
        *("ENGLAND F EDI", "ENGLAND A LON", "ENGLAND A LVP", "FRANCE A PAR"),
        owners={"ENGLAND": ["EDI", "LON", "LVP"], "FRANCE": ["PAR"]},
    )
    phase_process(phase_id=game.current_phase_id, now=LATE)
    game.refresh_from_db()

    winter = game.current_phase
    assert winter is not None and winter.name == "W1901A"
    assert powers_waiting(game=game) == ["ENGLAND"]

    england = seat(game, "ENGLAND").user
    orders_submit(game_id=game.id, user=england, text="F EDI becomes army", now=LATE)
    phase_process(phase_id=winter.id, now=LATE + dt.timedelta(days=2))
    game.refresh_from_db()

    assert game.current_phase is not None and game.current_phase.name == "S1902M"
    assert {"power": "ENGLAND", "type": "A", "location": "EDI"} in game.current_phase.snapshot["units"]
