"""Ratings: one per player and variant family, and each game's change to it (docs/ratings.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from dipserver.games.models import Game

# openskill's defaults: a newcomer's skill is 25 give or take 25/3, so their rating (mu - 3 sigma) is 0.
MU = 25.0
SIGMA = MU / 3


class Rating(models.Model):
    """A player's skill in one family of variants (a variant and those built on it) as openskill's
    Plackett-Luce model estimates it: ``mu`` give or take ``sigma``. Shown as ``mu - 3 sigma``."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    family = models.CharField(max_length=50, help_text="The slug of the variant the family is built on.")
    mu = models.FloatField(default=MU)
    sigma = models.FloatField(default=SIGMA)
    games = models.PositiveIntegerField(default=0, help_text="Rated games that changed it.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["family", "-mu"]
        constraints = [models.UniqueConstraint(fields=["user", "family"], name="players_rating_once")]
        indexes = [models.Index(fields=["family", "games"], name="players_rating_board")]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.family}: {self.value:.1f}"

    @property
    def value(self) -> float:
        """The rating shown: the skill less three times its uncertainty (0 for a newcomer)."""
        return self.mu - 3 * self.sigma


class RatingChange(models.Model):
    """What one ended game did to one player's rating: written once, so a game is rated once."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    family = models.CharField(max_length=50)
    rank = models.PositiveSmallIntegerField(help_text="1: first; players sharing a place share a rank.")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="players_ratingchange_once")]

    def __str__(self) -> str:
        return f"game {self.game_id}, user {self.user_id}: rank {self.rank}"

    @property
    def change(self) -> float:
        return (self.mu_after - 3 * self.sigma_after) - (self.mu_before - 3 * self.sigma_before)
