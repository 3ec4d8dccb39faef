"""A game's timeline (what the map does season by season, with the game's options) and, for a board
generated per game (Ice Lords), its drawing.

In random mode the years of the drawn changes follow from the game's secret, so until the game ends a
drawn change is listed only once it has happened; the ones still to come are only counted.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from dipserver.api.boards import timeline_entries, variant_or_404
from dipserver.api.permissions import game_or_404, viewer_of
from dipserver.games.changes import conditions_now
from dipserver.games.coming import coming_for
from dipserver.games.engine_games import graph_of
from dipserver.games.errors import GameError
from dipserver.games.models import Game, Phase
from dipserver.games.variants import geometry_of
from dipserver.render import GeometryError, geometry_json


class _EntrySerializer(serializers.Serializer[Any]):
    year = serializers.IntegerField()
    hook = serializers.CharField(help_text="e.g. after_fall_retreats")
    change = serializers.CharField(help_text="land, sea, impassable, sc_gain, sc_loss, sc_loss_all")
    province = serializers.CharField(allow_null=True, help_text="null for sc_loss_all")
    keep = serializers.ListField(child=serializers.CharField(), help_text="sc_loss_all: the centres kept")
    happened = serializers.BooleanField(help_text="Its hook ran before the current phase opened.")


class _BlizzardsSerializer(serializers.Serializer[Any]):
    phase = serializers.CharField()
    provinces = serializers.ListField(child=serializers.CharField())


class _OrderSerializer(serializers.Serializer[Any]):
    text = serializers.CharField(help_text='The order to give, as the options list it: "F ADR stays fleet".')
    then = serializers.CharField(help_text="What happens to the unit with that order: removed, moved")


class _MineSerializer(serializers.Serializer[Any]):
    year = serializers.IntegerField()
    hook = serializers.CharField()
    province = serializers.CharField(help_text="Where the unit stands, or the centre")
    change = serializers.CharField(
        allow_null=True, help_text="The timeline's change there; null when it is beside"
    )
    kind = serializers.CharField(
        help_text="converted, removed, moved (a fleet's coast), stands (the ground changes under the unit, "
        "which stays as it is), centre_lost, centre_gained"
    )
    unit = serializers.CharField(allow_null=True, help_text='"F ADR"; null for a centre')
    to = serializers.CharField(allow_null=True, help_text='What the unit becomes: "A ADR"')
    order = _OrderSerializer(allow_null=True, help_text="The order that changes the outcome, if any")


class _ConditionSerializer(serializers.Serializer[Any]):
    kind = serializers.CharField(help_text="controls, centres or occupied")
    power = serializers.CharField(allow_null=True, help_text="null: any one power (any units)")
    provinces = serializers.ListField(child=serializers.CharField(), help_text="controls, occupied")
    centres = serializers.IntegerField(allow_null=True, help_text="centres: how many, at least")


class _ConditionalSerializer(serializers.Serializer[Any]):
    event = serializers.IntegerField(help_text="Its number in the timeline file")
    hook = serializers.CharField()
    change = serializers.CharField()
    provinces = serializers.ListField(child=serializers.CharField(), help_text="sc_loss_all: those kept")
    from_year = serializers.IntegerField(allow_null=True)
    until_year = serializers.IntegerField(allow_null=True)
    condition = _ConditionSerializer()
    words = serializers.CharField(
        help_text='"From 1903, after the Autumn retreats, when GERMANY controls WAR: ..."'
    )
    holds = serializers.BooleanField(
        help_text="The condition holds on the board now: the change comes at its next hook within its years "
        "(unless it is made already)."
    )
    made = serializers.BooleanField(
        help_text="Its changes are on the map already (it fired, or the map was so): it fires no more."
    )


class GameTimelineApi(APIView):
    """What the map changes when in this game, oldest first, and the blizzards announced for the phase
    open now (games with the blizzards module)."""

    permission_classes = [AllowAny]

    class OutputSerializer(serializers.Serializer[Any]):
        mode = serializers.CharField(help_text="exact or random")
        phase = serializers.CharField(allow_null=True, help_text="The current phase, null before the start.")
        entries = _EntrySerializer(many=True)
        undrawn = serializers.IntegerField(
            help_text="Random mode: changes still to come whose years stay secret until the game ends."
        )
        blizzards = _BlizzardsSerializer(allow_null=True)
        conditions = _ConditionalSerializer(
            many=True,
            help_text="Map changes that come when a condition on the game holds, not on a date: each with "
            "its condition and whether it holds now.",
        )
        mine = _MineSerializer(
            many=True,
            required=False,
            help_text="A player's own: what the next map change does to their units and centres, as they "
            "stand now. Absent for spectators.",
        )

    @extend_schema(responses={200: OutputSerializer})
    def get(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        phase_id = game.current_phase_id
        phase = (
            Phase.objects.filter(id=phase_id).only("name", "snapshot").first()
            if phase_id is not None
            else None
        )
        try:
            entries, undrawn = timeline_entries(game, phase.name if phase else None)
            conditions = conditions_now(game, phase)
        except GameError as exc:
            raise NotFound(f"The timeline of this game cannot be read: {exc}") from exc
        out = {
            "mode": game.options.get("mode", "exact"),
            "phase": phase.name if phase else None,
            "entries": entries,
            "undrawn": undrawn,
            "blizzards": _blizzards(game, phase),
            "conditions": conditions,
        }
        seat = viewer_of(request, game, mastery=False).seat
        if seat is not None:
            try:
                out["mine"] = coming_for(game=game, power=seat.name)
            except GameError as exc:
                raise NotFound(f"The timeline of this game cannot be read: {exc}") from exc
        return Response(self.OutputSerializer(out).data)


def _blizzards(game: Game, phase: Phase | None) -> dict[str, Any] | None:
    """The blizzards the open phase was announced with. Snow Storms ordered and not yet drawn are left
    out: they are other powers' orders."""
    if phase is None or not game.options.get("blizzards"):
        return None
    state = (phase.snapshot.get("modules") or {}).get("state") or {}
    return {"phase": phase.name, "provinces": sorted(state.get("blizzards", []))}


