"""Request bodies are taken as the schema types them, not as DRF would coerce them.

DRF's fields are lenient: a ``CharField`` takes ``5`` as ``"5"``, an ``IntegerField`` takes ``"5"`` and
``5.0``, a ``BooleanField`` takes ``"yes"`` and ``1``. The schema says ``string``, ``integer``,
``boolean``, so a client written from it (or schemathesis) expects anything else to be refused. An
:class:`Input` serializer checks each JSON value's type against its field before DRF reads it, nested
lists, objects and serializers included; a wrong type is a 400 ``invalid`` naming the field.

Query parameters arrive as text: :func:`query_of` gives them to a serializer as a plain mapping, so an
empty ``?variant=`` is checked as the empty string it is (DRF's form rules would take it as absent).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.utils import html

# The JSON type each kind of field takes; a field not named here takes any JSON value.
_TYPES: tuple[tuple[type[serializers.Field[Any, Any, Any, Any]], tuple[type, ...], str], ...] = (
    (serializers.BooleanField, (bool,), "true or false"),
    (serializers.IntegerField, (int,), "a whole number"),
    (serializers.FloatField, (int, float), "a number"),
    (serializers.CharField, (str,), "a string"),
    (serializers.DateTimeField, (str,), "a string"),
    (serializers.TimeField, (str,), "a string"),
    (serializers.ChoiceField, (str,), "a string"),
    (serializers.ListField, (list,), "a list"),
    (serializers.DictField, (dict,), "an object"),
    (serializers.Serializer, (dict,), "an object"),
)


def type_problem(field: Any, value: Any) -> str | None:
    """What is wrong with the JSON type of ``value`` for ``field`` (and inside it), or None."""
    if value is None:
        return None if field.allow_null else "may not be null"
    if isinstance(field, serializers.JSONField):
        return None
    for kind, types, words in _TYPES:
        if isinstance(field, kind):
            wrong = not isinstance(value, types) or (bool not in types and isinstance(value, bool))
            if wrong:
                return f"must be {words}"
            break
    return _inner_problem(field, value)


def _inner_problem(field: Any, value: Any) -> str | None:
    if isinstance(field, serializers.ListField):
        items = enumerate(value)
        return next((f"item {i}: {p}" for i, v in items if (p := type_problem(field.child, v))), None)
    if isinstance(field, serializers.DictField):
        return next((f"{k}: {p}" for k, v in value.items() if (p := type_problem(field.child, v))), None)
    if isinstance(field, serializers.Serializer):
        return _fields_problem(field.fields, value)
    return None


def _fields_problem(fields: Mapping[str, Any], data: Mapping[str, Any]) -> str | None:
    for name, field in fields.items():
        if name in data and not field.read_only and (problem := type_problem(field, data[name])):
            return f"{name}: {problem}"
    return None


class Input(serializers.Serializer[Any]):
    """A request body's serializer that refuses values of the wrong JSON type before DRF coerces them."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, dict) or html.is_html_input(data):  # a form's values are all text
            return super().to_internal_value(data)
        problems = {
            name: [problem]
            for name, field in self.fields.items()
            if name in data and not field.read_only and (problem := type_problem(field, data[name]))
        }
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            # DRF's own complaints win; the types it would have coerced are added to them.
            if problems and isinstance(exc.detail, dict):
                raise serializers.ValidationError({**problems, **exc.detail}) from None
            raise
        if problems:
            raise serializers.ValidationError(problems)
        return value


def whole_number(raw: str, low: int, high: int | None = None) -> int | None:
    """A query parameter read as a whole number from ``low`` to ``high``, or None when it is not one.
    ASCII digits only: ``str.isdigit`` takes ``²`` (which ``int`` then refuses) and ``int`` takes Arabic
    or Devanagari digits, neither of which a client means as a number here."""
    if not (raw.isascii() and raw.isdigit()):
        return None
    number = int(raw)
    return number if low <= number and (high is None or number <= high) else None


def query_of(request: Request) -> dict[str, str]:
    """The query parameters as a plain mapping (the last value of each), for a filter serializer."""
    return request.query_params.dict()
