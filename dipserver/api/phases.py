"""Phases of a game: the list, one phase (ETag), and its map as SVG or PNG.

Another power's orders for an open phase are never shown: a phase's ``orders`` are everyone's once it is
processed, and only the viewer's own (as stored) while it is open.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.http import HttpResponse
from django.utils.cache import patch_vary_headers
from django.utils.text import compress_string
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from kombu.exceptions import OperationalError as BrokerUnreachable
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from dipserver.api.boards import variant_or_404
from dipserver.api.etag import matches, not_modified, phase_tag, tagged
from dipserver.api.pagination import Pagination
from dipserver.api.payloads import DislodgedSerializer, UnitSerializer, phase_status
from dipserver.api.permissions import game_or_404, viewer_of
from dipserver.api.pictures import MAX_WIDTH, MIN_WIDTH, WIDTHS_TEXT, png_width
from dipserver.api.results import ResultSerializer
from dipserver.api.throttling import PictureThrottle, UserPictureThrottle
from dipserver.core.content_security import styles_allowed
from dipserver.core.picture_cache import picture, picture_key
from dipserver.games.jobs import job_send
from dipserver.games.models import Order, Phase
from dipserver.games.pictures import (
    QUEUED_SECONDS,
    phase_picture_args,
    picture_failed_key,
    picture_queued_key,
)
from dipserver.render import GeometryError, render_svg, svg_to_png
from dipserver.render.style import stylesheet


def phase_or_404(game_id: int, index: int) -> Phase:
    phase = Phase.objects.filter(game_id=game_id, index=index).first()
    if phase is None:
        raise NotFound(f"Game {game_id} has no phase {index} (phases are numbered from 0).")
    return phase


class PhaseListApi(APIView):
    """Every phase of a game so far, oldest first (no snapshots: fetch a phase for those)."""

    pagination_class = Pagination
    permission_classes = [AllowAny]

    class OutputSerializer(serializers.Serializer[Any]):
        index = serializers.IntegerField()
        name = serializers.CharField()
        status = phase_status()
        deadline = serializers.DateTimeField(allow_null=True)
        processed_at = serializers.DateTimeField(allow_null=True)

    @extend_schema(responses={200: OutputSerializer(many=True)})
    def get(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        phases = (
            Phase.objects.filter(game=game)
            .order_by("index")
            .only("index", "name", "status", "deadline", "processed_at")
        )
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(phases, request, view=self)
        return paginator.get_paginated_response(self.OutputSerializer(page, many=True).data)


class PhaseDetailApi(APIView):
    """One phase: the map as it stood, units, centre owners, and once processed the orders of every
    power, their results and the map changes that followed. Supports ``If-None-Match``."""

    permission_classes = [AllowAny]

    class OutputSerializer(serializers.Serializer[Any]):
        index = serializers.IntegerField()
        name = serializers.CharField()
        status = phase_status()
        deadline = serializers.DateTimeField(allow_null=True)
        processed_at = serializers.DateTimeField(allow_null=True)
        map = serializers.DictField(help_text="terrain, coasts, supply_centres, homes: the map this phase")
        units = UnitSerializer(many=True)
        dislodged = DislodgedSerializer(many=True)
        owners = serializers.DictField(child=serializers.CharField())
        orders = serializers.DictField(
            child=serializers.ListField(child=serializers.CharField()),
            help_text="Power -> orders. Open phase: only your own.",
        )
        results = ResultSerializer(many=True, help_text="Once processed: one record per order, in order.")
        events = serializers.ListField(child=serializers.DictField(), help_text="Map changes after it.")
        skipped = serializers.ListField(child=serializers.CharField())
        modules = serializers.DictField(
            allow_null=True,
            help_text="Rule modules as the phase opened (null without any): blizzards (provinces), storms "
            "(the Snow Storms played on this phase's draw: power, province, place, effect), depots "
            "(province -> {power, since}), supply (unit province -> {power, supplied, path, source, marks}).",
        )

    @extend_schema(responses={200: OutputSerializer, 304: None})
    def get(self, request: Request, game_id: int, index: int) -> Response:
        user_id = request.user.id if request.user.is_authenticated else None
        tag = phase_tag(game_id, index, user_id)
        if tag is None:
            game_or_404(game_id)
            phase_or_404(game_id, index)
        if tag and matches(request, tag):
            return not_modified(tag)
        game = game_or_404(game_id)
        phase = phase_or_404(game_id, index)
        snapshot = phase.snapshot
        if phase.status == Phase.Status.PROCESSED:
            orders = phase.orders
        else:
            seat = viewer_of(request, game).seat
            mine = (
                list(Order.objects.filter(phase=phase, power=seat).values_list("text", flat=True))
                if seat
                else []
            )
            orders = {seat.name: mine} if seat and mine else {}
        out = {
            "index": phase.index,
            "name": phase.name,
            "status": phase.status,
            "deadline": phase.deadline,
            "processed_at": phase.processed_at,
            "map": snapshot["map"],
            "units": snapshot["units"],
            "dislodged": snapshot["dislodged"],
            "owners": snapshot["owners"],
            "orders": orders,
            "results": phase.results,
            "events": phase.events,
            "skipped": phase.skipped,
            "modules": public_modules(snapshot),
        }
        response = Response(self.OutputSerializer(out).data)
        # No tag only if the phase appeared after phase_tag looked: answer untagged rather than "ETag: None".
        return response if tag is None else tagged(response, tag)


def _picture_args(game: Any, phase: Phase) -> dict[str, Any]:
    """What ``render_svg`` takes for the phase (``games.pictures``); a variant that cannot be rebuilt
    is a 404."""
    return phase_picture_args(game, phase, variant_or_404(game))


def public_modules(snapshot: dict[str, Any]) -> dict[str, Any] | None:
    """What everyone may know of the phase's rule modules: its blizzards, the depots and everyone's supply.
    Snow Storms ordered for a later draw are other powers' orders and stay out."""
    modules = snapshot.get("modules")
    if not modules:
        return None
    state = modules.get("state") or {}
    announced = [e for e in modules.get("events", []) if e.get("kind") == "blizzards"]
    return {
        "blizzards": sorted(state.get("blizzards", [])),
        "storms": announced[0]["storms"] if announced else [],
        "depots": (state.get("supply") or {}).get("depots", {}),
        "supply": (modules.get("supply") or {}).get("units") if modules.get("supply") else None,
    }


