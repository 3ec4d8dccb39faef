"""A game master offers a newer version of a game's studio variant to the running game: the versions on
offer and the game's record of its changes, the preview of one (what changes, and what refuses it now),
and applying it at the start of the open phase (``games.services.versions``). Game masters only."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from dipserver.api.inputs import Input
from dipserver.api.orders import PHASE_NAME
from dipserver.api.permissions import game_or_404, master_required, viewer_of
from dipserver.api.studio import version_summary
from dipserver.api.studio_payloads import (
    GameVersionChangeSerializer,
    GameVersionPreviewSerializer,
    GameVersionsSerializer,
)
from dipserver.api.throttling import WriteThrottle
from dipserver.games.models import Game, VersionChange
from dipserver.games.services import versions
from dipserver.games.version_diff import diff_lines


def change_data(change: VersionChange) -> dict[str, Any]:
    return {
        "id": change.id,
        "phase": change.phase_name or None,
        "from": change.from_version,
        "to": change.to_version,
        "by": change.by.username if change.by else None,
        "at": change.created_at.isoformat(),
        "diff": change.diff,
        "diff_lines": diff_lines(change.diff),
    }


def _mastered(request: Request, game_id: int) -> Game:
    game = game_or_404(game_id)
    master_required(viewer_of(request, game), game)
    return game


class GameVersionsApi(APIView):
    """The newer published versions of the game's studio variant, and the versions it has moved onto."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="v1_games_studio_versions_list",
        responses={200: GameVersionsSerializer, 403: None, 404: None},
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = _mastered(request, game_id)
        current = game.studio_version
        return Response(
            {
                "current": version_summary(current) if current is not None else None,
                "offered": [version_summary(v) for v in versions.versions_offered(game=game)],
                "changes": [change_data(c) for c in versions.version_changes(game=game)],
            }
        )


class GameVersionApi(APIView):
    """One newer version for this game: GET previews it (the differences, the phase it would apply at, and
    each problem that refuses it now); POST applies it from the start of the open phase named."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    class InputSerializer(Input):
        phase = serializers.RegexField(
            PHASE_NAME,
            required=False,
            help_text="The open phase the change is for, e.g. S1901M (left out: a game still forming).",
        )

    def get_throttles(self) -> list[Any]:
        return super().get_throttles() if self.request.method == "POST" else []

    @extend_schema(responses={200: GameVersionPreviewSerializer, 403: None, 404: None, 409: None, 422: None})
    def get(self, request: Request, game_id: int, version_id: int) -> Response:
        _mastered(request, game_id)
        preview = versions.version_preview(game_id=game_id, version_id=version_id)
        pinned = preview.game.studio_version
        return Response(
            {
                "from": version_summary(pinned) if pinned is not None else None,
                "to": version_summary(preview.version),
                "phase": preview.phase,
                "diff": preview.diff,
                "diff_lines": diff_lines(preview.diff),
                "problems": list(preview.problems),
                "applicable": not preview.problems,
            }
        )

    @extend_schema(
        request=InputSerializer,
        responses={200: GameVersionChangeSerializer, 403: None, 404: None, 409: None, 422: None},
    )
    def post(self, request: Request, game_id: int, version_id: int) -> Response:
        _mastered(request, game_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        phase = data.validated_data.get("phase")
        change = versions.version_apply(
            game_id=game_id,
            version_id=version_id,
            phase_name=phase.upper() if phase else None,
            user=request.user,
        )
        return Response(change_data(change))
