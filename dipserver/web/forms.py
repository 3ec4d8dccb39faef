"""The create-a-game form: the settings a player picks, checked again by the games service."""

from __future__ import annotations

import zoneinfo
from typing import Any, cast

from django import forms

from dipserver.engine.icelords import POWERS as ICE_LORDS_POWERS
from dipserver.games.models import Game
from dipserver.games.variants import GENERATED

ICE_LORDS_DEFAULT_POWERS = 6

MAX_PHASE_MINUTES = 60 * 24 * 60  # the API's limit: sixty days


def _minutes(label: str, initial: int) -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=1, max_value=MAX_PHASE_MINUTES, initial=initial)


class GameCreateForm(forms.Form):
    name = forms.CharField(max_length=100)
    variant = forms.ChoiceField()
    press = forms.ChoiceField(choices=Game.Press.choices, initial=Game.Press.FULL)
    mode = forms.ChoiceField(
        label="Map changes",
        choices=[("exact", "On the dates in the rules"), ("random", "In a random year within each window")],
        initial="exact",
    )
    movement_minutes = _minutes("Minutes for orders", 1440)
    retreat_minutes = _minutes("Minutes for retreats", 720)
    adjustment_minutes = _minutes("Minutes for builds", 720)
    deadline_zone = forms.CharField(label="Time zone", max_length=64, initial="UTC")
    end_year = forms.IntegerField(label="Last year (optional)", min_value=1, max_value=9999, required=False)
    password = forms.CharField(
        label="Password to join (optional)", max_length=128, required=False, widget=forms.PasswordInput
    )
    powers = forms.IntegerField(
        label=f"Powers (Ice Lords only, 2 to {len(ICE_LORDS_POWERS)})",
        min_value=2,
        max_value=len(ICE_LORDS_POWERS),
        required=False,
        help_text=f"An Ice Lords board is dealt for this many powers; {ICE_LORDS_DEFAULT_POWERS} if empty.",
    )

    def __init__(self, *args: Any, variants: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["variant"]).choices = variants  # declared so above

    def clean_deadline_zone(self) -> str:
        zone: str = self.cleaned_data["deadline_zone"].strip()
        if zone not in zoneinfo.available_timezones():
            raise forms.ValidationError(f"Unknown time zone {zone!r}; use a name such as Europe/Paris.")
        return zone

    def clean(self) -> dict[str, Any]:
        # cast: Form.clean() returns cleaned_data; the stubs allow None for overrides that return nothing.
        data = cast(dict[str, Any], super().clean())
        if data.get("powers") is not None and data.get("variant") not in (None, GENERATED):
            self.add_error("powers", "Only Ice Lords is dealt for a number of powers; leave this empty.")
        return data

    def game_settings(self) -> dict[str, Any]:
        """The keyword arguments of ``game_create`` (without who creates it)."""
        data = self.cleaned_data
        return {
            "name": data["name"],
            "variant": data["variant"],
            "press": data["press"],
            "options": {"mode": data["mode"]},
            "phase_minutes": {
                "M": data["movement_minutes"],
                "R": data["retreat_minutes"],
                "A": data["adjustment_minutes"],
            },
            "deadline_zone": data["deadline_zone"],
            "end_year": data["end_year"],
            "join_password": data["password"],
            "powers": (data["powers"] or ICE_LORDS_DEFAULT_POWERS) if data["variant"] == GENERATED else None,
        }
