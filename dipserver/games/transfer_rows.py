"""Rows as JSON and back, field by field from the model, so a field added to a model is exported and
imported without touching the transfer code. Relations are left to the caller (they are named by natural
keys in an export: usernames, power names, phase indexes), and so is an automatic primary key."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from django.db import models

M = TypeVar("M", bound=models.Model)


def carried_fields(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    """The fields an export carries as values: every concrete field but relations and an automatic id."""
    return [
        f for f in model._meta.concrete_fields if not f.is_relation and not (f.primary_key and f.auto_created)
    ]


def row_out(obj: models.Model) -> dict[str, Any]:
    """The carried fields of ``obj`` as JSON values (times in ISO 8601 with their offset)."""
    row = {}
    for field in carried_fields(type(obj)):
        value = field.value_from_object(obj)
        row[field.name] = value.isoformat() if isinstance(value, dt.date | dt.time) else value
    return row


def row_in(model: type[models.Model], row: dict[str, Any]) -> dict[str, Any]:
    """Keyword arguments for ``model`` from ``row``; a field the row lacks (an older export) keeps its
    default."""
    return {f.name: f.to_python(row[f.name]) for f in carried_fields(model) if f.name in row}


def _automatic_times(model: type[models.Model]) -> list[str]:
    return [
        f.name
        for f in carried_fields(model)
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]


def bulk_create_as_given(model: type[M], objs: Sequence[M], rows: Iterable[dict[str, Any]]) -> list[M]:
    """``bulk_create``, then the given creation and update times put back: ``auto_now(_add)`` fields are
    stamped with the time of the import on create, while an import keeps the times the export had."""
    created = model._default_manager.bulk_create(objs)
    names = _automatic_times(model)
    given = [(obj, row) for obj, row in zip(created, rows, strict=True) if any(n in row for n in names)]
    for obj, row in given:
        for name, value in row_in(model, {n: row[n] for n in names if n in row}).items():
            setattr(obj, name, value)
    if given and names:
        model._default_manager.bulk_update([obj for obj, _ in given], names)
    return created
