"""A processed phase's results as the API serves them: one record per order (``dipserver.engine.records``).

The fields results always had (``power``, ``order``, ``outcome``, ``reason``, ``dislodged``) come first,
so older clients read on; the record's fields say what the order was without reading its text.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from dipserver.engine import RECORD_KINDS, Outcome, UnitType

OUTCOMES = tuple(o.value for o in Outcome)
UNIT_TYPES = tuple(t.value for t in UnitType)
RESULT_KINDS = RECORD_KINDS  # named here for the schema's enum (SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"])


class _WithFrom(serializers.Serializer[Any]):
    """``from`` is a Python keyword: declared as ``from_`` and served under its own name, in place."""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {("from" if name == "from_" else name): f for name, f in super().get_fields().items()}


class ResultUnitSerializer(serializers.Serializer[Any]):
    """A unit: army or fleet, and where it stands."""

    type = serializers.ChoiceField(choices=UNIT_TYPES, help_text="A: army, F: fleet.")
    location = serializers.CharField(help_text="Province, or province/coast: STP/NC.")


class ViaSerializer(_WithFrom):
    """How an order goes: by convoy (a move), or with which unit and where to (a support, a convoy)."""

    convoy = serializers.BooleanField(
        help_text="A move that asks for a convoy or needs one (its destination is not adjacent)."
    )
    unit = ResultUnitSerializer(allow_null=True, help_text="A support's or convoy's unit; null for a move.")
    from_ = serializers.CharField(allow_null=True, help_text="Where that unit stands.")
    to = serializers.CharField(
        allow_null=True, help_text="Where that unit goes; null for a support to hold, and for a move."
    )


class ResultSerializer(_WithFrom):
    """One order's result: what it was (kind, unit, from, to, via) and how it went."""

    power = serializers.CharField()
    order = serializers.CharField(help_text="The order in short notation, for display (as typed if refused).")
    outcome = serializers.ChoiceField(choices=OUTCOMES)
    reason = serializers.CharField(allow_null=True, help_text="Why, in words; null on plain success.")
    dislodged = serializers.BooleanField(help_text="The ordered unit was dislodged this phase.")
    kind = serializers.ChoiceField(
        choices=RECORD_KINDS,
        allow_null=True,
        help_text="What the order was; null for a line that read as none.",
    )
    unit = ResultUnitSerializer(
        allow_null=True, help_text="The ordered unit (a build: the unit built); null: a waive, a blizzard."
    )
    from_ = serializers.CharField(
        allow_null=True, help_text="Where the ordered unit stands; null for a build."
    )
    to = serializers.CharField(
        allow_null=True,
        help_text="Where it goes if the order succeeds: a move's or retreat's destination, a build's "
        "site, a conversion's new location, a blizzard token's province; null when it stays.",
    )
    via = ViaSerializer(
        allow_null=True, help_text="A convoyed move's convoy, or a support's or convoy's unit."
    )

    def to_representation(self, instance: Any) -> dict[str, Any]:
        # The null rule (README, API): a reason that says nothing is null, never "".
        return {**super().to_representation(instance), "reason": instance.get("reason") or None}
