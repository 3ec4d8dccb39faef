"""Game-master operations: process now, extend the deadline, pause and resume."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from dipserver.api.games import GameDetailSerializer, game_detail_data
from dipserver.api.inputs import Input
from dipserver.api.orders import phase_field
from dipserver.api.permissions import game_or_404, master_required, viewer_of
from dipserver.api.throttling import WriteThrottle
from dipserver.games.deadlines import DEADLINE_EXAMPLE, deadline_parsed
from dipserver.games.errors import GameError
from dipserver.games.services import games as game_services
from dipserver.games.services import phases as phase_services


class _MasterApi(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    def answer(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        return Response(game_detail_data(game.id, viewer_of(request, game)))

    def check(self, request: Request, game_id: int) -> None:
        game = game_or_404(game_id)
        master_required(viewer_of(request, game), game)


class GameProcessApi(_MasterApi):
    """Process the open phase now (queued for a worker; the answer may still show it open). The body
    names the phase: if the game has moved on to another (every player ready, the deadline passed),
    the answer is 409 and nothing is processed, so a click meant for one phase never processes the next."""

    class InputSerializer(Input):
        phase = phase_field("to process is")

    @extend_schema(request=InputSerializer, responses={200: GameDetailSerializer, 409: None})
    def post(self, request: Request, game_id: int) -> Response:
        self.check(request, game_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        phase_services.phase_process_now(game_id=game_id, phase_name=data.validated_data["phase"].upper())
        return self.answer(request, game_id)


class DeadlineField(serializers.DateTimeField):
    """An ISO 8601 date and time that must carry its zone (DRF would read a bare time as UTC)."""

    def to_internal_value(self, value: Any) -> Any:
        if not isinstance(value, str):
            self.fail("invalid", format=DEADLINE_EXAMPLE)
        try:
            return deadline_parsed(value)
        except GameError as exc:
            raise serializers.ValidationError(str(exc)) from None


class GameExtendApi(_MasterApi):
    """Move the open phase's deadline to a later time, given with its time zone."""

    class InputSerializer(Input):
        deadline = DeadlineField(
            help_text=f"ISO 8601 with a time zone, in the future, e.g. {DEADLINE_EXAMPLE}"
        )

    @extend_schema(request=InputSerializer, responses={200: GameDetailSerializer, 409: None, 422: None})
    def post(self, request: Request, game_id: int) -> Response:
        self.check(request, game_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        phase_services.phase_deadline_extend(game_id=game_id, deadline=data.validated_data["deadline"])
        return self.answer(request, game_id)


class GamePauseApi(_MasterApi):
    """Stop the clock: no orders and no processing until resumed."""

    @extend_schema(request=None, responses={200: GameDetailSerializer, 409: None})
    def post(self, request: Request, game_id: int) -> Response:
        self.check(request, game_id)
        game_services.game_pause(game_id=game_id)
        return self.answer(request, game_id)


class GameResumeApi(_MasterApi):
    """Back in play; the deadline moves on by as long as the pause lasted."""

    @extend_schema(request=None, responses={200: GameDetailSerializer, 409: None})
    def post(self, request: Request, game_id: int) -> Response:
        self.check(request, game_id)
        game_services.game_resume(game_id=game_id)
        return self.answer(request, game_id)
