"""Writing rows that must exist once, in one statement: ``INSERT ... ON CONFLICT DO NOTHING RETURNING``.

Fan-out writes (a notification per player, a reminder per seat, a mail per recipient, a webhook delivery
per notice and hook) are keyed so a retried or concurrent run
stores nothing twice. The ORM offers a read of the keys and then ``bulk_create`` (its own transaction
around it, and with ``ignore_conflicts`` no word on which rows it wrote) or ``get_or_create`` per row
(three statements each); this is one statement for all the rows, and it says which were new.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.db import connection, models
from django.utils import timezone

# Rows per statement: at eight columns, well inside SQLite's limit on a statement's parameters.
BATCH = 500


def rows_inserted_once(
    model: type[models.Model],
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    unique: Sequence[str],
    returning: Sequence[str],
) -> list[tuple[Any, ...]]:
    """Insert ``rows`` (values of ``columns``, by attribute name) into ``model``'s table, skipping each
    that would break the unique constraint on ``unique``; the ``returning`` columns of the rows written.
    Values go through each field's database preparation, as the ORM's would; a ``created_at`` column with
    no value given is stamped now."""
    fields = [_field(model, name) for name in columns]
    stamp = [f for f in ("created_at",) if f not in columns and _has(model, f)]
    now: dt.datetime = timezone.now()
    written: list[tuple[Any, ...]] = []
    for start in range(0, len(rows), BATCH):
        chunk = rows[start : start + BATCH]
        params = [
            value
            for row in chunk
            for value in (
                *(f.get_db_prep_save(v, connection) for f, v in zip(fields, row, strict=True)),
                *(_field(model, f).get_db_prep_save(now, connection) for f in stamp),
            )
        ]
        written += _execute(model, [*columns, *stamp], len(chunk), params, unique, returning)
    return written


def models_inserted_once(
    objs: Sequence[models.Model], unique: Sequence[str], returning: Sequence[str]
) -> list[tuple[Any, ...]]:
    """``rows_inserted_once`` for unsaved model instances of one model (every column but the primary key,
    each as the field would save it on a first save: defaults, ``auto_now_add``)."""
    if not objs:
        return []
    model = type(objs[0])
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    rows = [[f.pre_save(obj, True) for f in fields] for obj in objs]
    return rows_inserted_once(model, [f.attname for f in fields], rows, unique, returning)


def _field(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    """A concrete column's field, by name or attribute name (``user`` or ``user_id``)."""
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field) and field.column is not None, f"{name} is not a column"
    return field


def _column(model: type[models.Model], name: str) -> str:
    column = _field(model, name).column
    assert column is not None  # checked by _field
    return connection.ops.quote_name(column)


def _has(model: type[models.Model], name: str) -> bool:
    return any(f.name == name for f in model._meta.concrete_fields)


def _execute(
    model: type[models.Model],
    columns: Sequence[str],
    count: int,
    params: list[Any],
    unique: Sequence[str],
    returning: Sequence[str],
) -> list[tuple[Any, ...]]:
    quote = connection.ops.quote_name
    names = [_column(model, c) for c in columns]
    row = "(" + ", ".join(["%s"] * len(columns)) + ")"
    sql = (
        f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(names)}) VALUES {', '.join([row] * count)}"
        f" ON CONFLICT ({', '.join(_column(model, c) for c in unique)}) DO NOTHING"
        f" RETURNING {', '.join(_column(model, c) for c in returning)}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [tuple(r) for r in cursor.fetchall()]
