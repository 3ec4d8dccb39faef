"""Processing a phase: exactly once, only when due, all-or-nothing, with a constant number of queries."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext

from dipserver.games.models import Order, Phase, Power
from dipserver.games.services.games import game_pause
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.phases import (
    Processed,
    phase_deadline_extend,
    phase_process,
    phase_reminders_sweep,
    phases_due_sweep,
)
from dipserver.games.turn import powers_to_act
from tests.server.conftest import START, seat, started_game

SOON = START + dt.timedelta(hours=1)
LATE = START + dt.timedelta(days=2)


def test_a_phase_is_not_processed_before_its_deadline(game):
    assert phase_process(phase_id=game.current_phase_id, now=SOON) is Processed.NOT_DUE
    assert Phase.objects.get(id=game.current_phase_id).status == Phase.Status.OPEN


def test_a_due_phase_is_processed_once_and_a_second_run_finds_nothing(game):
    orders_submit(game_id=game.id, user=seat(game, "FRANCE").user, text="A PAR - BUR", now=SOON)
    phase_id = game.current_phase_id

    assert phase_process(phase_id=phase_id, now=LATE) is Processed.DONE
    assert phase_process(phase_id=phase_id, now=LATE) is Processed.NOT_DUE

    assert Phase.objects.filter(game=game).count() == 2
    done = Phase.objects.get(id=phase_id)
    assert done.orders == {"FRANCE": ["A PAR - BUR"]}
    assert done.results[0]["outcome"] == "success"
    assert done.skipped == ["S1901R"]
    game.refresh_from_db()
    following = game.current_phase
    assert (following.name, following.index, following.status) == ("F1901M", 1, Phase.Status.OPEN)
    assert following.deadline == LATE + dt.timedelta(hours=24)
    assert {"power": "FRANCE", "type": "A", "location": "BUR"} in following.snapshot["units"]


def test_a_paused_game_is_not_processed(game):
    game_pause(game_id=game.id, now=SOON)
    assert phase_process(phase_id=game.current_phase_id, now=LATE) is Processed.NOT_IN_PLAY


def test_a_phase_that_does_not_exist_is_missing(game):
    assert phase_process(phase_id=game.current_phase_id + 1000, now=LATE) is Processed.MISSING


def test_an_earlier_phase_of_a_paused_game_is_not_in_play(game):
    first = game.current_phase_id
    assert phase_process(phase_id=first, now=LATE) is Processed.DONE
    game_pause(game_id=game.id, now=LATE)
    assert phase_process(phase_id=first, now=LATE, force=True) is Processed.NOT_IN_PLAY


def test_an_extended_deadline_makes_a_queued_run_a_no_op(game):
    phase_deadline_extend(game_id=game.id, deadline=LATE + dt.timedelta(days=1), now=START)
    assert phase_process(phase_id=game.current_phase_id, now=LATE) is Processed.NOT_DUE


def test_missing_orders_hold_and_repeated_misses_mean_civil_disorder(users):
    game = started_game(users, missed_limit=2)
    first = phase_process(phase_id=game.current_phase_id, now=LATE)
    game.refresh_from_db()
    assert first is Processed.DONE
    assert set(Power.objects.filter(game=game).values_list("missed_phases", flat=True)) == {1}
    assert Power.objects.filter(game=game, status=Power.Status.ACTIVE).count() == 7

    orders_submit(game_id=game.id, user=seat(game, "ENGLAND").user, text="F LON H", now=LATE)
    phase_process(phase_id=game.current_phase_id, now=LATE + dt.timedelta(days=2))

    england = seat(game, "ENGLAND")
    assert (england.status, england.missed_phases) == (Power.Status.ACTIVE, 0)
    france = seat(game, "FRANCE")
    assert (france.status, france.seat_open) == (Power.Status.CIVIL_DISORDER, True)


def test_a_grace_period_gives_missing_powers_one_extension(users):
    game = started_game(users, grace_minutes=60)
    phase_id = game.current_phase_id

    assert phase_process(phase_id=phase_id, now=LATE) is Processed.GRACE
    phase = Phase.objects.get(id=phase_id)
    assert (phase.status, phase.deadline, phase.grace_used) == (
        Phase.Status.OPEN,
        LATE + dt.timedelta(hours=1),
        True,
    )
    # The grace period lets late orders in ...
    orders_submit(game_id=game.id, user=seat(game, "ENGLAND").user, text="F LON - NTH", now=LATE)
    # ... and is granted once: then the phase is processed, missing orders or not.
    assert phase_process(phase_id=phase_id, now=LATE + dt.timedelta(hours=2)) is Processed.DONE


def test_the_sweep_queues_only_due_phases_of_games_in_play(users, game):
    paused = started_game(users[7:] + users[:6], variant="standard")
    game_pause(game_id=paused.id, now=SOON)

    assert phases_due_sweep(now=SOON) == []
    assert phases_due_sweep(now=LATE) == [game.current_phase_id]


def test_the_sweep_queues_processing_after_commit(game, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        phases_due_sweep(now=LATE)
    game.refresh_from_db()
    assert game.current_phase.index == 0  # nothing is sent before the sweep commits
    with django_capture_on_commit_callbacks(execute=True):
        for callback in callbacks:
            callback()
    game.refresh_from_db()
    assert game.current_phase.index == 1  # the eager test worker processed it


def test_results_are_mailed_to_players_only_after_commit(game, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        phase_process(phase_id=game.current_phase_id, now=LATE)
    assert mail.outbox == []

    with django_capture_on_commit_callbacks(execute=True):  # the outbox queues each mail on commit too
        for callback in callbacks:
            callback()

    assert len(mail.outbox) == 7
    assert mail.outbox[0].subject == "[Test game] Spring 1901 movement processed"
    assert "Next: Autumn 1901 movement" in mail.outbox[0].body


def test_a_reminder_goes_once_to_each_power_without_orders(
    game, django_capture_on_commit_callbacks, monkeypatch
):
    orders_submit(game_id=game.id, user=seat(game, "ENGLAND").user, text=ALL_ORDERS["ENGLAND"], now=SOON)
    almost = game.current_phase.deadline - dt.timedelta(hours=3)
    monkeypatch.setattr("django.utils.timezone.now", lambda: almost)  # the mails are sent then
    with django_capture_on_commit_callbacks(execute=True):
        assert phase_reminders_sweep(now=almost, hours=12) == 1
        assert phase_reminders_sweep(now=almost, hours=12) == 0

    late = set(Power.objects.filter(game=game).exclude(name="ENGLAND").values_list("user__email", flat=True))
    assert {m.to[0] for m in mail.outbox} == late
    assert "deadline in 3 hours" in mail.outbox[0].subject  # the time really left


ALL_ORDERS = {
    "AUSTRIA": "A VIE - GAL\nA BUD - SER\nF TRI - ALB",
    "ENGLAND": "F LON - NTH\nF EDI - NWG\nA LVP - YOR",
    "FRANCE": "A PAR - BUR\nA MAR - SPA\nF BRE - MAO",
    "GERMANY": "A BER - KIE\nA MUN - RUH\nF KIE - HOL",
    "ITALY": "A ROM - APU\nA VEN H\nF NAP - ION",
    "RUSSIA": "A MOS - UKR\nA WAR - GAL\nF SEV - BLA\nF STP/SC - BOT",
    "TURKEY": "A CON - BUL\nA SMY - ARM\nF ANK - BLA",
}


def test_processing_takes_the_same_number_of_queries_however_many_orders(users):
    quiet = started_game(users)  # one order per power
    for name, text in ALL_ORDERS.items():
        orders_submit(game_id=quiet.id, user=seat(quiet, name).user, text=text.split("\n")[0], now=SOON)
    more = [get_user_model().objects.create(username=f"extra{i}") for i in range(7)]
    busy = started_game(more)  # every unit ordered
    for name, text in ALL_ORDERS.items():
        orders_submit(game_id=busy.id, user=seat(busy, name).user, text=text, now=SOON)
    assert Order.objects.filter(phase__game=busy).count() == 22

    counts = []
    for game in (quiet, busy):
        with CaptureQueriesContext(connection) as queries:
            assert phase_process(phase_id=game.current_phase_id, now=LATE) is Processed.DONE
        counts.append(len(queries))

    assert counts[0] == counts[1] <= 14


@pytest.mark.parametrize("variant", ["standard", "wall_of_ice", "sahara", "deluge"])
def test_every_variant_plays_ten_phases_without_orders(users, variant):
    game = started_game(users, variant=variant)
    when = LATE
    for _ in range(10):
        assert phase_process(phase_id=game.current_phase_id, now=when) is Processed.DONE
        game.refresh_from_db()
        when += dt.timedelta(days=2)
    assert game.current_phase.index == 10


def test_a_dislodged_unit_without_a_retreat_order_is_disbanded(game):
    orders_submit(game_id=game.id, user=seat(game, "GERMANY").user, text="A MUN - BUR", now=SOON)
    phase_process(phase_id=game.current_phase_id, now=LATE)
    game.refresh_from_db()
    france = seat(game, "FRANCE").user
    orders_submit(game_id=game.id, user=france, text="A PAR - BUR\nA MAR S A PAR - BUR", now=LATE)
    phase_process(phase_id=game.current_phase_id, now=LATE + dt.timedelta(days=2))
    game.refresh_from_db()

    retreat = game.current_phase
    assert retreat.name == "F1901R"
    assert [d["location"] for d in retreat.snapshot["dislodged"]] == ["BUR"]
    assert powers_to_act(retreat.snapshot) == {"GERMANY"}

    phase_process(phase_id=retreat.id, now=LATE + dt.timedelta(days=4))

    game.refresh_from_db()
    units = game.current_phase.snapshot["units"]
    assert sum(u["power"] == "GERMANY" for u in units) == 2
    assert {"power": "FRANCE", "type": "A", "location": "BUR"} in units
