"""Webhooks (an address that hears a player's or a game's news as JSON) and the log of each delivery.

A delivery's ``key`` (the event, the reader and the webhook) is unique, so an event announced twice finds
its delivery already there. A try claims the delivery first (``lease``, ``lease_until``: in flight, and
until when), so a second run of it while it is being sent sends nothing, and a crashed worker's claim
runs out and the delivery is tried again (``deliveries``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Webhook(models.Model):
    class View(models.TextChoices):
        PLAYER = "player", "What the owner's seat hears"
        GAME = "game", "What anyone without a seat may know (a game master's hook)"

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks")
    game = models.ForeignKey(
        "games.Game",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        help_text="Empty: every game the owner plays.",
    )
    view = models.CharField(max_length=8, choices=View.choices, default=View.PLAYER)
    name = models.CharField(max_length=100, blank=True)
    url = models.URLField(max_length=2000)
    # Kept as it is (every delivery is signed with it); shown to the owner once, when the hook is made.
    secret = models.CharField(max_length=100)
    kinds = models.JSONField(default=list, blank=True, help_text="Kinds of news; empty: every kind.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"webhook {self.id} of user {self.owner_id}"


class Delivery(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Waiting or retrying"
        DELIVERED = "delivered", "Delivered"
        FAILED = "failed", "Given up"

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    key = models.CharField(max_length=250, unique=True, help_text="The event, the reader and the webhook.")
    kind = models.CharField(max_length=20)
    payload = models.JSONField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    response_code = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    # When the next try is due (a retry's back-off ended, the sweep queued it again, or the lease of a try
    # that recorded nothing runs out); None: not tried.
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    # The try in flight: its token, and when its claim runs out (the deadline and a margin). Empty: none.
    lease = models.CharField(max_length=32, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        verbose_name_plural = "deliveries"

    def __str__(self) -> str:
        return self.key
