"""Variant pages: the rules in plain words and the map season by season, drawn by the renderer."""

from __future__ import annotations

import functools
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from dipserver.core.content_security import styles_allowed, stylesheets_of
from dipserver.engine import HOOK_WORDS, TimelineError, Variant, VariantError, event_text, walk
from dipserver.games.errors import GameError
from dipserver.games.variants import (
    generated_powers,
    playable_slugs,
    sample_geometry,
    sample_variant,
    source_of,
    studio_variant,
    studio_version_published,
    studio_versions_published,
)
from dipserver.render import GeometryError, render_svg
from dipserver.web.rules import plain_words_html

# What the map itself does; the walk also reports what happens to the start units standing still, which
# says nothing about the variant (a real game's units will be elsewhere).
MAP_EVENTS = ("terrain", "coasts", "centre_lost", "centre_gained")


def variant_choices() -> list[tuple[str, str]]:
    """(slug, name) of every variant that loads, for the create form."""
    return [(slug, facts["name"]) for slug in _slugs() if (facts := variant_facts(slug))]


STUDIO = "studio:"  # the create form's value for a studio version: "studio:<version id>"


def studio_choices() -> list[tuple[str, str]]:
    """(``studio:<id>``, name) of the newest published version of each studio variant, for the create form."""
    return [
        (f"{STUDIO}{v.id}", f"{v.name} (studio, version {v.number})") for v in studio_versions_published()
    ]


def studio_version_id(choice: str) -> int | None:
    """The version id a create form's variant value names, or None for an installed variant."""
    return int(choice.removeprefix(STUDIO)) if choice.startswith(STUDIO) else None


def studio_facts(choice: str) -> dict[str, Any] | None:
    """What the create form says about a studio version (as ``variant_facts``); None if it does not load."""
    version_id = studio_version_id(choice)
    try:
        version = studio_version_published(version_id or 0)
        variant = studio_variant(version.id)
        seasons = _seasons(variant)
    except (VariantError, TimelineError, GameError):
        return None
    return {
        "slug": None,  # no rules page: a studio variant's is its files
        "studio": f"Made in the variant studio by {version.author.username}: version {version.number}.",
        "name": variant.name,
        "description": variant.description,
        "powers": [{"name": key, "display": p.name, "colour": p.colour} for key, p in variant.powers.items()],
        "victory_centres": variant.victory_centres,
        "start_phase": str(variant.start.phase),
        "seasons": seasons,
        "generated": False,
    }


def _slugs() -> list[str]:
    return playable_slugs()


@functools.lru_cache(maxsize=16)
def variant_facts(slug: str) -> dict[str, Any] | None:
    """What the pages say about a variant: names, colours, rules in plain words, the seasons' changes.

    None when the folder does not hold a loadable variant. Cached: variants are data read at start-up.
    A generated board (Ice Lords) is described by its sample deal, its map drawn from that deal.
    """
    try:
        variant = sample_variant(slug)
        seasons = _seasons(variant)
    except (VariantError, TimelineError, FileNotFoundError, GameError):
        return None
    generated = sample_geometry(slug) is not None
    description = variant.description
    if generated:
        low, high = generated_powers(source_of(slug))
        description = (
            f"A {variant.name} board dealt afresh for each game, for {low} to {high} powers. "
            f"The map shown is one deal: {description}"
        )
    return {
        "slug": variant.slug,
        "name": variant.name,
        "description": description,
        "powers": [{"name": key, "display": p.name, "colour": p.colour} for key, p in variant.powers.items()],
        "victory_centres": variant.victory_centres,
        "start_phase": str(variant.start.phase),
        "rules_html": plain_words_html(slug),
        "seasons": seasons,
        "generated": generated,
    }


def _seasons(variant: Variant) -> list[dict[str, Any]]:
    """The map changes season by season (exact dates, start units standing still); step numbers index
    ``_maps`` so the page can show the map after each."""
    rows = [{"step": 0, "when": f"Start, {variant.start.phase.year}", "changes": []}]
    for number, (year, hook, result) in enumerate(_steps(variant), start=1):
        rows.append(
            {
                "step": number,
                "when": f"{year} {HOOK_WORDS[hook]}",
                "year": year,
                "changes": [event_text(e) for e in result.events if e["kind"] in MAP_EVENTS],
            }
        )
    return rows


@functools.lru_cache(maxsize=16)
def _steps(variant: Variant) -> tuple[Any, ...]:
    """The timeline's hooks that change something, in order; the start map is step 0."""
    return tuple(step for step in walk(variant, {}) if any(e["kind"] in MAP_EVENTS for e in step[2].events))


@functools.lru_cache(maxsize=256)
def _season_svg(slug: str, step: int) -> str:
    variant = sample_variant(slug)
    drawing = sample_geometry(slug)
    steps = _steps(variant)
    if step == 0:
        return render_svg(variant, variant.map_state, variant.start, geometry=drawing)
    _, _, result = steps[step - 1]
    return render_svg(variant, result.map_state, result.position, geometry=drawing)


@require_safe
def variant_page(request: HttpRequest, slug: str) -> HttpResponse:
    facts = variant_facts(slug) if slug in _slugs() else None
    if facts is None:
        raise Http404(f"There is no variant {slug!r}.")
    return render(request, "web/variant.html", {"variant": facts})


@require_safe
@cache_control(max_age=3600, public=True)
def season_map(request: HttpRequest, slug: str, step: int) -> HttpResponse:
    facts = variant_facts(slug) if slug in _slugs() else None
    if facts is None or step >= len(facts["seasons"]):
        raise Http404(f"Variant {slug!r} has no season {step}.")
    try:
        svg = _season_svg(slug, step)
    except GeometryError as exc:
        raise Http404(f"There is no drawing of this map yet: {exc}") from exc
    return styles_allowed(HttpResponse(svg, content_type="image/svg+xml"), stylesheets_of(svg))
