"""Who plays and who runs games, and how each player wants to hear from the site."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone


def new_calendar_key() -> str:
    """A fresh random key for a user's deadlines feed (part of its signed address)."""
    return secrets.token_urlsafe(24)


class User(AbstractUser):
    """A login. Our own model from the start, so fields can be added later without swapping models.

    Game masters are staff members of the ``Game masters`` group; players are ordinary users.

    ``email`` is the confirmed address: the only one mail goes to and the one a password reset uses. A new
    address waits in ``email_pending`` until its owner follows the signed link mailed to it.
    """

    email_pending = models.EmailField(
        "address awaiting confirmation", blank=True, help_text="Becomes the email once its link is followed."
    )
    time_zone = models.CharField(
        max_length=64, default="UTC", help_text="Deadlines on the site and in mails are shown in it."
    )
    calendar_key = models.CharField(
        max_length=64,
        default=new_calendar_key,
        editable=False,
        help_text="Part of the deadlines feed's signed address; a new one makes the old address invalid.",
    )
    is_bot = models.BooleanField(
        "bot", default=False, help_text="A program playing through the API; named as a bot wherever it plays."
    )


class NotificationPreferences(models.Model):
    """Which mails a player gets. A player without a row gets the defaults below (everything on)."""

    class Press(models.TextChoices):
        EACH = "each", "Every message"
        DIGEST = "digest", "One mail a day with the press I have not read"
        OFF = "off", "No press mails"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preferences"
    )
    phase_processed = models.BooleanField("phase results", default=True)
    deadline_reminder = models.BooleanField("deadline reminders", default=True)
    reminder_hours = models.PositiveSmallIntegerField(
        "remind me this many hours before a deadline", default=24
    )
    press = models.CharField("press received", max_length=8, choices=Press.choices, default=Press.EACH)
    game_started = models.BooleanField("a game I joined starts", default=True)
    game_ended = models.BooleanField("a game I play ends", default=True)
    version_changed = models.BooleanField(
        "a game I play moves to a newer version of its variant", default=True
    )
    # How far the press digest got: when it last went, and the newest message it has covered.
    press_digest_at = models.DateTimeField(null=True, blank=True)
    press_digest_upto = models.PositiveBigIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "notification preferences"

    def __str__(self) -> str:
        return f"notification preferences of user {self.user_id}"


# The preferences a player sets (the account page's form and the settings API); the rest is bookkeeping.
PREFERENCE_FIELDS = (
    "phase_processed",
    "deadline_reminder",
    "reminder_hours",
    "press",
    "game_started",
    "game_ended",
    "version_changed",
)


class ApiToken(models.Model):
    """A personal API token (``Authorization: Token <secret>``). Only the SHA-256 of its secret is kept:
    the secret is shown once, when the token is made. A revoked token keeps its row, so using it is
    answered "revoked" rather than "unknown"."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100)
    key_hash = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the secret, in hex.")
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True, help_text="To the minute, not every request.")
    expires_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.user_id})"
