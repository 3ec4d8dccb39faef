"""Variants: the list, and one variant with its powers, rules options, map-change timeline and geometry."""

from __future__ import annotations

import functools
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from dipserver.api.etag import matches, not_modified, tagged
from dipserver.engine import Hook, TimelineError, Variant, VariantError, load_timeline, schedule
from dipserver.games.choices import variant_choices
from dipserver.games.errors import GameError
from dipserver.games.variants import is_generated, playable_slugs, sample_geometry, sample_variant
from dipserver.render import GeometryError, geometry_json


def variant_slugs() -> list[str]:
    """Every variant a game can be created with: the folders of ``variants/`` and the generated board."""
    return playable_slugs()


def variant_or_404(slug: str) -> Variant:
    """The variant, or a generated board's sample deal."""
    if slug not in variant_slugs():
        raise NotFound(f"There is no variant {slug!r}; the variants are {', '.join(variant_slugs())}.")
    try:
        return sample_variant(slug)
    except (VariantError, GameError) as exc:
        raise NotFound(f"Variant {slug!r} cannot be loaded: {exc}") from exc


@functools.lru_cache(maxsize=32)
def variant_timeline(variant: Variant) -> tuple[dict[str, Any], ...]:
    """The map changes season by season under the default options (exact mode): read glue over the
    engine's schedule, the same rows ``selectors.timeline_rows`` gives for a game."""
    timeline = load_timeline(variant)
    slots = schedule(timeline, timeline.game_options({}))
    hooks = list(Hook)
    rows: list[dict[str, Any]] = []
    for (year, hook), changes in sorted(slots.items(), key=lambda kv: (kv[0][0], hooks.index(kv[0][1]))):
        rows.extend(
            {"year": year, "hook": str(hook), "change": str(c.change), "province": c.province}
            for c in changes
        )
    return tuple(rows)


def _summary(variant: Variant) -> dict[str, Any]:
    return {
        "slug": variant.slug,
        "name": variant.name,
        "version": variant.version,
        "base": variant.base,
        "powers": [
            {"name": key, "display_name": p.name, "adjective": p.adjective, "colour": p.colour}
            for key, p in variant.powers.items()
        ],
        "victory_centres": variant.victory_centres,
        "start_phase": str(variant.start.phase),
        "generated": is_generated(variant.slug),
    }


class _VariantPowerSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(help_text="As orders and the rest of the API name it, e.g. ENGLAND.")
    display_name = serializers.CharField()
    adjective = serializers.CharField()
    colour = serializers.CharField()


class VariantListApi(APIView):
    """Every variant this server plays."""

    permission_classes = [AllowAny]

    class OutputSerializer(serializers.Serializer[Any]):
        slug = serializers.CharField()
        name = serializers.CharField()
        version = serializers.CharField()
        base = serializers.CharField(allow_null=True)
        powers = _VariantPowerSerializer(many=True)
        victory_centres = serializers.IntegerField()
        start_phase = serializers.CharField()
        generated = serializers.BooleanField(help_text="Dealt afresh for each game (the powers: the most).")

    @extend_schema(responses={200: OutputSerializer(many=True)})
    def get(self, request: Request) -> Response:
        variants = []
        for slug in variant_slugs():
            try:
                variants.append(_summary(sample_variant(slug)))
            except (VariantError, GameError):
                continue  # a broken variant folder is an operator's problem, not a client's
        return Response(self.OutputSerializer(variants, many=True).data)


class VariantDetailApi(APIView):
    """One variant: description, powers and colours, the options a game's creator has (only those that
    change something), the timeline of map changes, and the map geometry the browser draws (``null`` for
    a variant without a drawing yet). A generated board (Ice Lords) shows its sample deal."""

    permission_classes = [AllowAny]

    class OutputSerializer(serializers.Serializer[Any]):
        class OptionSerializer(serializers.Serializer[Any]):
            name = serializers.CharField()
            default = serializers.JSONField()
            description = serializers.CharField()

        class ChangeSerializer(serializers.Serializer[Any]):
            year = serializers.IntegerField()
            hook = serializers.CharField()
            change = serializers.CharField()
            province = serializers.CharField(allow_null=True)

        slug = serializers.CharField()
        name = serializers.CharField()
        description = serializers.CharField()
        version = serializers.CharField()
        base = serializers.CharField(allow_null=True)
        powers = _VariantPowerSerializer(many=True)
        victory_centres = serializers.IntegerField()
        start_phase = serializers.CharField()
        build_rule = serializers.CharField()
        options = OptionSerializer(many=True)
        timeline = ChangeSerializer(many=True)
        geometry = serializers.JSONField(allow_null=True)
        geometry_problem = serializers.CharField(
            allow_null=True, help_text="Why there is no drawing (geometry is null); null when there is one."
        )

    @extend_schema(responses={200: OutputSerializer, 304: None})
    def get(self, request: Request, slug: str) -> Response:
        variant = variant_or_404(slug)
        tag = f'W/"variant-{variant.version[:24]}"'
        if matches(request, tag):
            return not_modified(tag)
        try:
            rows = list(variant_timeline(variant))
            options = [choice.to_data() for choice in variant_choices(slug)]
        except TimelineError as exc:
            raise NotFound(f"Variant {slug!r} has a broken timeline: {exc}") from exc
        try:
            generated = sample_geometry(slug)
            geometry, problem = generated or geometry_json(variant), None
        except GeometryError as exc:
            geometry, problem = None, str(exc)
        out = {
            **_summary(variant),
            "description": variant.description,
            "build_rule": variant.build_rule,
            "options": options,
            "timeline": rows,
            "geometry": geometry,
            "geometry_problem": problem,
        }
        return tagged(Response(self.OutputSerializer(out).data), tag)
