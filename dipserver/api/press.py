"""Press: my channels with unread counts, read markers, the messages I may read, sending.

Channels, and what a power sees of each message (anonymous press lands in one ``anonymous`` inbox with its
sender hidden), are defined in ``dipserver.games.press_channels``. Unread counts are relative to the
server's read markers (one per power and channel, moved forward by ``POST /games/<id>/channels``), or to
``?since=<message id>`` when a client keeps its own. ``POST .../messages`` takes an ``Idempotency-Key``.
"""

from __future__ import annotations

import re
from dataclasses import asdict
from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from dipserver.api.inputs import Input, whole_number
from dipserver.api.pagination import Pagination
from dipserver.api.permissions import game_or_404, power_required, viewer_of
from dipserver.api.throttling import WriteThrottle
from dipserver.games import selectors
from dipserver.games.press_channels import SeenMessage, seen_by
from dipserver.games.services.press import IDEMPOTENCY_KEY_MAX, press_mark_read, press_post

SINCE = OpenApiParameter(
    "since",
    {"type": "integer", "minimum": 0},
    required=False,
    description="Only messages with a greater id (the last one you have seen); 0: all.",
)
# An Idempotency-Key as the server takes it: 1 to 255 printable ASCII characters, no space at either end
# (HTTP strips those).
IDEMPOTENCY_KEY_PATTERN = rf"^[\x21-\x7e]([\x20-\x7e]{{0,{IDEMPOTENCY_KEY_MAX - 2}}}[\x21-\x7e])?$"
IDEMPOTENCY_KEY = re.compile(IDEMPOTENCY_KEY_PATTERN)


def _since(request: Request) -> int | None:
    raw = request.query_params.get("since")
    if raw is None:
        return None
    since = whole_number(raw, 0)
    if since is None:
        raise ValidationError({"since": "The id of the last message you have seen: a whole number."})
    return since


def idempotency_key(request: Request) -> str:
    raw = request.headers.get("Idempotency-Key")
    if raw is None:
        return ""
    key = raw
    if not IDEMPOTENCY_KEY.fullmatch(key):
        raise ValidationError(
            {"Idempotency-Key": f"1 to {IDEMPOTENCY_KEY_MAX} printable ASCII characters, e.g. a UUID."}
        )
    return key


class ChannelListApi(APIView):
    """``GET`` my press channels with how many messages in each I have not read (by my read markers, or
    newer than ``?since=``); ``POST`` marks a channel read."""

    permission_classes = [IsAuthenticated]

    class OutputSerializer(serializers.Serializer[Any]):
        id = serializers.CharField(help_text="'public', 'anonymous' or the other powers, joined by commas.")
        recipients = serializers.ListField(
            child=serializers.CharField(), help_text="Whom press sent here reaches; never me. Empty: public."
        )
        can_send = serializers.BooleanField(help_text="Whether I may post here now.")
        unread = serializers.IntegerField()
        last_read = serializers.IntegerField(help_text="The id of the last message I read here (0: none).")

    class MarkInputSerializer(Input):
        channel = serializers.CharField(max_length=200, help_text="A channel's id, as listed.")
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
                "since",
                {"type": "integer", "minimum": 0},
                required=False,
                description="Count from this message id, not my read markers.",
            )
        ],
        responses={200: OutputSerializer(many=True)},
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        seat = power_required(viewer_of(request, game, mastery=False), game)
        channels = selectors.press_channels(game=game, seat=seat, since=_since(request))
        return Response(self.OutputSerializer([asdict(c) for c in channels], many=True).data)

    @extend_schema(request=MarkInputSerializer, responses={200: MarkOutputSerializer, 422: None})
    def post(self, request: Request, game_id: int) -> Response:
        """Refused with ``unknown_channel`` for a channel I do not have, ``not_in_channel`` for a message
        that is not in it."""
        game = game_or_404(game_id)
        seat = power_required(viewer_of(request, game, mastery=False), game)
        data = self.MarkInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        mark = press_mark_read(game_id=game.id, user=request.user, **data.validated_data)
        listed = selectors.press_channels(game=game, seat=seat)
        unread = next(c.unread for c in listed if c.id == mark.channel)
        body = {"channel": mark.channel, "last_read": mark.last_read, "unread": unread}
        return Response(self.MarkOutputSerializer(body).data)


