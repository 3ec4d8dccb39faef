"""Open seats: powers in civil disorder offered to replacements, taking one, and the game masters'
approval of requests where the game asks for it."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from dipserver.api.games import GameDetailSerializer, game_detail_data
from dipserver.api.permissions import game_or_404, master_required, viewer_of
from dipserver.api.throttling import WriteThrottle
from dipserver.games import selectors
from dipserver.games.errors import GameError
from dipserver.games.models import Power, SeatRequest
from dipserver.games.services.seats import seat_request_approve, seat_request_decline, seat_take
from dipserver.players.house_bots import game_fill_with_bots, seat_to_bot


class OpenSeatSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    power = serializers.CharField()
    game = serializers.IntegerField()
    game_name = serializers.CharField()
    variant = serializers.CharField()
    phase = serializers.CharField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)
    needs_approval = serializers.BooleanField(help_text="A game master approves the replacement.")
    grace_minutes = serializers.IntegerField(help_text="The least time a replacement has for the phase.")
    min_reliability = serializers.IntegerField()
    min_rating = serializers.FloatField(allow_null=True)
    is_bot = serializers.BooleanField(help_text="A house bot plays the seat until a replacement takes it.")


def open_seat_row(seat: Power) -> dict[str, Any]:
    game = seat.game
    phase = game.current_phase
    return {
        "seat": seat.id,
        "power": seat.name,
        "game": game.id,
        "game_name": game.name,
        "variant": game.variant,
        "phase": phase.name if phase else None,
        "deadline": phase.deadline if phase else None,
        "needs_approval": game.replacement_approval,
        "grace_minutes": game.replacement_grace_minutes,
        "min_reliability": game.min_reliability,
        "min_rating": game.min_rating,
        "is_bot": bool(seat.user and seat.user.is_bot),
    }


class OpenSeatsApi(APIView):
    """Seats offered to a replacement (powers in civil disorder) in games in play; signed in, without the
    games I already play in."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenSeatSerializer(many=True)})
    def get(self, request: Request) -> Response:
        rows = [open_seat_row(s) for s in selectors.open_seats(exclude_user=request.user)]
        return Response(OpenSeatSerializer(rows, many=True).data)


class SeatTakeApi(APIView):
    """Take an open seat: 200 with the game (it is mine now), or 202 when the game's masters approve
    replacements (the request waits for them). Refusals say why: ``seat_not_open``, ``already_joined``,
    ``reliability_too_low``, ``rating_too_low``."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    class RequestedSerializer(serializers.Serializer[Any]):
        request = serializers.IntegerField()
        detail = serializers.CharField()

    @extend_schema(request=None, responses={200: GameDetailSerializer, 202: RequestedSerializer, 409: None})
    def post(self, request: Request, game_id: int, seat_id: int) -> Response:
        game = game_or_404(game_id)
        if not Power.objects.filter(id=seat_id, game=game).exists():
            raise GameError(f"{game.name} has no seat {seat_id}", code="not_found")
        taken = seat_take(power_id=seat_id, user=request.user)
        if isinstance(taken, SeatRequest):
            out = {"request": taken.id, "detail": f"Asked; a game master of {game.name} decides."}
            return Response(self.RequestedSerializer(out).data, status=status.HTTP_202_ACCEPTED)
        return Response(game_detail_data(game.id, viewer_of(request, game)))


class SeatRequestSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    seat = serializers.IntegerField(source="power_id")
    power = serializers.CharField(source="power.name")
    username = serializers.CharField(source="user.username")
    created_at = serializers.DateTimeField()


class SeatRequestsApi(APIView):
    """The game's masters: who asks for its open seats."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: SeatRequestSerializer(many=True)})
    def get(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        master_required(viewer_of(request, game), game)
        asks = SeatRequest.objects.filter(power__game=game).select_related("power", "user")
        return Response(SeatRequestSerializer(asks, many=True).data)


class SeatRequestDecideApi(APIView):
    """The game's masters: ``approve`` (the seat is the requester's, with the grace period) or
    ``decline`` a request."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(request=None, responses={200: GameDetailSerializer, 204: None, 404: None, 409: None})
    def post(self, request: Request, game_id: int, request_id: int, decision: str) -> Response:
        game = game_or_404(game_id)
        master_required(viewer_of(request, game), game)
        if not SeatRequest.objects.filter(id=request_id, power__game=game).exists():
            raise GameError(f"{game.name} has no seat request {request_id}", code="not_found")
        if decision == "decline":
            seat_request_decline(request_id=request_id)
            return Response(status=status.HTTP_204_NO_CONTENT)
        seat_request_approve(request_id=request_id)
        return Response(game_detail_data(game.id, viewer_of(request, game)))


class GameFillWithBotsApi(APIView):
    """The game's masters: start a forming game now with the site's bots in the seats still empty (where
    the game was created with ``bots_fill_seats``). The game is then unrated."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(request=None, responses={200: GameDetailSerializer, 409: None, 422: None})
    def post(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        master_required(viewer_of(request, game), game)
        game_fill_with_bots(game_id=game.id)
        return Response(game_detail_data(game.id, viewer_of(request, game)))


class SeatToBotApi(APIView):
    """The game's masters: a bot plays a power in civil disorder until a person takes the seat (it stays
    offered in the lobby)."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(request=None, responses={200: GameDetailSerializer, 404: None, 409: None})
    def post(self, request: Request, game_id: int, seat_id: int) -> Response:
        game = game_or_404(game_id)
        master_required(viewer_of(request, game), game)
        seat_to_bot(game_id=game.id, power_id=seat_id)
        return Response(game_detail_data(game.id, viewer_of(request, game)))
