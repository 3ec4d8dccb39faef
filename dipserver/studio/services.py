"""Writes of the studio: drafts created, saved as edited, given an SVG map, deleted; versions published
from a checked draft and unpublished by site admins; packages imported. Only game masters author; a draft
is its owner's alone. Row locks: the draft first, then the versions of its slug (one order everywhere)."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from dipserver.engine import VariantError, load_variant, variant_slugs
from dipserver.studio.borders import imported
from dipserver.studio.checking import Report
from dipserver.studio.drawing import CleanSvg, sanitised
from dipserver.studio.errors import StudioError
from dipserver.studio.models import Draft, VariantVersion
from dipserver.studio.package import SLUG_PATTERN, TESTS, Package, package_read, tables_of
from dipserver.studio.selectors import draft_of, draft_report, is_game_master, is_site_admin, version_of

MAX_DATA_BYTES = 1_000_000  # a draft's tables as JSON
MAX_DRAFTS = 50  # a game master's drafts at once


def draft_create(*, user: Any, slug: str, name: str, start_from: str | None = None) -> Draft:
    """A new draft: blank, or extending installed variant ``start_from`` (its map, its drawing)."""
    _master_required(user)
    _slug_checked(slug, user)
    if not name.strip() or len(name) > 100:
        raise StudioError("A variant's name is 1 to 100 characters", code="invalid_data")
    if start_from is None:
        data: dict[str, Any] = {
            "variant": {"name": name, "start_phase": "S1901M", "victory": {"centres": 1}, "powers": {}},
            "map": {"provinces": {}},
            "start": {"units": {}},
        }
    else:
        if start_from not in variant_slugs():
            raise StudioError(f"There is no installed variant {start_from!r}", code="unknown_variant")
        try:
            load_variant(start_from)
        except VariantError:  # a generated board has no folder to extend
            raise StudioError(f"{start_from!r} has no map to start from", code="unknown_variant") from None
        data = {"variant": {"base": start_from, "name": name}}
    return _draft_new(user, slug, data, None, "")


def draft_import(*, user: Any, raw: bytes) -> Draft:
    """A new draft from a package (``package.package_read``), as exported or as ``variants/<slug>/``."""
    _master_required(user)
    package = package_read(raw)
    _slug_checked(package.slug, user)
    _data_checked(package.data)
    svg = sanitised(package.svg.encode()).text if package.svg else ""
    return _draft_new(user, package.slug, package.data, package.geometry, svg)


def draft_from_version(*, user: Any, version_id: int, slug: str) -> Draft:
    """A new draft from a published version's files and drawing: its next version, or a variant of it."""
    _master_required(user)
    version = version_of(user, version_id)
    _slug_checked(slug, user)
    data = tables_of(version.slug, version.files)
    data.setdefault("variant", {})["name"] = data.get("variant", {}).get("name", version.name)
    if version.tests:  # the tests published with the version go on with the draft that follows it
        data[TESTS] = copy.deepcopy(version.tests)
    return _draft_new(user, slug, data, version.geometry, version.svg)


def draft_save(*, user: Any, draft_id: int, data: dict[str, Any], revision: int) -> Draft:
    """Save the draft's tables as edited. ``revision`` is the one the editor loaded: a save from an older
    tab (another tab saved since) is refused with ``stale_revision`` and changes nothing."""
    _master_required(user)
    _data_checked(data)
    with transaction.atomic():
        draft = _draft_locked(user, draft_id, revision)
        draft.data = data
        draft.revision += 1
        draft.save(update_fields=["data", "revision", "updated_at"])
    return draft


def draft_svg_import(*, user: Any, draft_id: int, svg: bytes, revision: int) -> tuple[Draft, tuple[str, ...]]:
    """Give the draft the map drawn in an SVG file, there and then (``imports`` hands it to a worker)."""
    _master_required(user)
    return draft_drawing_apply(user=user, draft_id=draft_id, clean=sanitised(svg), revision=revision)


