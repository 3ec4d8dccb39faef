"""The outbox: one row per logical mail (an event and its recipient), written before anything is sent.

The row's ``key`` is unique, so an event that is announced twice (a retried or redelivered task) finds
its mail already there and queues nothing. Each attempt is written down before anything is sent
(``stage``, ``lease_until``), so a delivery that runs twice sends once, and a mail the server may have
taken is never sent blindly again (``delivery``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Mail(models.Model):
    class Kind(models.TextChoices):
        PHASE_PROCESSED = "phase_processed", "Phase results"
        DEADLINE_REMINDER = "deadline_reminder", "Deadline reminder"
        PRESS = "press", "Press received"
        GAME_STARTED = "game_started", "Game started"
        GAME_ENDED = "game_ended", "Game ended"
        VERSION_CHANGED = "version_changed", "Variant version changed"
        ACCOUNT = "account", "Account (confirmation, password reset)"

    key = models.CharField(max_length=200, unique=True, help_text="The event and the recipient.")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    to = models.EmailField()
    subject = models.CharField(max_length=300)
    body = models.TextField()
    headers = models.JSONField(default=dict, blank=True)
    picture = models.CharField(
        max_length=100,
        blank=True,
        help_text="What is drawn into the mail when it is sent (e.g. phase:12); the picture is not kept.",
    )
    deadline = models.DateTimeField(
        null=True,
        blank=True,
        help_text="The deadline the mail is about (a reminder): never sent after it, and its subject's "
        "time left is counted when it is sent.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(help_text="When the sweep may queue it again if still unsent.")
    last_error = models.TextField(blank=True)
    # The attempt in flight, written before sending: "sending" (the server has not been given the message)
    # or "data" (it is being given it, and may have it); empty: none. The attempt's claim runs out then.
    stage = models.CharField(max_length=8, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    # Sent without the server's confirmation: it took the message but answered late (or the attempt died
    # while giving it). Counted as sent and never sent again (a copy is worse than a rare loss).
    unconfirmed = models.BooleanField(default=False)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["sent_at", "next_attempt_at"], name="mail_mail_due")]

    def __str__(self) -> str:
        return f"{self.key} -> {self.to}"
