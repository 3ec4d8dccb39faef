"""Deadlines: a phase length, optionally pushed to a fixed time of day in the game's time zone."""

from __future__ import annotations

import datetime as dt

import pytest

from dipserver.games.deadlines import deadline_after, phase_minutes_checked
from dipserver.games.errors import GameError

NOW = dt.datetime(2026, 7, 1, 10, 0, tzinfo=dt.UTC)


def test_a_plain_deadline_is_now_plus_the_phase_length():
    assert deadline_after(NOW, 90) == NOW + dt.timedelta(minutes=90)


def test_a_fixed_time_of_day_is_the_first_one_after_the_phase_length():
    # 10:00 UTC + 24 h is 12:00 in Paris (summer time) on 2 July: 20:00 Paris that day comes next.
    deadline = deadline_after(NOW, 24 * 60, dt.time(20, 0), "Europe/Paris")
    assert deadline == dt.datetime(2026, 7, 2, 18, 0, tzinfo=dt.UTC)


def test_a_time_of_day_already_passed_moves_to_the_next_day():
    deadline = deadline_after(NOW, 60, dt.time(9, 0), "UTC")
    assert deadline == dt.datetime(2026, 7, 2, 9, 0, tzinfo=dt.UTC)


def test_phase_lengths_default_and_refuse_nonsense():
    assert phase_minutes_checked({"M": 60}) == {"M": 60, "R": 720, "A": 720}
    with pytest.raises(GameError, match="M \\(movement\\), R \\(retreats\\) and A"):
        phase_minutes_checked({"X": 5})
    with pytest.raises(GameError, match="whole number of minutes"):
        phase_minutes_checked({"R": 0})
