"""Export, import and replay; reading a game costs a fixed number of queries; demo games."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from dipserver.core.demo import demo_games_ensure
from dipserver.games.errors import GameError
from dipserver.games.models import Game, Phase
from dipserver.games.selectors import game_get, messages_for, next_map_change, timeline_rows
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.phases import phase_process
from dipserver.games.services.press import message_send
from dipserver.games.services.transfer import game_export, game_import, game_replay
from tests.server.conftest import START, seat, started_game

SPRING = {
    "ENGLAND": "F LON - NTH\nF EDI - NWG\nA LVP - YOR",
    "FRANCE": "A PAR - BUR\nA MAR - SPA\nF BRE - MAO",
    "GERMANY": "A MUN - BUR\nA BER - KIE\nF KIE - DEN",
    "RUSSIA": "F SEV - BLA\nA WAR - GAL",
    "TURKEY": "F ANK - BLA\nA CON - BUL",
}
FALL = {
    "ENGLAND": "F NTH - NWY\nA YOR - LON\nF NWG H",
    "FRANCE": "A SPA - POR\nF MAO - SPA/NC",
    "GERMANY": "F DEN - SWE\nA KIE - HOL",
    "AUSTRIA": "A VIE - GAL\nA BUD S A VIE - GAL\nF TRI - ALB",
}


def _play(game: Game, rounds: list[dict[str, str]], when: dt.datetime) -> dt.datetime:
    for orders in rounds:
        for name, text in orders.items():
            orders_submit(game_id=game.id, user=seat(game, name).user, text=text, now=when)
        when += dt.timedelta(days=2)
        phase_process(phase_id=game.current_phase_id, now=when)
        game.refresh_from_db()
    return when


def test_an_exported_game_imports_and_replays_to_the_identical_final_position(users):
    game = started_game(users, variant="sahara")
    when = _play(game, [SPRING, FALL, {}, {}, {}, {}], START)
    while not game.current_phase.name.endswith("M"):
        when = _play(game, [{}], when)
    message_send(game_id=game.id, user=seat(game, "ENGLAND").user, body="Good game")
    french = next(u for u in game.current_phase.snapshot["units"] if u["power"] == "FRANCE")
    hold = f"{french['type']} {french['location']} H"
    assert orders_submit(game_id=game.id, user=seat(game, "FRANCE").user, text=hold, now=when).ok

    data = json.loads(json.dumps(game_export(game_id=game.id)))
    copy = game_import(data=data)

    assert game_replay(game_id=game.id) == []
    assert game_replay(game_id=copy.id) == []
    original = Phase.objects.filter(game=game).order_by("index")
    imported = Phase.objects.filter(game=copy).order_by("index")
    assert [p.snapshot for p in imported] == [p.snapshot for p in original]
    assert [p.results for p in imported] == [p.results for p in original]
    assert copy.current_phase.snapshot == game.current_phase.snapshot
    assert game_export(game_id=copy.id)["open_orders"] == [
        {"phase": copy.current_phase.index, "power": "FRANCE", "text": hold}
    ]
    assert seat(copy, "ENGLAND").user == seat(game, "ENGLAND").user


@pytest.mark.parametrize("flagged", [True, False], ids=["export", "export from before the flag"])
def test_anonymous_press_stays_anonymous_in_an_imported_game(users, flagged):
    game = started_game(users, press="anonymous")
    message_send(game_id=game.id, user=seat(game, "ENGLAND").user, body="Guess who", recipients=["FRANCE"])
    data = json.loads(json.dumps(game_export(game_id=game.id)))
    if not flagged:
        del data["messages"][0]["anonymous"]
    copy = game_import(data=data)
    assert messages_for(game=copy, power=seat(copy, "FRANCE")) == [
        {"phase": "S1901M", "from": "", "to": ["FRANCE"], "body": "Guess who"}
    ]


def test_a_tampered_history_does_not_replay(users):
    game = started_game(users)
    _play(game, [SPRING], START)
    Phase.objects.filter(game=game, index=0).update(orders={"FRANCE": ["A PAR - PIC"]})
    assert game_replay(game_id=game.id) == ["phase 0 (S1901M) does not replay to phase 1"]


def test_import_refuses_what_is_not_an_export(db):
    with pytest.raises(GameError, match="Not a dipserver game export"):
        game_import(data={"format": "something else"})


def test_export_and_import_commands(users, tmp_path, capsys):
    game = started_game(users)
    _play(game, [SPRING], START)
    target = tmp_path / "game.json"

    call_command("games_export", game.id, output=str(target))
    call_command("games_import", str(target))

    assert "replay: OK" in capsys.readouterr().out


def test_reading_a_game_takes_the_same_queries_however_big_it_is(users):
    small = started_game(users)
    more = [get_user_model().objects.create(username=f"big{i}") for i in range(7)]
    big = started_game(more)
    _play(big, [SPRING, FALL, {}, {}], START)

    counts = []
    for game in (small, big):
        with CaptureQueriesContext(connection) as queries:
            view = game_get(game_id=game.id)
        counts.append(len(queries))
        assert len(view.powers) == 7
    assert counts[0] == counts[1] <= 5
    assert view.phase_names[:2] == ["S1901M", "F1901M"]


def test_demo_seeding_starts_a_game_per_variant_and_plays_two_years_once(users):
    first = demo_games_ensure(game_master=users[0], players=users[1:5])
    phases = Phase.objects.count()
    again = demo_games_ensure(game_master=users[0], players=users[1:5])

    assert first == again and Phase.objects.count() == phases  # the second run changes nothing
    games = list(Game.objects.order_by("id"))
    assert [g.variant for g in games] == [
        "deluge", "sahara", "standard", "wall_of_ice", "ice_lords", "standard"
    ]  # fmt: skip
    for game in games:
        assert game.status == Game.Status.ACTIVE and game.masters.filter(id=users[0].id).exists()
        assert game.current_phase.name == "S1903M"
        played = Phase.objects.filter(game=game, status=Phase.Status.PROCESSED)
        assert played.count() >= 4 and any(p.orders for p in played)  # seeded orders, adjudicated
        assert {p.user.username for p in game.powers.all()} >= {u.username for u in users[1:5]}
    sahara = Phase.objects.filter(game__variant="sahara", status=Phase.Status.PROCESSED)
    assert any(p.events for p in sahara)  # Sahara's seas dry after Autumn 1902: a map change in the history
    assert "Bot logins (they fill the other seats): bot1, bot2, bot3 / password bot-password" in first


def test_the_timeline_is_shown_with_random_years_kept_secret_until_the_end(users):
    exact = started_game(users, variant="wall_of_ice")
    rows = timeline_rows(game=exact)
    assert rows and all(isinstance(r["year"], int) for r in rows)
    assert next_map_change(game=exact).startswith(str(rows[0]["year"]))

    more = [get_user_model().objects.create(username=f"random{i}") for i in range(7)]
    secret = started_game(more, variant="wall_of_ice", options={"mode": "random"})
    hidden = [r for r in timeline_rows(game=secret) if r["year"] is None]
    assert hidden and all("revealed at the end" in r["hook"] for r in hidden)
    Game.objects.filter(id=secret.id).update(status=Game.Status.FINISHED)
    secret.refresh_from_db()
    assert all(r["year"] is not None for r in timeline_rows(game=secret))
