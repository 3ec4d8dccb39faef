"""Drafts (a game master's variant being written, private) and versions (frozen copies games pin)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models


class Draft(models.Model):
    """A variant being written: ``data`` is its files as tables, ``{"variant": {...}, "map": {...},
    "start": {...}, "timeline": {...}}`` in the shape of ``variants/<slug>/<name>.toml`` (``map`` and
    ``start`` may be left out when ``variant.base`` names an installed variant). ``geometry`` is its drawing
    in the geometry.json shape (``None``: its base's), ``svg`` the sanitised drawing it was imported from.
    Saved as it is edited; ``revision`` counts the saves so a stale tab cannot overwrite a newer one."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="drafts")
    slug = models.SlugField(max_length=40)
    data = models.JSONField(default=dict)
    geometry = models.JSONField(null=True, blank=True)
    svg = models.TextField(blank=True, default="")
    revision = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "id"]
        constraints = [models.UniqueConstraint(fields=["owner", "slug"], name="studio_draft_owner_slug")]

    def __str__(self) -> str:
        return f"draft {self.slug} of {self.owner_id}"


class VariantVersion(models.Model):
    """One published version of a studio variant, frozen: its files (``{"<slug>/<file>.toml": text}``, its
    base chain's included, as ``games.VariantArchive`` keeps them), its drawing, and the engine's version
    hash of those files. Only the publication marks ever change; a site admin may unpublish it (no new
    game may pin it) and the games that pinned it go on playing it."""

    MUTABLE_FIELDS = frozenset({"published", "unpublished_at", "unpublished_by"})

    slug = models.SlugField(max_length=40)
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=200)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    draft = models.ForeignKey(
        Draft, on_delete=models.SET_NULL, null=True, blank=True, related_name="versions"
    )
    files = models.JSONField()
    geometry = models.JSONField(null=True, blank=True)
    svg = models.TextField(blank=True, default="")
    version = models.CharField(max_length=64, db_index=True)
    published = models.BooleanField(default=True)
    published_at = models.DateTimeField(auto_now_add=True)
    unpublished_at = models.DateTimeField(null=True, blank=True)
    unpublished_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["slug", "-number"]
        constraints = [models.UniqueConstraint(fields=["slug", "number"], name="studio_version_slug_number")]

    def __str__(self) -> str:
        return f"{self.slug} v{self.number}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """A saved version changes only its publication marks (``update_fields`` must say which)."""
        fields = kwargs.get("update_fields")
        if self.pk is not None and (fields is None or not set(fields) <= self.MUTABLE_FIELDS):
            raise ValueError("a published variant version is frozen: only its publication marks change")
        super().save(*args, **kwargs)
