"""The game masters' console forms: the game's own settings and the forms of its extra pages."""

from __future__ import annotations

import datetime as dt
from typing import Any, cast
from zoneinfo import ZoneInfo

from django import forms
from django.core.exceptions import ValidationError

from dipserver.games.deadlines import DEADLINE_EXAMPLE, deadline_parsed
from dipserver.games.errors import GameError
from dipserver.games.models import Game, Phase
from dipserver.games.services.common import game_phase_title
from dipserver.games.services.games import end_year_checked
from dipserver.games.variants import game_variant


class DeadlineField(forms.CharField):
    """A date and time; without a zone it is read in ``zone`` (the master's own), or refused if none."""

    zone: dt.tzinfo | None = None

    def clean(self, value: Any) -> dt.datetime:
        text = super().clean(value)
        try:
            return deadline_parsed(text, self.zone)
        except GameError as exc:
            raise ValidationError(str(exc), code="invalid") from None


class ExtendForm(forms.Form):
    """The new deadline, typed in the game master's own time zone unless the text names one."""

    deadline = DeadlineField(
        help_text=f"The new deadline, later than now, with its time zone: {DEADLINE_EXAMPLE}"
    )

    def __init__(self, data: Any = None, *, zone: ZoneInfo | None = None) -> None:
        super().__init__(data)
        if zone is not None:
            field = cast(DeadlineField, self.fields["deadline"])  # declared so above
            field.zone = zone
            field.help_text = (
                f"The new deadline, later than now, e.g. 2026-03-04 18:00. A time without a zone is read "
                f"in your time zone, {zone.key}; a zone you write (Z for UTC, or an offset such as "
                f"+01:00) wins."
            )


class RevertForm(forms.Form):
    """The phase to reopen, chosen from the game's earlier phases; the page then asks to confirm."""

    index = forms.TypedChoiceField(
        coerce=int, label="Phase to reopen", help_text="It opens again; every later phase is deleted."
    )
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, data: Any, *, game: Game) -> None:
        super().__init__(data)
        current = game.current_phase.index if game.current_phase else -1
        index = cast(forms.TypedChoiceField, self.fields["index"])  # declared so above
        index.choices = [
            (p.index, f"{phase_label(game, p)} — phase {p.index}")
            for p in game.phases.filter(index__lt=current).order_by("-index")
        ]


def phase_label(game: Game, phase: Phase) -> str:
    return f"{phase.name} ({game_phase_title(game, phase.name)})"


class GameForm(forms.ModelForm):  # type: ignore[type-arg]
    """The last year checked as ``game_create`` does: cleared, a variant's default (Ice Lords) comes back."""

    class Meta:
        model = Game
        fields = "__all__"

    def clean_end_year(self) -> int | None:
        try:
            return end_year_checked(game_variant(self.instance), self.cleaned_data.get("end_year"))
        except GameError as exc:
            raise ValidationError(str(exc)) from exc


class ReplaceForm(forms.Form):
    username = forms.CharField(help_text="The player who takes over this seat.")
