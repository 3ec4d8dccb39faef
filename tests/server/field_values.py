"""Values other than a field's default, by the kind of field, for tests that check every field is kept."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import models

LATER = dt.datetime(2026, 5, 17, 8, 45, 30, 123456, tzinfo=dt.UTC)


def other_than_default(field: models.Field[Any, Any]) -> Any:
    """A value for ``field`` that is not its default (a test using this must learn any new kind of
    field)."""
    default = field.get_default()
    if field.choices:
        return next(value for value, _ in field.flatchoices if value != default)
    kinds: list[tuple[type, Any]] = [
        (models.BooleanField, not default),
        (models.DateTimeField, LATER),
        (models.DateField, LATER.date()),
        (models.TimeField, dt.time(6, 15)),
        (models.IntegerField, 7),  # every integer kind, the positive ones too
        (models.FloatField, 2.5 if default != 2.5 else 3.5),
        (models.JSONField, {"carried": [1, "two"]}),
        (models.CharField, "carried"),
        (models.TextField, "carried text"),
    ]
    for kind, value in kinds:
        if isinstance(field, kind):
            return value
    raise AssertionError(f"teach this test a value for {type(field).__name__} ({field})")