def draft_svg_checked(*, user: Any, draft_id: int, revision: int) -> Draft:
    """What an SVG map for the draft is refused for at once: not its author's game master, no such draft
    of theirs, a stale revision, a draft that extends an installed variant (which draws its map)."""
    _master_required(user)
    draft = draft_of(user, draft_id)
    if draft.revision != revision:
        raise StudioError(
            f"The draft was saved since (revision {draft.revision}, not {revision}): load it again",
            code="stale_revision",
        )
    _drawable(draft)
    return draft


def draft_drawing_apply(
    *, user: Any, draft_id: int, clean: CleanSvg, revision: int
) -> tuple[Draft, tuple[str, ...]]:
    """Give the draft the map drawn in a sanitised SVG: its province shapes read, their borders detected
    (seconds: outside the transaction). Provinces already written keep their centres, homes, coasts and
    names; provinces the drawing lacks are removed. Answers the draft and warnings (what the sanitiser
    dropped, shapes left as scenery, provinces removed)."""
    drawn = imported(clean.text)
    with transaction.atomic():
        draft = _draft_locked(user, draft_id, revision)
        _drawable(draft)
        old = draft.data.get("map", {}).get("provinces", {})
        provinces = {code: {**old.get(code, {}), **spec} for code, spec in drawn.provinces.items()}
        for code, spec in provinces.items():
            if code in old:  # the game master's name and terrain stand; the drawing decides the borders
                spec["name"], spec["terrain"] = (
                    old[code].get("name", spec["name"]),
                    old[code].get("terrain", spec["terrain"]),
                )
        removed = sorted(set(old) - set(provinces))
        draft.data = {**draft.data, "map": {**draft.data.get("map", {}), "provinces": provinces}}
        draft.geometry, draft.svg, draft.revision = drawn.geometry, clean.text, draft.revision + 1
        draft.save(update_fields=["data", "geometry", "svg", "revision", "updated_at"])
    warnings = (
        *(f"removed from the upload: {what}" for what in clean.dropped),
        *drawn.warnings,
        *(f"province {code} is not in the drawing: removed" for code in removed),
    )
    return draft, warnings


def _drawable(draft: Draft) -> None:
    if draft.data.get("variant", {}).get("base"):
        raise StudioError(
            "A draft extending an installed variant draws its map; start a blank draft for an SVG map",
            code="has_base",
        )


def draft_delete(*, user: Any, draft_id: int) -> None:
    """Delete a draft; the versions published from it stay (games play them)."""
    draft_of(user, draft_id).delete()


def version_publish(*, user: Any, draft_id: int, revision: int) -> VariantVersion:
    """Freeze the draft as the next version of its slug, its own tests with it: only a draft whose check
    (its tests run) finds no problem, only by a game master, and only under a slug no installed variant
    and no other author has. The same files, drawing and tests as the last version are refused."""
    _master_required(user)
    draft = draft_of(user, draft_id)
    report = draft_clean(draft, "publishing")  # outside the transaction: checking walks the timeline
    with transaction.atomic():
        draft = _draft_locked(user, draft_id, revision)
        earlier = list(VariantVersion.objects.select_for_update().filter(slug=draft.slug).order_by("-number"))
        if any(v.author_id != user.id for v in earlier):
            raise StudioError(
                f"The slug {draft.slug!r} belongs to another author's variant", code="slug_taken"
            )
        tests = draft.data.get(TESTS) if draft.data.get(TESTS, {}).get("scenarios") else {}
        last = earlier[0] if earlier else None
        if last and (last.version, last.geometry, last.tests) == (report.version, draft.geometry, tests):
            raise StudioError(
                f"Version {last.number} of {draft.slug} is already these files and tests", code="unchanged"
            )
        try:
            return VariantVersion.objects.create(
                slug=draft.slug,
                number=last.number + 1 if last else 1,
                name=str(draft.data.get("variant", {}).get("name", draft.slug)),
                author=user,
                draft=draft,
                files=report.files,
                geometry=draft.geometry,
                svg=draft.svg,
                tests=tests,
                version=report.version or "",
            )
        except IntegrityError:  # the same slug published at this very moment by another request
            raise StudioError(
                "Another version was published at the same time; try again", code="conflict"
            ) from None


