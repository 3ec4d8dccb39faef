"""My inbox: notifications across all my games, the unread counts, and marking them read."""

from __future__ import annotations

from typing import Any, cast

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from dipserver.accounts.models import User
from dipserver.api.inputs import Input, query_of
from dipserver.api.pagination import Pagination
from dipserver.api.throttling import WriteThrottle
from dipserver.notices.events import NEWS_KINDS
from dipserver.notices.models import Notification
from dipserver.notices.selectors import notifications_of, press_unread_of, unread_of
from dipserver.notices.services import notification_read, notifications_read_all


class NotificationSerializer(serializers.ModelSerializer[Notification]):
    game = serializers.IntegerField(source="game_id")
    game_name = serializers.CharField(source="game.name")
    kind = serializers.ChoiceField(choices=NEWS_KINDS)
    read = serializers.SerializerMethodField()

    class Meta:
        model = Notification
        fields = ["id", "game", "game_name", "kind", "title", "text", "url", "created_at", "read", "read_at"]

    def get_read(self, row: Notification) -> bool:
        return row.read_at is not None


class NotificationListApi(APIView):
    """My notifications, newest first (``?unread=true``: the unread ones only)."""

    pagination_class = Pagination
    permission_classes = [IsAuthenticated]

    class FilterSerializer(serializers.Serializer[Any]):
        unread = serializers.BooleanField(required=False, default=False, help_text="Only the unread ones.")

    @extend_schema(parameters=[FilterSerializer], responses={200: NotificationSerializer(many=True)})
    def get(self, request: Request) -> Response:
        filters = self.FilterSerializer(data=query_of(request))
        filters.is_valid(raise_exception=True)
        unread_only = filters.validated_data["unread"]
        rows = notifications_of(user=cast(User, request.user), unread_only=unread_only)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(rows, request, view=self)
        return paginator.get_paginated_response(NotificationSerializer(page, many=True).data)


class GameUnreadSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    notifications = serializers.IntegerField()
    press = serializers.IntegerField(help_text="Press others sent that I have not read.")


class UnreadApi(APIView):
    """How much is unread: notifications in all, and per game notifications and press."""

    permission_classes = [IsAuthenticated]

    class OutputSerializer(serializers.Serializer[Any]):
        total = serializers.IntegerField(help_text="Unread notifications in all my games.")
        games = serializers.ListField(child=GameUnreadSerializer(), help_text="Games with something unread.")

    @extend_schema(responses={200: OutputSerializer})
    def get(self, request: Request) -> Response:
        user = cast(User, request.user)
        unread = unread_of(user=user)
        press = press_unread_of(user=user)
        ids = sorted(set(unread.games) | set(press))
        games = [{"game": g, "notifications": unread.games.get(g, 0), "press": press.get(g, 0)} for g in ids]
        return Response(self.OutputSerializer({"total": unread.total, "games": games}).data)


class NotificationReadApi(APIView):
    """Mark one of my notifications read."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(request=None, responses={204: None})
    def post(self, request: Request, notification_id: int) -> Response:
        if not notification_read(user=cast(User, request.user), notification_id=notification_id):
            raise NotFound(f"You have no notification {notification_id}.")
        return Response(status=status.HTTP_204_NO_CONTENT)


class NotificationsReadApi(APIView):
    """Mark all my notifications read (in one game, when ``game`` is given)."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    class InputSerializer(Input):
        game = serializers.IntegerField(
            required=False,
            allow_null=True,
            default=None,
            help_text="Only this game's; null or left out: all.",
        )

    class OutputSerializer(serializers.Serializer[Any]):
        marked = serializers.IntegerField()

    # Not v1_notifications_read_create: that is marking one read (/notifications/{id}/read) already.
    @extend_schema(
        operation_id="v1_notifications_read_all", request=InputSerializer, responses={200: OutputSerializer}
    )
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        marked = notifications_read_all(user=cast(User, request.user), game_id=data.validated_data["game"])
        return Response(self.OutputSerializer({"marked": marked}).data)
