"""Press: the channels a game's press rules allow, the messages I may read, unread counts, sending.

Unread counts are relative to the server's read markers (one per power and channel, moved forward by
``POST /games/<id>/channels``), or to ``?since=<message id>`` when a client keeps its own. Senders are hidden
in anonymous games.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from dipserver.api.pagination import Pagination
from dipserver.api.permissions import game_or_404, power_required, viewer_of
from dipserver.api.throttling import WriteThrottle
from dipserver.games import selectors
from dipserver.games.errors import GameError
from dipserver.games.models import Game, Message, Power
from dipserver.games.selectors import PUBLIC, channel_of
from dipserver.games.services.press import message_send, press_mark_read


def channels_for(game: Game, seat: Power) -> list[dict[str, Any]]:
    """``public`` unless gunboat, plus one private channel per other power in full and anonymous press."""
    if game.press == Game.Press.GUNBOAT:
        return []
    channels = [{"id": PUBLIC, "recipients": []}]
    if game.press in (Game.Press.FULL, Game.Press.ANONYMOUS):
        others = Power.objects.filter(game=game).exclude(name="").exclude(id=seat.id).order_by("name")
        channels += [{"id": p.name, "recipients": [p.name]} for p in others]
    return channels


def visible_messages(game: Game, seat: Power) -> list[Message]:
    """Public press plus messages I sent or that name me, keeping ids and times for paging."""
    return selectors.visible_messages(game=game, seat=seat)


def _since(request: Request) -> int | None:
    raw = request.query_params.get("since")
    if raw is None:
        return None
    if not raw.isdigit():
        raise ValidationError({"since": "The id of the last message you have seen: a whole number."})
    return int(raw)


class ChannelListApi(APIView):
    """``GET`` my press channels with how many messages in each I have not read (by my read markers, or
    newer than ``?since=``); ``POST`` marks a channel read."""

    permission_classes = [IsAuthenticated]

    class OutputSerializer(serializers.Serializer[Any]):
        id = serializers.CharField()
        recipients = serializers.ListField(child=serializers.CharField())
        unread = serializers.IntegerField()
        last_read = serializers.IntegerField(help_text="The id of the last message I read here (0: none).")

    class MarkInputSerializer(serializers.Serializer[Any]):
        channel = serializers.CharField(max_length=200, help_text="'public' or the power(s), as listed.")
        up_to = serializers.IntegerField(
            required=False, min_value=1, help_text="A message id in the channel; default: the newest."
        )

    class MarkOutputSerializer(serializers.Serializer[Any]):
        channel = serializers.CharField()
        last_read = serializers.IntegerField()
        unread = serializers.IntegerField()

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "since", int, required=False, description="Count from this message id, not my read markers."
            )
        ],
        responses={200: OutputSerializer(many=True)},
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        seat = power_required(viewer_of(request, game, mastery=False), game)
        since = _since(request)
        channels = channels_for(game, seat)
        unread = selectors.press_unread(game=game, seat=seat, since=since)
        marks = selectors.press_marks(seat=seat)
        known = {c["id"] for c in channels}
        channels += [{"id": k, "recipients": k.split(",")} for k in sorted(unread) if k not in known]
        rows = [{**c, "unread": unread.get(c["id"], 0), "last_read": marks.get(c["id"], 0)} for c in channels]
        return Response(self.OutputSerializer(rows, many=True).data)

    @extend_schema(request=MarkInputSerializer, responses={200: MarkOutputSerializer})
    def post(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        seat = power_required(viewer_of(request, game, mastery=False), game)
        data = self.MarkInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            mark = press_mark_read(game_id=game.id, user=request.user, **data.validated_data)
        except GameError as exc:
            raise ValidationError({"channel": str(exc)}) from exc
        unread = selectors.press_unread(game=game, seat=seat).get(mark.channel, 0)
        body = {"channel": mark.channel, "last_read": mark.last_read, "unread": unread}
        return Response(self.MarkOutputSerializer(body).data)


class MessagesApi(APIView):
    """``GET`` the press I may read (``?channel=``, ``?since=``), oldest first; ``POST`` sends press."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    class OutputSerializer(serializers.Serializer[Any]):
        id = serializers.IntegerField()
        phase = serializers.CharField()
        sender = serializers.CharField(allow_null=True, help_text="Null in anonymous games.")
        recipients = serializers.ListField(child=serializers.CharField(), help_text="Empty: public.")
        channel = serializers.CharField()
        body = serializers.CharField()
        sent_at = serializers.DateTimeField()

    class SendInputSerializer(serializers.Serializer[Any]):
        body = serializers.CharField(max_length=10000)
        recipients = serializers.ListField(
            child=serializers.CharField(max_length=30), required=False, default=list, max_length=50,
            help_text="Power names; empty or missing means public press.",
        )  # fmt: skip

    @extend_schema(
        parameters=[
            OpenApiParameter("since", int, required=False),
            OpenApiParameter("channel", str, required=False, description="'public' or a power name"),
        ],
        responses={200: OutputSerializer(many=True)},
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        seat = power_required(viewer_of(request, game, mastery=False), game)
        since = _since(request) or 0
        channel = request.query_params.get("channel")
        rows = [self._row(m, seat, game) for m in visible_messages(game, seat) if m.id > since]
        if channel:
            rows = [r for r in rows if r["channel"] == channel.upper() or r["channel"] == channel]
        paginator = Pagination()
        # DRF pages any sequence (Django's Paginator slices it); the stubs accept only a QuerySet.
        page: list[dict[str, Any]] | None = paginator.paginate_queryset(rows, request, view=self)  # type: ignore[arg-type]
        return paginator.get_paginated_response(self.OutputSerializer(page, many=True).data)

    @extend_schema(request=SendInputSerializer, responses={201: OutputSerializer})
    def post(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        seat = power_required(viewer_of(request, game, mastery=False), game)
        data = self.SendInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        message = message_send(game_id=game.id, user=request.user, **data.validated_data)
        message.sender = seat
        return Response(
            self.OutputSerializer(self._row(message, seat, game)).data, status=status.HTTP_201_CREATED
        )

    @staticmethod
    def _row(m: Message, seat: Power, game: Game) -> dict[str, Any]:
        anonymous = game.press == Game.Press.ANONYMOUS and m.sender_id != seat.id
        return {
            "id": m.id,
            "phase": m.phase_name,
            "sender": None if anonymous or m.sender is None else m.sender.name,
            "recipients": m.recipients,
            "channel": PUBLIC if anonymous and m.recipients else channel_of(m, seat),
            "body": m.body,
            "sent_at": m.sent_at,
        }
