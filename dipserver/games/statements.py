"""Statements compiled once: the few querysets every processed phase and every announcement runs.

Django builds a queryset's SQL again each time it runs it, and for the short statements of processing a
phase that cost more than PostgreSQL takes to run them (issue 19, counted by ``scripts/profile_phase.py``:
building the three locking reads of ``phase_process`` took about a third of its instructions). A
``Compiled`` is made from a function that builds the queryset from integer arguments. The first call on a
database compiles it with marker values in their place and notes where each marker lands among the SQL's
parameters; every call after runs that SQL with the arguments put there, and turns the rows into model
instances as the queryset would (the same converters, ``select_related`` rows and annotations).

``Compiled`` knows querysets of model instances without ``prefetch_related`` or ``extra``, whose integer
arguments each land among the parameters as given (one that does not is refused when compiling).
``row_update`` writes named columns of one row by its id and conditions, and ``row_insert`` a new
model instance, with each field's own preparation of its value, from SQL built once per set of columns
(neither sends ``pre_save``/``post_save``: no receiver listens for the models they write).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, cast

from django.db import connections
from django.db.models import Field, Model, QuerySet
from django.db.models.query import get_related_populators  # type: ignore[attr-defined]  # not in the stubs
from django.db.models.sql.compiler import SQLCompiler

M = TypeVar("M", bound=Model)

# Markers: integers that no row id or constant of these statements is (each argument gets its own).
_MARKER = -7_301_946_000


class _Plan:
    """One queryset compiled for one database: its SQL, where each argument goes, how rows become models."""

    def __init__(self, queryset: QuerySet[Any], names: tuple[str, ...]) -> None:
        compiler: SQLCompiler = queryset.query.get_compiler(using=queryset.db)
        sql, params = compiler.as_sql()
        markers = {_MARKER - n: name for n, name in enumerate(names)}
        found = [markers.get(p) if type(p) is int else None for p in params]
        if {n for n in found if n is not None} != set(names):
            raise ValueError(f"Each argument of {names} must land among the parameters: {params}")
        if compiler.has_extra_select or queryset._prefetch_related_lookups:  # type: ignore[attr-defined]
            raise ValueError("A compiled statement selects a model's columns only: no extra, no prefetch")
        self.sql, self.params, self.slots = sql, list(params), [(i, n) for i, n in enumerate(found) if n]
        select, klass_info = compiler.select, compiler.klass_info
        assert klass_info is not None, "a queryset of model instances"
        self.model: type[Model] = klass_info["model"]
        fields = klass_info["select_fields"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.attnames = [f[0].target.attname for f in select[self.start : self.end]]
        self.populators = get_related_populators(klass_info, select, queryset.db)
        self.annotations = list(compiler.annotation_col_map.items())
        self.compiler, self.db = compiler, queryset.db
        self.converters = compiler.get_converters([s[0] for s in select[0 : compiler.col_count]])

    def rows(self, args: dict[str, int]) -> list[Any]:
        params = self.params[:]
        for index, name in self.slots:
            params[index] = args[name]
        with connections[self.db].cursor() as cursor:
            cursor.execute(self.sql, params)
            rows: Any = cursor.fetchall()
        if self.converters:
            rows = self.compiler.apply_converters(rows, self.converters)
        out = []
        for row in rows:
            obj = self.model.from_db(self.db, self.attnames, row[self.start : self.end])
            for populator in self.populators:
                populator.populate(row, obj)
            for attr, position in self.annotations:
                setattr(obj, attr, row[position])
            out.append(obj)
        return out


class Compiled(Generic[M]):
    """``Compiled(lambda phase_id: Phase.objects.filter(id=phase_id))(phase_id=3)``: the queryset's model
    instances, its SQL built once per database (``alias``: the connection it runs on)."""

    def __init__(self, build: Callable[..., QuerySet[M]], *names: str, alias: str = "default") -> None:
        self._build, self._names, self._alias = build, names, alias
        self._plans: dict[tuple[str, str], _Plan] = {}

    def __call__(self, **args: int) -> list[M]:
        connection = connections[self._alias]
        key = (connection.vendor, connection.settings_dict["NAME"])
        plan = self._plans.get(key)
        if plan is None:
            markers = {name: _MARKER - n for n, name in enumerate(self._names)}
            plan = self._plans[key] = _Plan(self._build(**markers).using(self._alias), self._names)
        return plan.rows(args)


_updates: dict[tuple[Any, ...], str] = {}


def row_update(
    model: type[Model],
    pk: int,
    values: dict[str, Any],
    *,
    where: dict[str, Any] | None = None,
    bump: str | None = None,
    alias: str = "default",
) -> int:
    """``UPDATE`` the row ``pk`` of ``model``: ``values`` by field name (each prepared by its field, as
    ``QuerySet.update`` would), only where the fields in ``where`` equal theirs, and the integer column
    ``bump`` one more in the same statement; how many rows it wrote (0 or 1)."""
    connection = connections[alias]
    meta, where = model._meta, where or {}
    key = (connection.vendor, connection.settings_dict["NAME"], model, tuple(values), tuple(where), bump)
    sql = _updates.get(key)
    if sql is None:
        sql = _updates[key] = _update_sql(connection.ops.quote_name, meta, list(values), list(where), bump)
    params = [_field(meta, n).get_db_prep_save(v, connection) for n, v in values.items()]
    params.append(pk)
    params += [_field(meta, n).get_db_prep_value(v, connection) for n, v in where.items()]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.rowcount)


def _field(meta: Any, name: str) -> Field[Any, Any]:
    return cast("Field[Any, Any]", meta.get_field(name))  # a concrete column: the names above are fields


def _update_sql(
    quote: Callable[[str], str], meta: Any, values: list[str], where: list[str], bump: str | None
) -> str:
    sets = [f"{quote(meta.get_field(n).column)} = %s" for n in values]
    if bump:
        column = quote(meta.get_field(bump).column)
        sets.append(f"{column} = ({column} + 1)")
    tests = [f"{quote(meta.pk.column)} = %s", *(f"{quote(meta.get_field(n).column)} = %s" for n in where)]
    return f"UPDATE {quote(meta.db_table)} SET {', '.join(sets)} WHERE {' AND '.join(tests)}"


_inserts: dict[tuple[Any, ...], str] = {}


def row_insert(obj: M, *, alias: str = "default") -> M:
    """``INSERT`` the new instance ``obj`` (every concrete column but its automatic id, each value
    prepared by its field as ``save()`` would) and give it the id the database chose."""
    connection = connections[alias]
    meta = obj._meta
    fields = [f for f in meta.concrete_fields if f is not meta.auto_field]
    returning = connection.features.can_return_columns_from_insert
    key = (connection.vendor, connection.settings_dict["NAME"], type(obj), returning)
    sql = _inserts.get(key)
    if sql is None:
        quote = connection.ops.quote_name
        columns = ", ".join(quote(f.column) for f in fields)
        sql = f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({', '.join(['%s'] * len(fields))})"
        if returning:
            sql += f" RETURNING {quote(meta.pk.column)}"
        _inserts[key] = sql
    params = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        obj.pk = cursor.fetchone()[0] if returning else cursor.lastrowid
    obj._state.adding, obj._state.db = False, alias
    return obj
