"""The create-a-game form: the settings a player picks, checked again by the games service.

Besides the settings every game has, the form offers each choice that matters for some variant
(``games.choices``: the variant's own options, random mode where its timeline has chances, the rule
modules, a generated board's powers and seed), one field per choice name. Each field says which variants
it is for (``option_rows``); the page shows only the chosen variant's (``static/js/create.js``), and the
form reads only those: a choice that has no effect on the chosen variant is never sent to the game.
"""

from __future__ import annotations

import json
import zoneinfo
from typing import Any, cast

from django import forms

from dipserver.games.choices import COUNT, FLAG, MODE, Choice, variant_choices
from dipserver.games.models import Game
from dipserver.games.variants import studio_variant
from dipserver.web.variants import studio_version_id

MAX_PHASE_MINUTES = 60 * 24 * 60  # the API's limit: sixty days
MODES = [("exact", "On the dates in the rules"), ("random", "In a random year within each window")]


def _minutes(label: str, initial: int) -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=1, max_value=MAX_PHASE_MINUTES, initial=initial)


def _field(choice: Choice) -> forms.Field:
    """The form field of one choice; empty or unticked is allowed (the variant's default, or off)."""
    help_text = choice.explanation
    if choice.kind == FLAG:
        return forms.BooleanField(label=choice.label, required=False, help_text=help_text)
    if choice.kind == MODE:
        return forms.ChoiceField(label=choice.label, choices=MODES, required=False, help_text=help_text)
    if choice.kind == COUNT:
        return forms.IntegerField(
            label=choice.label, required=False, help_text=help_text,
            min_value=choice.minimum, max_value=choice.maximum,
        )  # fmt: skip
    return forms.CharField(label=choice.label, required=False, max_length=100, help_text=help_text)


def _or(value: int | None, default: int) -> int:
    """A number left empty is the default (0 stays 0)."""
    return default if value is None else value


def _choices_of(slug: str) -> tuple[Choice, ...]:
    """The choices of an installed variant, or of a studio version (``studio:<id>``)."""
    version_id = studio_version_id(slug)
    if version_id is None:
        return variant_choices(slug)
    variant = studio_variant(version_id)
    return variant_choices(variant.slug, variant)


