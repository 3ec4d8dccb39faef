"""Reads of the studio: a game master's drafts (private: anyone else is told there is no such draft),
published versions (everyone) and their tests run, and a draft's check."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from dipserver.accounts.roles import GAME_MASTERS_GROUP
from dipserver.engine import load_variant_from_sources
from dipserver.studio.checking import Report, report_of
from dipserver.studio.errors import StudioError
from dipserver.studio.models import Draft, VariantVersion
from dipserver.studio.package import TESTS
from dipserver.studio.scenarios import draft_scenarios, results_of


def is_game_master(user: Any) -> bool:
    """Game masters (the group) and superusers author and publish variants."""
    if not (user and user.is_authenticated and user.is_active):
        return False
    return bool(user.is_superuser or user.groups.filter(name=GAME_MASTERS_GROUP).exists())


def is_site_admin(user: Any) -> bool:
    return bool(user and user.is_authenticated and user.is_active and user.is_staff)


def drafts_of(user: Any) -> QuerySet[Draft]:
    return Draft.objects.filter(owner=user).order_by("-updated_at", "id")


def draft_of(user: Any, draft_id: int) -> Draft:
    """The caller's own draft; another's is as missing as one that does not exist (drafts are private)."""
    draft = Draft.objects.filter(id=draft_id, owner=user).first() if user.is_authenticated else None
    if draft is None:
        raise StudioError(f"You have no draft {draft_id}", code="not_found")
    return draft


def draft_report(draft: Draft) -> Report:
    return report_of(draft.slug, draft.data, draft.geometry)


def versions_visible(user: Any) -> QuerySet[VariantVersion]:
    """Published versions; an unpublished one still shows to its author and to site admins."""
    versions = VariantVersion.objects.select_related("author").order_by("slug", "-number")
    if is_site_admin(user):
        return versions
    if user is not None and user.is_authenticated:
        return versions.filter(published=True) | versions.filter(author=user)
    return versions.filter(published=True)


def version_of(user: Any, version_id: int) -> VariantVersion:
    version = versions_visible(user).filter(id=version_id).first()
    if version is None:
        raise StudioError(f"There is no published variant version {version_id}", code="not_found")
    return version


def version_tests(version: VariantVersion) -> list[dict[str, Any]]:
    """The tests published with a version, run on its frozen files: each ``{"name", "passed",
    "failures"}``, in the order the draft listed them; ``check_failed`` when this server's engine no
    longer loads the files (they loaded when the version was published)."""
    cases = draft_scenarios({TESTS: version.tests}) if version.tests else ()
    try:
        variant = load_variant_from_sources(version.slug, version.files)
    except ValueError as exc:  # VariantError: the engine reads the files differently now
        raise StudioError(
            f"{version} no longer loads on this server, so its tests cannot run: {exc}", code="check_failed"
        ) from None
    return results_of(variant, cases)


def version_published(slug: str) -> VariantVersion | None:
    """The newest published version of studio variant ``slug``: what a new game pins."""
    return VariantVersion.objects.filter(slug=slug, published=True).order_by("-number").first()
