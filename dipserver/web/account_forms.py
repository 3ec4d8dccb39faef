"""The account page's form: the email address, the time zone and which mails to get."""

from __future__ import annotations

from typing import Any

from django import forms

from dipserver.accounts.models import PREFERENCE_FIELDS, NotificationPreferences
from dipserver.accounts.selectors import time_zone_names

REMINDER_CHOICES = [(h, f"{h} hour{'s' if h != 1 else ''} before") for h in (1, 2, 3, 6, 12, 24, 48, 72)]


class AccountForm(forms.Form):
    email = forms.EmailField(
        required=False,
        help_text="We mail a link to a new address; it is used once you follow it.",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    time_zone = forms.ChoiceField(help_text="Deadlines on the site and in mails are shown in it.")
    phase_processed = forms.BooleanField(
        label="Phase results (orders, outcomes, map changes, what is due next)", required=False
    )
    deadline_reminder = forms.BooleanField(label="A reminder when I have not ordered yet", required=False)
    reminder_hours = forms.TypedChoiceField(label="Remind me", choices=REMINDER_CHOICES, coerce=int)
    press = forms.ChoiceField(label="Press received", choices=NotificationPreferences.Press.choices)
    game_started = forms.BooleanField(label="A game I joined has started", required=False)
    game_ended = forms.BooleanField(label="A game I play has ended", required=False)
    version_changed = forms.BooleanField(
        label="A game I play moves to a newer version of its studio variant (what changes on the map)",
        required=False,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        zone_field = self.fields["time_zone"]
        assert isinstance(zone_field, forms.ChoiceField)
        zone_field.choices = [(name, name) for name in time_zone_names()]

    @classmethod
    def initial_for(
        cls, *, email: str, time_zone: str, preferences: NotificationPreferences
    ) -> dict[str, Any]:
        return {"email": email, "time_zone": time_zone} | {
            f: getattr(preferences, f) for f in PREFERENCE_FIELDS
        }

    def preferences(self) -> dict[str, Any]:
        return {f: self.cleaned_data[f] for f in PREFERENCE_FIELDS}