class GameCreateForm(forms.Form):
    name = forms.CharField(max_length=100)
    variant = forms.ChoiceField()
    press = forms.ChoiceField(choices=Game.Press.choices, initial=Game.Press.FULL)
    movement_minutes = _minutes("Minutes for orders", 1440)
    retreat_minutes = _minutes("Minutes for retreats", 720)
    adjustment_minutes = _minutes("Minutes for builds", 720)
    deadline_zone = forms.CharField(label="Time zone", max_length=64, initial="UTC")
    end_year = forms.IntegerField(label="Last year (optional)", min_value=1, max_value=9999, required=False)
    password = forms.CharField(
        label="Password to join (optional)", max_length=128, required=False, widget=forms.PasswordInput
    )
    missed_limit = forms.IntegerField(
        label="Civil disorder after this many missed phases in a row",
        min_value=1, max_value=100, initial=2, required=False,
        help_text="A power in civil disorder is offered to a replacement player in the lobby.",
    )  # fmt: skip
    min_reliability = forms.IntegerField(
        label="Minimum reliability to join (%)", min_value=0, max_value=100, initial=0, required=False,
        help_text="The share of their phases due a player has given orders in; 0 lets anyone join, and a "
        "newcomer with no phase due yet joins any game.",
    )  # fmt: skip
    min_rating = forms.FloatField(
        label="Minimum rating to join (optional)", min_value=-1000, max_value=1000, required=False,
        help_text="In the variant's family, as the leaderboard shows it; a newcomer's rating is 0.",
    )  # fmt: skip
    replacement_approval = forms.BooleanField(
        label="I approve replacement players", required=False,
        help_text="Left unticked, anyone meeting the minimums takes an open seat at once.",
    )  # fmt: skip
    replacement_grace_minutes = forms.IntegerField(
        label="Minutes a replacement has at least before the deadline", min_value=0, max_value=60 * 24 * 14,
        initial=1440, required=False,
    )  # fmt: skip
    bots_fill_seats = forms.BooleanField(
        label="Fill empty seats with bots", required=False,
        help_text="You may start the game before it is full, the site's bots in the empty seats; a game "
        "with bots is unrated.",
    )  # fmt: skip
    bots_play_disorder = forms.BooleanField(
        label="A bot plays a power in civil disorder", required=False,
        help_text="Until a person takes the seat, its units follow a bot's orders instead of holding.",
    )  # fmt: skip
    rated = forms.ChoiceField(
        label="Rated", required=False, initial="yes",
        choices=[("yes", "Rated: its ending changes the players' ratings"), ("no", "Unrated")],
    )  # fmt: skip

    def __init__(self, *args: Any, variants: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["variant"]).choices = variants  # declared so above
        self.variant_names = dict(variants)
        self.choices = {slug: _choices_of(slug) for slug, _ in variants}
        self.settings_names = list(self.fields)
        offered: dict[str, tuple[Choice, list[str]]] = {}
        everything = [(c, slug) for slug, cs in self.choices.items() for c in cs]
        for choice, slug in sorted(everything, key=lambda pair: pair[0].group):
            offered.setdefault(choice.name, (choice, []))[1].append(slug)
        self.offered = offered
        chosen = str(self.initial.get("variant", ""))
        for name, (choice, _) in offered.items():
            self.fields[name] = _field(choice)
            mine = next((c for c in self.choices.get(chosen, ()) if c.name == name), None)
            if mine is not None and mine.kind != COUNT:
                self.fields[name].initial = mine.default

    def settings_fields(self) -> list[forms.BoundField]:
        """The settings every game has, in order."""
        return [self[name] for name in self.settings_names]

    def option_rows(self) -> list[dict[str, Any]]:
        """Each choice's field with the variants it is for and its default in each (for create.js)."""
        rows = []
        for name, (_, slugs) in self.offered.items():
            defaults = {s: c.default for s in slugs for c in self.choices[s] if c.name == name}
            rows.append({"field": self[name], "variants": " ".join(slugs), "defaults": json.dumps(defaults)})
        return rows

    def shown(self) -> set[str]:
        """The options whose fields the page showed and sent (each row sends ``shown=<name>``): an unticked
        box counts as off only then; a post without it (a script) leaves the variant's default."""
        getlist = getattr(self.data, "getlist", None)
        return set(getlist("shown")) if getlist else set()

    def clean_deadline_zone(self) -> str:
        zone: str = self.cleaned_data["deadline_zone"].strip()
        if zone not in zoneinfo.available_timezones():
            raise forms.ValidationError(f"Unknown time zone {zone!r}; use a name such as Europe/Paris.")
        return zone

    def clean(self) -> dict[str, Any]:
        # cast: Form.clean() returns cleaned_data; the stubs allow None for overrides that return nothing.
        data = cast(dict[str, Any], super().clean())
        chosen = {c.name for c in self.choices.get(data.get("variant", ""), ())}
        for name, (choice, slugs) in self.offered.items():
            given = data.get(name)
            if choice.board and name not in chosen and given not in (None, ""):
                names = " and ".join(self.variant_names[s] for s in slugs)
                self.add_error(name, f"Only {names} {choice.refusal}")
        return data

    def game_settings(self) -> dict[str, Any]:
        """The keyword arguments of ``game_create`` (without who creates it)."""
        data = self.cleaned_data
        options: dict[str, Any] = {}
        board: dict[str, Any] = {}
        for choice in self.choices[data["variant"]]:
            value = data.get(choice.name)
            if value in (None, "") or (choice.kind == FLAG and choice.name not in self.shown()):
                value = choice.default  # empty, not picked, or a box the page did not show: the default
            (board if choice.board else options)[choice.name] = value
        studio = studio_version_id(data["variant"])
        return {
            "name": data["name"],
            "variant": data["variant"] if studio is None else "",
            "studio_version": studio,
            "press": data["press"],
            "options": options,
            "phase_minutes": {
                "M": data["movement_minutes"],
                "R": data["retreat_minutes"],
                "A": data["adjustment_minutes"],
            },
            "deadline_zone": data["deadline_zone"],
            "end_year": data["end_year"],
            "join_password": data["password"],
            "missed_limit": data.get("missed_limit") or 2,  # left empty: the usual two
            "min_reliability": data.get("min_reliability") or 0,
            "min_rating": data.get("min_rating"),
            "rated": data.get("rated") != "no",
            "replacement_approval": bool(data.get("replacement_approval")),
            "bots_fill_seats": bool(data.get("bots_fill_seats")),
            "bots_play_disorder": bool(data.get("bots_play_disorder")),
            "replacement_grace_minutes": _or(data.get("replacement_grace_minutes"), 1440),
            **board,
        }


class SandboxCreateForm(GameCreateForm):
    """A sandbox at a variant's start: the variant and its options as a new game takes them (the same
    choices, shown by the same script), a title, and the secret random draws are made from."""

    title = forms.CharField(max_length=100, required=False, label="Title (optional)")
    secret = forms.CharField(
        max_length=64, required=False, strip=False, label="Secret for random draws (optional)",
        help_text="The same secret gives the same random years and blizzards; empty: a fresh one.",
    )  # fmt: skip

    GAME_ONLY = ("name", "press", "movement_minutes", "retreat_minutes", "adjustment_minutes",
                 "deadline_zone", "end_year", "password")  # fmt: skip

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in self.GAME_ONLY:
            del self.fields[name]
        self.settings_names = ["title", "variant", "secret"]

    def sandbox_settings(self) -> dict[str, Any]:
        """The keyword arguments of ``sandbox_from_variant`` (without its owner)."""
        data = self.cleaned_data
        options: dict[str, Any] = {}
        board: dict[str, Any] = {}
        for choice in self.choices[data["variant"]]:
            value = data.get(choice.name)
            if value in (None, "") or (choice.kind == FLAG and choice.name not in self.shown()):
                value = choice.default
            (board if choice.board else options)[choice.name] = value
        return {
            "slug": data["variant"],
            "title": data["title"],
            "options": options,
            "secret": data["secret"] or None,
            **board,
        }
