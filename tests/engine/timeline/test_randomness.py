"""Ruling E19: cumulative chances, one auditable HMAC draw per entry, reproducible from the secret."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest

from dipserver.engine import randomness
from dipserver.engine import timeline as timeline_module
from dipserver.engine.timeline import Hook, TimelineError, load_timeline, schedule
from dipserver.engine.variant import Variant

WINDOW = {1902: 25, 1903: 75, 1904: 100}


@pytest.mark.fresh_secrets
def test_the_published_commitment_is_the_sha256_of_the_secret() -> None:
    secret = randomness.new_secret()
    assert len(secret) == 64
    assert randomness.commitment(secret) == hashlib.sha256(secret.encode()).hexdigest()
    assert randomness.verify(secret, randomness.commitment(secret))
    assert not randomness.verify(secret + "0", randomness.commitment(secret))


def test_anyone_can_recompute_a_draw_from_the_revealed_secret() -> None:
    digest = hmac.new(b"s3cret", b"wall_of_ice/impassable/BAR", hashlib.sha256).digest()
    expected = (int.from_bytes(digest[:8], "big") >> 11) / 2**53
    assert randomness.draw("s3cret", "wall_of_ice/impassable/BAR") == expected


def test_draws_differ_by_entry_and_by_secret_and_stay_in_the_unit_interval() -> None:
    draws = {randomness.draw(s, e) for s in ("a", "b") for e in ("x", "y")}
    assert len(draws) == 4
    assert all(0 <= u < 1 for u in draws)


def test_a_draw_needs_a_secret() -> None:
    with pytest.raises(ValueError, match="secret"):
        randomness.draw("", "x")


@pytest.mark.parametrize(
    ("u", "year"), [(0.0, 1902), (0.2499, 1902), (0.25, 1903), (0.7499, 1903), (0.75, 1904), (0.9999, 1904)]
)
def test_e19_cumulative_reading_picks_the_year_whose_band_holds_the_draw(u: float, year: int) -> None:
    assert randomness.year_for(u, WINDOW) == year


def test_e19_exact_mode_takes_the_75_percent_year_or_the_first_year_past_it() -> None:
    assert randomness.exact_year(WINDOW) == 1903
    assert randomness.exact_year({1905: 25, 1906: 100}) == 1906  # North Africa


def test_e19_over_many_games_the_years_come_one_quarter_one_half_one_quarter() -> None:
    years = Counter(randomness.year_for(randomness.draw(f"game-{n}", "entry"), WINDOW) for n in range(4000))
    assert abs(years[1902] / 4000 - 0.25) < 0.03
    assert abs(years[1903] / 4000 - 0.50) < 0.03
    assert abs(years[1904] / 4000 - 0.25) < 0.03


def test_e19_the_same_secret_gives_the_same_schedule_a_replay_or_a_reverted_phase_sees(
    wall_of_ice: Variant,
) -> None:
    timeline = load_timeline(wall_of_ice)
    first = schedule(timeline, {"mode": "random"}, "replayed")
    timeline_module._schedule_cached.cache_clear()  # recompute from scratch, as a fresh process would
    assert dict(schedule(timeline, {"mode": "random"}, "replayed")) == dict(first)
    assert dict(schedule(timeline, {"mode": "random"}, "another")) != dict(first)


def test_random_mode_refuses_to_run_without_the_secret(wall_of_ice: Variant) -> None:
    with pytest.raises(TimelineError, match="secret"):
        schedule(load_timeline(wall_of_ice), {"mode": "random"})


def test_exact_mode_ignores_any_secret(wall_of_ice: Variant) -> None:
    timeline = load_timeline(wall_of_ice)
    assert dict(schedule(timeline, {"mode": "exact"}, "whatever")) == dict(schedule(timeline, {}))
    assert (1903, Hook.AFTER_FALL_RETREATS) in schedule(timeline, {})


@pytest.mark.parametrize("n", range(20))
def test_e19_every_random_change_falls_inside_its_own_window(wall_of_ice: Variant, n: int) -> None:
    timeline = load_timeline(wall_of_ice)
    windows = {f"{e.change}/{p}": dict(e.chance) for e in timeline.events for p in e.provinces}
    placed = [
        c for changes in schedule(timeline, {"mode": "random"}, f"window-{n}").values() for c in changes
    ]
    assert len(placed) == len(windows) == 62
    for change in placed:
        assert change.year in windows[f"{change.change}/{change.province}"], change
