"""Sandboxes: a player's private board for trying positions, a tree of steps.

A ``Sandbox`` pins what its positions are played with, as a game does (the variant's slug and version,
the options, a generated board's deal and a secret of its own for the random draws). Each ``Step`` is one
phase's position in the snapshot format of a game's phase (``dipserver/games/mappers.py``), with the
orders given for it and, once played, the results: a played step's child is the position that followed.
A step branched from another has the same parent and starts with a copy of its position and orders, so
any earlier position can be tried again differently without losing the first try. Nothing here counts in
a game: sandboxes have no players, ratings or mail.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q


class Sandbox(models.Model):
    class Source(models.TextChoices):
        VARIANT = "variant", "A variant's start"
        GAME = "game", "A game's phase"
        COPY = "copy", "A copy of a sandbox"
        DRAFT = "draft", "A studio draft's start"

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sandboxes")
    title = models.CharField(max_length=100)
    variant = models.CharField(max_length=50, help_text="Slug of the variant.")
    variant_version = models.CharField(max_length=64, help_text="Content hash pinned when created.")
    options = models.JSONField(default=dict, blank=True, help_text="As a game's: timeline and rule modules.")
    board = models.JSONField(default=dict, blank=True, help_text="What regenerates a generated board.")
    secret = models.CharField(max_length=64, help_text="The sandbox's own: never a running game's.")
    end_year = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Ends with no winner.")
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.VARIANT)
    # Where it came from, in words and ids: {"game": 12, "phase": 3, "name": "F1902M"} for a game's phase,
    # {"draft": 4, "slug": "isles", "revision": 9} for a studio draft (its drawing is pinned in board).
    origin = models.JSONField(default=dict, blank=True)
    share_token = models.CharField(max_length=64, blank=True, default="", help_text="Empty: not shared.")
    created_at = models.DateTimeField(auto_now_add=True)
    used_at = models.DateTimeField(db_index=True, help_text="Last opened or changed by its owner.")
    cleanup_noticed_at = models.DateTimeField(
        null=True, blank=True, help_text="When its owner was told it will be deleted unless opened."
    )

    class Meta:
        ordering = ["-used_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["share_token"], condition=~Q(share_token=""), name="sandbox_share_token_once"
            )
        ]

    # The fields a sandbox pins as a game does (``Game``'s fields of the same names).
    PINNED = ("variant", "variant_version", "options", "board", "secret", "end_year")

    def __str__(self) -> str:
        return self.title

    def pinned(self) -> dict[str, Any]:
        """What the sandbox pins of its game: its variant and version, options, board, secret, last year."""
        return {name: getattr(self, name) for name in self.PINNED}


class Step(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Taking orders"
        PLAYED = "played", "Played"

    sandbox = models.ForeignKey(Sandbox, on_delete=models.CASCADE, related_name="steps")
    number = models.PositiveIntegerField(help_text="0 for the first, then in the order they were made.")
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="children",
        help_text="The step played to reach this one (a branch: the same parent as the step it copies).",
    )  # fmt: skip
    branched_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    # The snapshot's phase, kept beside it so that the tree of steps is read without the snapshots.
    phase = models.CharField(max_length=8, editable=False, help_text="S1901M, F1901R, W1901A ...")
    snapshot = models.JSONField(help_text="The position, as a game's phase stores it.")
    orders = models.JSONField(default=dict, blank=True, help_text="power -> order texts given")
    results = models.JSONField(default=list, blank=True, help_text="Once played: one record per order.")
    events = models.JSONField(default=list, blank=True, help_text="Map changes after it.")
    skipped = models.JSONField(default=list, blank=True)
    outcome = models.JSONField(default=dict, blank=True, help_text="The game's end, if this play ended it.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["sandbox", "number"]
        constraints = [
            models.UniqueConstraint(fields=["sandbox", "number"], name="sandbox_step_unique_number")
        ]

    # What a step holds of its phase, as ``Phase``'s fields of the same names.
    PHASE_FIELDS = ("snapshot", "orders", "results", "events", "skipped")

    def __str__(self) -> str:
        return f"{self.sandbox_id}#{self.number} {self.phase}"

    def phase_fields(self) -> dict[str, Any]:
        """The position, the orders given and what they did, as a game's phase stores them."""
        return {name: getattr(self, name) for name in self.PHASE_FIELDS}

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save, with ``phase`` read from the snapshot (also when only the snapshot is saved)."""
        self.phase = self.snapshot["phase"]
        fields = kwargs.get("update_fields")
        if fields is not None and "snapshot" in fields:
            kwargs["update_fields"] = {*fields, "phase"}
        super().save(*args, **kwargs)
