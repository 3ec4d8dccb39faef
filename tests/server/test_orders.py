"""Orders: checked on the phase's own map, revisable until the deadline, never silently dropped."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext

from dipserver.games.errors import GameError
from dipserver.games.models import Order, Phase
from dipserver.games.services.games import game_pause
from dipserver.games.services.orders import orders_submit, power_ready_set
from dipserver.games.services.press import message_send, press_mark_read
from tests.server.conftest import START, seat

SOON = START + dt.timedelta(hours=1)


def test_valid_lines_are_stored_and_rejected_ones_come_back_with_the_reason(game):
    england = seat(game, "ENGLAND")

    result = orders_submit(
        game_id=game.id, user=england.user, text="fleet london to north sea\nA PAR - BUR\nA LVP-YOR", now=SOON
    )

    assert result.accepted == ["F LON - NTH", "A LVP - YOR"]
    [rejection] = result.rejected
    assert (rejection.line, rejection.text) == (2, "A PAR - BUR")
    assert "France" in rejection.reason or "not" in rejection.reason
    assert list(Order.objects.filter(power=england).values_list("text", flat=True)) == [
        "F LON - NTH",
        "A LVP - YOR",
    ]


def test_a_new_submission_replaces_the_old_one(game):
    england = seat(game, "ENGLAND")
    orders_submit(game_id=game.id, user=england.user, text="F LON - NTH\nF EDI - NWG", now=SOON)
    orders_submit(game_id=game.id, user=england.user, text="F LON - ENG", now=SOON)

    assert list(Order.objects.filter(power=england).values_list("text", flat=True)) == ["F LON - ENG"]


def test_orders_after_the_deadline_are_refused_naming_the_phase(game):
    england = seat(game, "ENGLAND")
    late = game.current_phase.deadline + dt.timedelta(seconds=1)

    with pytest.raises(GameError, match=r"^The Spring 1901 deadline has passed$"):
        orders_submit(game_id=game.id, user=england.user, text="F LON - NTH", now=late)


@pytest.mark.parametrize(
    ("named", "reason"), [("F0682M", "Autumn 0682 deadline has passed"), ("s9999m", "has not begun")]
)
def test_orders_for_another_phase_are_refused_in_words_however_the_year_is_written(game, named, reason):
    with pytest.raises(GameError, match=reason):
        orders_submit(
            game_id=game.id, user=seat(game, "ENGLAND").user, text="F LON - NTH", phase=named, now=SOON
        )


def test_orders_for_a_processed_phase_are_refused(game):
    Phase.objects.filter(id=game.current_phase_id).update(status=Phase.Status.PROCESSED)
    with pytest.raises(GameError, match="Spring 1901 deadline has passed"):
        orders_submit(game_id=game.id, user=seat(game, "ENGLAND").user, text="F LON - NTH", now=SOON)


def test_no_orders_while_paused_and_none_from_outsiders(game, users):
    with pytest.raises(GameError, match="not playing in this game"):
        orders_submit(game_id=game.id, user=users[7], text="F LON - NTH", now=SOON)
    game_pause(game_id=game.id)
    with pytest.raises(GameError, match="paused"):
        orders_submit(game_id=game.id, user=seat(game, "ENGLAND").user, text="F LON - NTH", now=SOON)


def test_a_user_without_an_id_never_takes_a_vacant_seats_orders_or_press(game):
    # A seat whose player's account was deleted has no user (SET_NULL): a lookup by a missing id must not
    # read as "user IS NULL" and find it.
    vacant = seat(game, "ENGLAND")
    vacant.user = None
    vacant.save(update_fields=["user"])
    with pytest.raises(GameError, match="not playing in this game"):
        orders_submit(game_id=game.id, user=AnonymousUser(), text="F LON - NTH", now=SOON)
    with pytest.raises(GameError, match="not playing in this game"):
        power_ready_set(game_id=game.id, user=AnonymousUser(), now=SOON)
    with pytest.raises(GameError, match="not playing in this game"):
        press_mark_read(game_id=game.id, user=AnonymousUser(), channel="public")
    with pytest.raises(GameError, match="not playing in this game"):
        message_send(game_id=game.id, user=AnonymousUser(), body="Hello from nobody", recipients=[])
    assert not Order.objects.filter(power=vacant).exists()


def test_when_every_active_power_is_ready_the_phase_is_processed_at_once(
    game, django_capture_on_commit_callbacks
):
    powers = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
    for name in powers[:-1]:
        assert power_ready_set(game_id=game.id, user=seat(game, name).user, now=SOON) is False

    with django_capture_on_commit_callbacks(execute=True):
        assert power_ready_set(game_id=game.id, user=seat(game, "TURKEY").user, now=SOON) is True

    game.refresh_from_db()
    assert game.current_phase.name == "F1901M"
    assert Phase.objects.get(game=game, index=0).status == Phase.Status.PROCESSED


def test_orders_written_for_another_phase_are_refused(game):
    england = seat(game, "ENGLAND").user
    Phase.objects.filter(id=game.current_phase_id).update(name="F1901M")

    with pytest.raises(GameError, match=r"^The Spring 1901 deadline has passed$"):
        orders_submit(game_id=game.id, user=england, text="F LON - NTH", phase="S1901M", now=SOON)
    with pytest.raises(GameError, match="Spring 1902 movement has not begun"):
        orders_submit(game_id=game.id, user=england, text="F LON - NTH", phase="s1902m", now=SOON)
    with pytest.raises(GameError, match="not a phase name"):
        orders_submit(game_id=game.id, user=england, text="F LON - NTH", phase="tomorrow", now=SOON)


def test_a_submission_costs_few_queries_and_reads_the_snapshot_only_once_per_phase(game):
    england = seat(game, "ENGLAND")
    orders_submit(game_id=game.id, user=england.user, text="F LON - NTH", now=SOON)  # parses the phase

    with CaptureQueriesContext(connection) as queries:
        result = orders_submit(game_id=game.id, user=england.user, text="F LON - ENG\nA LVP - YOR", now=SOON)

    assert result.ok
    sql = [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]
    # PostgreSQL: the game with its phase (no snapshot), the seat, the orders replaced in one statement;
    # SQLite: the game, the phase, the seat, delete the old orders, insert the new
    assert len(sql) == (3 if connection.vendor == "postgresql" else 5), sql
    assert not any("snapshot" in q for q in sql)
