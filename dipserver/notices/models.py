"""The in-site inbox: one row per piece of news and player, across all their games, read or not."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Notification(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=250, unique=True, help_text="The event and the reader.")
    kind = models.CharField(max_length=20)
    title = models.CharField(max_length=300)
    text = models.TextField()
    url = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["user", "read_at"], name="notices_unread")]

    def __str__(self) -> str:
        return self.key