def draft_clean(draft: Draft, doing: str) -> Report:
    """The draft's check when it finds no problem; ``check_failed`` with each problem otherwise (before
    ``doing`` anything with it: publishing it, trying it in a sandbox)."""
    report = draft_report(draft)
    if not report.ok or report.version is None:
        raise StudioError(
            f"The draft has {len(report.problems)} problem(s); fix them before {doing}",
            code="check_failed",
            problems=tuple(p.as_data() for p in report.problems),
        )
    return report


def version_unpublish(*, user: Any, version_id: int) -> VariantVersion:
    """A site admin takes a version off the list: no new game may pin it; games that did play on."""
    if not is_site_admin(user):
        raise StudioError("Only site admins unpublish a variant", code="not_site_admin")
    with transaction.atomic():
        version = VariantVersion.objects.select_for_update().filter(id=version_id).first()
        if version is None:
            raise StudioError(f"There is no variant version {version_id}", code="not_found")
        if not version.published:
            raise StudioError(f"{version} is not published", code="not_published")
        version.published, version.unpublished_at, version.unpublished_by = False, timezone.now(), user
        version.save(update_fields=["published", "unpublished_at", "unpublished_by"])
    return version


def package_of_draft(draft: Draft) -> Package:
    return Package(draft.slug, draft.data, draft.geometry, draft.svg)


def package_of_version(version: VariantVersion) -> Package:
    data = tables_of(version.slug, version.files)
    if version.tests:
        data[TESTS] = version.tests
    return Package(version.slug, data, version.geometry, version.svg)


# --- helpers -------------------------------------------------------------------------------------------


def _draft_new(
    user: Any, slug: str, data: dict[str, Any], geometry: dict[str, Any] | None, svg: str
) -> Draft:
    if Draft.objects.filter(owner=user).count() >= MAX_DRAFTS:
        raise StudioError(f"You have {MAX_DRAFTS} drafts: delete one first", code="too_many_drafts")
    try:
        with transaction.atomic():
            return Draft.objects.create(owner=user, slug=slug, data=data, geometry=geometry, svg=svg)
    except IntegrityError:
        raise StudioError(f"You already have a draft {slug!r}", code="slug_taken") from None


def _draft_locked(user: Any, draft_id: int, revision: int) -> Draft:
    draft = Draft.objects.select_for_update().filter(id=draft_id, owner=user).first()
    if draft is None:
        raise StudioError(f"You have no draft {draft_id}", code="not_found")
    if draft.revision != revision:
        raise StudioError(
            f"The draft was saved since (revision {draft.revision}, not {revision}): load it again",
            code="stale_revision",
        )
    return draft


def _master_required(user: Any) -> None:
    if not is_game_master(user):
        raise StudioError("Only game masters author variants", code="not_game_master")


def _slug_checked(slug: str, user: Any) -> None:
    if not re.fullmatch(SLUG_PATTERN, slug):
        raise StudioError("A slug is 1 to 40 lower-case letters, digits, '-' and '_'", code="invalid_data")
    if slug in variant_slugs():
        raise StudioError(f"{slug!r} is an installed variant's slug", code="slug_taken")
    if VariantVersion.objects.filter(slug=slug).exclude(author=user).exists():
        raise StudioError(f"The slug {slug!r} belongs to another author's variant", code="slug_taken")


def _data_checked(data: Any) -> None:
    if not isinstance(data, dict):
        raise StudioError("A draft's data is a table of its files", code="invalid_data")
    if len(json.dumps(data)) > MAX_DATA_BYTES:
        raise StudioError(f"A draft's data is at most {MAX_DATA_BYTES} bytes of JSON", code="too_large")
