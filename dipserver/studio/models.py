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
    base chain's included, as ``games.VariantArchive`` keeps them), its drawing, the draft's own tests,
    and the engine's version hash of the files. Only the publication marks ever change; a site admin may
    unpublish it (no new game may pin it) and the games that pinned it go on playing it."""

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
    # The draft's own tests as published ({"scenarios": [...]}): frozen with the files, never read by the
    # loader nor counted in the version hash, run on the version as on the draft.
    tests = models.JSONField(default=dict, blank=True)
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


class SvgImport(models.Model):
    """An SVG map given to a draft, read by a worker: reading its shapes and detecting their borders takes
    seconds, so the request only sanitises and bounds the upload, keeps it here and answers at once; the
    studio polls the job. One job per upload: the same ``key`` (the client's Idempotency-Key) or the same
    drawing for the same revision of the draft is the same job, never run twice."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Waiting for a worker"
        RUNNING = "running", "Being read"
        DONE = "done", "Read into the draft"
        FAILED = "failed", "Refused"

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    draft = models.ForeignKey(Draft, on_delete=models.CASCADE, related_name="svg_imports")
    key = models.CharField(
        max_length=255, blank=True, default="", help_text="The Idempotency-Key; empty: none."
    )
    digest = models.CharField(max_length=64, help_text="sha256 of the sanitised drawing and the revision.")
    revision = models.PositiveIntegerField(help_text="The draft's revision the upload was made on.")
    svg = models.TextField(help_text="The upload, sanitised.")
    dropped = models.JSONField(default=list, blank=True, help_text="What the sanitiser removed.")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    warnings = models.JSONField(default=list, blank=True)
    error = models.JSONField(null=True, blank=True, help_text="{code, message, provinces, problems}")
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True, help_text="Last handed to the broker.")
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["draft", "digest"], name="studio_svgimport_once"),
            models.UniqueConstraint(
                fields=["owner", "key"], condition=~models.Q(key=""), name="studio_svgimport_key_once"
            ),
        ]

    def __str__(self) -> str:
        return f"SVG import {self.id} of draft {self.draft_id}: {self.status}"
