"""Statements compiled once give what their querysets give, and ``row_update`` writes what
``QuerySet.update`` would (``games.statements``)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.models import Count, QuerySet
from django.test.utils import CaptureQueriesContext

from dipserver.games.models import Game, Phase, Power
from dipserver.games.statements import Compiled, row_insert, row_update


def _seats(game_id: int) -> QuerySet[Power]:
    return Power.objects.filter(game_id=game_id).select_related("user", "game").annotate(n=Count("id"))


SEATS = Compiled(_seats, "game_id")


def _fields(power: Power) -> tuple:
    return (
        power.id,
        power.name,
        power.preferences,
        power.away_until,
        power.user.username if power.user else None,
        power.game.options,
        power.game.created_at,
        power.n,
    )


def test_a_compiled_statement_gives_what_its_queryset_gives_each_time(game, users):
    other = Game.objects.create(name="Other", variant="standard", secret="s", commitment="c")
    Power.objects.create(game=other, name="FRANCE", preferences=["FRANCE"])
    for game_id in (game.id, other.id, game.id):
        assert [_fields(p) for p in SEATS(game_id=game_id)] == [_fields(p) for p in _seats(game_id)]
    with CaptureQueriesContext(connection) as queries:
        assert len(SEATS(game_id=game.id)) == 7
    assert len(queries) == 1


def test_an_argument_that_lands_nowhere_is_refused(game):
    with pytest.raises(ValueError, match="must land among the parameters"):
        Compiled(lambda game_id: Power.objects.all(), "game_id")(game_id=game.id)


def test_row_update_writes_prepared_values_where_the_conditions_hold_and_bumps(game):
    phase = game.current_phase
    assert phase is not None
    when = dt.datetime(2026, 5, 1, 12, tzinfo=dt.UTC)
    values = {"processed_at": when, "results": [{"a": 1}], "status": Phase.Status.PROCESSED}
    assert row_update(Phase, phase.id, values, where={"status": Phase.Status.OPEN}) == 1
    assert row_update(Phase, phase.id, values, where={"status": Phase.Status.OPEN}) == 0
    phase.refresh_from_db()
    assert (phase.processed_at, phase.results, phase.status) == (when, [{"a": 1}], "processed")
    version = Game.objects.get(id=game.id).version
    assert row_update(Game, game.id, {"current_phase": None}, bump="version") == 1
    assert Game.objects.values_list("current_phase", "version").get(id=game.id) == (None, version + 1)


def test_row_insert_writes_what_create_would(game):
    values = {"game": game, "name": "F1901M", "variant_version": "v", "snapshot": {"a": [1]}}
    made = row_insert(Phase(index=5, **values))
    assert made.pk is not None and not made._state.adding
    created = Phase.objects.create(index=6, **values)
    columns = [f.attname for f in Phase._meta.concrete_fields if f.attname not in ("id", "index")]
    rows = {p.index: [getattr(p, c) for c in columns] for p in Phase.objects.filter(index__in=(5, 6))}
    assert rows[5] == rows[6] == [getattr(created, c) for c in columns]
