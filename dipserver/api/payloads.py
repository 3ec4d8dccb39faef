"""Typed pieces of the API's answers that several endpoints share: statuses, units, order results and
order options, each with its enum, so the schema says what a client gets instead of "an object"."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from dipserver.engine import OPTION_KINDS
from dipserver.games.models import Game, Phase, Power

UNIT_TYPES = ("A", "F")
DRAWING_SHAPES = ("arrow", "hold_line", "line", "ring", "cross", "unit", "mark", "none")
# Named for the schema's enums (SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]); OPTION_KINDS is the engine's.
GAME_STATUSES, PHASE_STATUSES, POWER_STATUSES = Game.Status, Phase.Status, Power.Status
GAME_PRESS = Game.Press.values  # its fields take the values alone, so the enum is named by them


def game_status() -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=Game.Status.choices)


def phase_status() -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=Phase.Status.choices)


def power_status() -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=Power.Status.choices)


def press_kind() -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=GAME_PRESS)


class UnitSerializer(serializers.Serializer[Any]):
    power = serializers.CharField()
    type = serializers.ChoiceField(choices=UNIT_TYPES, help_text="A (army) or F (fleet).")
    location = serializers.CharField(help_text='A province, or a fleet\'s coast: "STP/NC".')


class DislodgedSerializer(UnitSerializer):
    attacker_from = serializers.CharField(
        allow_null=True, help_text="Where the unit that dislodged it came from."
    )
    retreats = serializers.ListField(child=serializers.CharField(), help_text="Where it may retreat to.")


class DrawnUnitSerializer(UnitSerializer):
    aboard = serializers.BooleanField(required=False, help_text="An A/F: a fleet with an army aboard.")


class DrawingSerializer(serializers.Serializer[Any]):
    """How the map draws an order, from its kind's own drawing data (the history maps draw its result
    record the same way): a page draws it by ``shape``, whatever the order's kind."""

    shape = serializers.ChoiceField(
        choices=DRAWING_SHAPES,
        help_text="arrow: start to end (a move, a retreat); hold_line: start to the unit at via, ringed (a "
        "support to hold); line: start to the middle of the move of the unit at via, or of its way to end "
        "(a support to move, a convoy); ring: at start (a hold); cross: at start (a disband); unit: unit "
        "drawn new at start (a build); mark: words written at the unit at start (a conversion); none: a "
        "line in the order list only.",
    )
    start = serializers.CharField(allow_null=True, help_text="A location; null for none.")
    end = serializers.CharField(allow_null=True, help_text="A location; null for none.")
    via = serializers.CharField(allow_null=True, help_text="A location; null for none.")
    # A field called label, as the drawing's (DRF takes declared fields off the class: Field.label stays).
    label = serializers.CharField(  # type: ignore[assignment]
        allow_null=True, help_text="The order's name among the map's classes; null for none."
    )
    dislodged = serializers.BooleanField(help_text="start is a dislodged unit's place.")
    unit = DrawnUnitSerializer(allow_null=True, help_text="The unit a build draws; null otherwise.")
    words = serializers.CharField(allow_null=True, help_text="What a mark writes, e.g. A→F; null for none.")


class OptionSerializer(serializers.Serializer[Any]):
    """A legal order: send its ``text`` back unchanged. The order's own fields (unit, target, ...) follow."""

    text = serializers.CharField()
    kind = serializers.ChoiceField(choices=OPTION_KINDS)
    drawing = DrawingSerializer()

    def to_representation(self, instance: Any) -> dict[str, Any]:
        return {**instance, **super().to_representation(instance)}