def timeline_moved(request: HttpRequest, game_id: int) -> HttpResponsePermanentRedirect:
    """The old address ``.../timeline/`` (every other endpoint has no trailing slash): 308 to the new
    one, with the query kept, so old clients and bookmarks keep working."""
    target = reverse("api:timeline", args=[game_id])
    query = request.META.get("QUERY_STRING", "")
    return HttpResponsePermanentRedirect(f"{target}?{query}" if query else target, preserve_request=True)


class GameGraphApi(APIView):
    """The graph of this game's map as drawn, whatever the terrain: which provinces border which, and
    the waters each coast of a multi-coast province touches. With a phase's terrain (``map`` of the
    phase) it says where armies and fleets may go; bots plan their routes on it. A generated board (Ice
    Lords) has its own in every game."""

    permission_classes = [AllowAny]

    class OutputSerializer(serializers.Serializer[Any]):
        borders = serializers.DictField(
            child=serializers.ListField(child=serializers.CharField()),
            help_text="Province -> the provinces it borders as drawn.",
        )
        coasts = serializers.DictField(
            child=serializers.DictField(child=serializers.ListField(child=serializers.CharField())),
            help_text='Multi-coast province -> coast -> the waters it touches: {"STP": {"NC": ["BAR"]}}.',
        )

    @extend_schema(responses={200: OutputSerializer})
    def get(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        response = Response(self.OutputSerializer(graph_of(variant_or_404(game))).data)
        # Fixed by the pinned variant (and, for a generated board, the secret and powers).
        response["Cache-Control"] = "public, max-age=3600"
        return response


class GameGeometryApi(APIView):
    """The drawing of this game's board, in the shape of the variant geometry: a generated board (Ice
    Lords) is different in every game; other games get their variant's."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        variant = variant_or_404(game)
        try:
            doc = geometry_json(variant, geometry_of(game))
        except GeometryError as exc:
            raise NotFound(f"There is no drawing of this map yet: {exc}") from exc
        response = Response(doc)
        # The document is fixed by the pinned variant (and, for a generated board, the secret and powers).
        response["Cache-Control"] = "public, max-age=3600"
        return response