class MessagesApi(APIView):
    """``GET`` the press I may read (``?channel=``, ``?since=``), oldest first; ``POST`` sends press."""

    pagination_class = Pagination
    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    class OutputSerializer(serializers.Serializer[Any]):
        id = serializers.IntegerField()
        phase = serializers.CharField()
        sender = serializers.CharField(allow_null=True, help_text="Null for anonymous press not mine.")
        recipients = serializers.ListField(
            child=serializers.CharField(),
            help_text="Empty: public. Anonymous press that reached me lists only me.",
        )
        channel = serializers.CharField()
        body = serializers.CharField()
        sent_at = serializers.DateTimeField()

    class SendInputSerializer(Input):
        body = serializers.CharField(max_length=10000)
        recipients = serializers.ListField(
            child=serializers.CharField(max_length=30), required=False, default=list, max_length=50,
            help_text="Power names; empty or missing means public press.",
        )  # fmt: skip

    @extend_schema(
        parameters=[
            SINCE,
            OpenApiParameter("channel", str, required=False, description="A channel's id, as listed."),
        ],
        responses={200: OutputSerializer(many=True), 422: None},  # 422: a channel I do not have
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        seat = power_required(viewer_of(request, game, mastery=False), game)
        since = _since(request) or 0
        channel = request.query_params.get("channel")
        wanted = selectors.channel_existing(game=game, seat=seat, channel=channel) if channel else None
        seen = selectors.press_seen(game=game, seat=seat)
        rows = [_row(s) for s in seen if s.message.id > since and wanted in (None, s.channel)]
        paginator = self.pagination_class()
        # DRF pages any sequence (Django's Paginator slices it); the stubs accept only a QuerySet.
        page: list[dict[str, Any]] | None = paginator.paginate_queryset(rows, request, view=self)  # type: ignore[arg-type]
        return paginator.get_paginated_response(self.OutputSerializer(page, many=True).data)

    @extend_schema(
        request=SendInputSerializer,
        parameters=[
            OpenApiParameter(
                "Idempotency-Key", {"type": "string", "pattern": IDEMPOTENCY_KEY_PATTERN},
                OpenApiParameter.HEADER, required=False,
                description="A key of my choosing (e.g. a UUID) per message: a retry with the same key and "
                "body posts nothing new and gets the first answer back (with `Idempotent-Replayed: true`); "
                "the same key with another body or recipients is refused with 422 "
                "`idempotency_key_reused`.",
            )
        ],
        responses={201: OutputSerializer, 409: None, 422: None},
    )  # fmt: skip
    def post(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        seat = power_required(viewer_of(request, game, mastery=False), game)
        key = idempotency_key(request)
        data = self.SendInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        posted = press_post(game_id=game.id, user=request.user, idempotency_key=key, **data.validated_data)
        posted.message.sender = seat
        headers = {"Idempotent-Replayed": "true"} if posted.replayed else {}
        row = _row(seen_by(posted.message, seat))
        return Response(self.OutputSerializer(row).data, status=status.HTTP_201_CREATED, headers=headers)


class PublicPressApi(APIView):
    """``GET`` the game's public press as anyone sees it (spectators too): never private press, and in
    anonymous games never a sender. ``?since=<message id>`` gives only newer messages."""

    pagination_class = Pagination
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[SINCE],
        responses={200: MessagesApi.OutputSerializer(many=True)},
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        rows = [_row(s) for s in selectors.press_public(game=game, since=_since(request) or 0)]
        paginator = self.pagination_class()
        page: list[dict[str, Any]] | None = paginator.paginate_queryset(rows, request, view=self)  # type: ignore[arg-type]
        return paginator.get_paginated_response(MessagesApi.OutputSerializer(page, many=True).data)


def _row(seen: SeenMessage) -> dict[str, Any]:
    m = seen.message
    return {
        "id": m.id,
        "phase": m.phase_name,
        "sender": seen.sender,
        "recipients": seen.recipients,
        "channel": seen.channel,
        "body": m.body,
        "sent_at": m.sent_at,
    }