IMMUTABLE = "public, max-age=31536000, immutable"
# Pictures show no orders before a phase is processed, and everyone's after: every viewer sees the same.
_VISIBILITY = "public"


class _MapApi(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [PictureThrottle, UserPictureThrottle]
    content_type = ""

    def width(self, request: Request) -> int | None:
        return None

    def render(self, args: dict[str, Any], width: int | None) -> bytes | str:
        raise NotImplementedError

    def get(self, request: Request, game_id: int, index: int) -> HttpResponse:
        width = self.width(request)  # checked and snapped before anything is looked up or drawn
        kind = f"{self.content_type};{width or 'own'}"
        tag = phase_tag(game_id, index, None, extra=kind)
        if tag is None:
            game_or_404(game_id)
            phase_or_404(game_id, index)
        processed = Phase.objects.filter(game_id=game_id, index=index, status=Phase.Status.PROCESSED).exists()
        if tag and matches(request, tag):
            return self._headers(HttpResponse(status=304), tag, processed)

        def draw() -> bytes | str:
            game = game_or_404(game_id)
            phase = phase_or_404(game_id, index)
            try:
                return self.render(_picture_args(game, phase), width)
            except GeometryError as exc:
                raise NotFound(f"There is no drawing of this map yet: {exc}") from exc

        key = None if tag is None else picture_key(game_id, index, _VISIBILITY, kind, tag)
        return self.drawn(game_id, index, width, key, draw, processed, tag)

    def drawn(
        self,
        game_id: int,
        index: int,
        width: int | None,
        key: str | None,
        draw: Callable[[], bytes | str],
        processed: bool,
        tag: str | None,
    ) -> HttpResponse:
        """The picture, drawn here (an SVG takes milliseconds) and kept under ``key``. ``key`` None: the
        phase appeared after phase_tag looked, nothing to file the picture under."""
        body = draw() if key is None else picture(key, draw, processed=processed)
        return self._headers(HttpResponse(body, content_type=self.content_type), tag, processed)

    @staticmethod
    def _headers(response: HttpResponse, tag: str | None, processed: bool) -> HttpResponse:
        if tag is not None:  # None only if the phase appeared after phase_tag looked: no "ETag: None"
            tagged(response, tag)
        if processed:
            response["Cache-Control"] = IMMUTABLE  # a processed phase is history: its picture never changes
        return response


_ACCEPTS_GZIP = re.compile(r"\bgzip\b")


class PhaseMapSvgApi(_MapApi):
    """The phase drawn as SVG (orders and results drawn once processed), gzipped for a client that takes
    it (``Accept-Encoding``)."""

    content_type = "image/svg+xml"

    def render(self, args: dict[str, Any], width: int | None) -> str:
        return render_svg(**args)

    def drawn(
        self,
        game_id: int,
        index: int,
        width: int | None,
        key: str | None,
        draw: Callable[[], bytes | str],
        processed: bool,
        tag: str | None,
    ) -> HttpResponse:
        """Gzipped (about a third of the text), and kept so in the picture cache beside the text: gzip
        takes as long as the drawing itself. Safe from BREACH: a map holds no secret and nothing the
        request sent."""
        if key is None or not _ACCEPTS_GZIP.search(self.request.META.get("HTTP_ACCEPT_ENCODING", "")):
            return super().drawn(game_id, index, width, key, draw, processed, tag)

        def packed() -> bytes:
            text = picture(key, draw, processed=processed)
            return compress_string(text.encode() if isinstance(text, str) else text)

        body = picture(f"{key}:gzip", packed, processed=processed)
        response = self._headers(HttpResponse(body, content_type=self.content_type), tag, processed)
        response["Content-Encoding"] = "gzip"
        return response

    @extend_schema(responses={(200, "image/svg+xml"): OpenApiTypes.STR, 304: None})
    def get(self, request: Request, game_id: int, index: int) -> HttpResponse:
        response = super().get(request, game_id, index)
        patch_vary_headers(response, ["Accept-Encoding"])  # a cache keeps the text and the gzip apart
        # Its stylesheet is the variant's: a 304 allows it too (the browser keeps the policy of a 304).
        return styles_allowed(response, [stylesheet(variant_or_404(game_or_404(game_id)))])


class PhaseMapPngApi(_MapApi):
    """The phase as a PNG picture. ``?width=`` (100 to 4000 pixels) is rounded up to the next of 400, 800,
    1200, 1600, 2400 and 3200 (3200 above it); without it, the map's own size."""

    content_type = "image/png"

    def width(self, request: Request) -> int | None:
        return png_width(request.query_params.get("width"))

    def drawn(
        self,
        game_id: int,
        index: int,
        width: int | None,
        key: str | None,
        draw: Callable[[], bytes | str],
        processed: bool,
        tag: str | None,
    ) -> HttpResponse:
        """From the picture cache, or 202 with a placeholder while a picture worker draws it: a PNG takes
        seconds (a 3200-pixel one 9-13 s), never spent in a web process."""
        body = None if key is None else cache.get(key)
        if body is None and key is not None:
            failed = cache.get(picture_failed_key(key))
            if failed is not None:
                raise NotFound(failed)
            _picture_requested(game_id, index, width, key)
            body = cache.get(key)  # tasks run in-process (tests) have drawn it already
        if body is None:
            return _drawing()
        return self._headers(HttpResponse(body, content_type=self.content_type), tag, processed)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "width",
                {"type": "integer", "minimum": MIN_WIDTH, "maximum": MAX_WIDTH},
                required=False,
                description=f"{MIN_WIDTH} to {MAX_WIDTH} pixels, drawn at the next of {WIDTHS_TEXT}",
            )
        ],
        responses={
            (200, "image/png"): OpenApiTypes.BINARY,
            (202, "image/png"): OpenApiTypes.BINARY,
            304: None,
        },
        description=(
            "202 with a small placeholder picture (and `Retry-After`) while the map is being drawn: ask "
            "again after that many seconds."
        ),
    )
    def get(self, request: Request, game_id: int, index: int) -> HttpResponse:
        return super().get(request, game_id, index)


