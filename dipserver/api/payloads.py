"""Typed pieces of the API's answers that several endpoints share: statuses, units, order results and
order options, each with its enum, so the schema says what a client gets instead of "an object"."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from dipserver.engine import OPTION_KINDS
from dipserver.games.models import Game, Phase, Power

UNIT_TYPES = ("A", "F")
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


class OptionSerializer(serializers.Serializer[Any]):
    """A legal order: send its ``text`` back unchanged. The order's own fields (unit, target, ...) follow."""

    text = serializers.CharField()
    kind = serializers.ChoiceField(choices=OPTION_KINDS)

    def to_representation(self, instance: Any) -> dict[str, Any]:
        return {**instance, **super().to_representation(instance)}