logger = logging.getLogger(__name__)
RETRY_AFTER_SECONDS = 2
_PLACEHOLDER_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="480" height="96" viewBox="0 0 480 96">'
    '<rect width="480" height="96" fill="#f4f1ea"/>'
    '<text x="240" y="54" font-family="sans-serif" font-size="20" text-anchor="middle" fill="#333">'
    "Drawing this map: try again in a few seconds</text></svg>"
)


@functools.cache
def _placeholder_png() -> bytes:
    return svg_to_png(_PLACEHOLDER_SVG)


def _drawing() -> HttpResponse:
    """202: the picture is on its way; a placeholder meanwhile, kept by nobody."""
    response = HttpResponse(_placeholder_png(), content_type="image/png", status=202)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


def _picture_requested(game_id: int, index: int, width: int | None, key: str) -> None:
    """Queue the drawing once, however many ask meanwhile (a marker in the shared cache until it is done
    or lapses); with the broker unreachable, the next request tries again."""
    queued = picture_queued_key(key)
    if not cache.add(queued, 1, QUEUED_SECONDS):
        return
    try:
        job_send("picture_draw", game_id, index, width, key)
    except BrokerUnreachable as exc:
        cache.delete(queued)
        logger.warning("broker unreachable, picture %s not queued: %s", key, exc)
