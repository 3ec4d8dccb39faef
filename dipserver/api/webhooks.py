"""My webhooks: list (never the secrets), add one (its secret shown this once), remove one, and read
one's delivery log."""

from __future__ import annotations

from typing import cast

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from dipserver.accounts.models import User
from dipserver.api.inputs import Input
from dipserver.api.pagination import Pagination
from dipserver.api.throttling import WriteThrottle
from dipserver.webhooks.models import Delivery, Webhook
from dipserver.webhooks.selectors import deliveries_of, webhooks_of
from dipserver.webhooks.services import KINDS, webhook_create, webhook_delete, webhook_of


class WebhookSerializer(serializers.ModelSerializer[Webhook]):
    game = serializers.IntegerField(source="game_id", allow_null=True, help_text="None: all my games.")
    kinds = serializers.ListField(child=serializers.ChoiceField(choices=KINDS), help_text="Empty: all.")
    name = serializers.SerializerMethodField(help_text="Null when none was given (the null rule).")

    class Meta:
        model = Webhook
        fields = ["id", "name", "url", "game", "view", "kinds", "created_at"]

    def get_name(self, hook: Webhook) -> str | None:
        return hook.name or None


class NewWebhookSerializer(WebhookSerializer):
    secret = serializers.CharField(help_text="Signs every delivery (X-Dipserver-Signature); shown this once.")

    class Meta(WebhookSerializer.Meta):
        fields = [*WebhookSerializer.Meta.fields, "secret"]


class DeliverySerializer(serializers.ModelSerializer[Delivery]):
    """A delivery as its owner sees it: delivered, failed, or still pending; never the receiver's answer
    (its status code, its error, how often it was tried), which would make webhooks a port scanner."""

    kind = serializers.ChoiceField(choices=KINDS)

    class Meta:
        model = Delivery
        fields = ["id", "key", "kind", "status", "created_at", "delivered_at", "payload"]


class WebhookListApi(APIView):
    """My webhooks, and adding one: to a game I play or run, or (no game) to every game I play."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    class InputSerializer(Input):
        url = serializers.CharField(max_length=2000, help_text="http:// or https://, to a public address.")
        game = serializers.IntegerField(required=False, allow_null=True, default=None)
        name = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
        kinds = serializers.ListField(
            child=serializers.ChoiceField(choices=KINDS), required=False, default=list, max_length=len(KINDS)
        )

    @extend_schema(responses={200: WebhookSerializer(many=True)})
    def get(self, request: Request) -> Response:
        hooks = webhooks_of(owner=cast(User, request.user))
        return Response(WebhookSerializer(hooks, many=True).data)

    # 404: no such game; 409: too many webhooks (403, a game not mine, is documented for every write).
    @extend_schema(
        request=InputSerializer, responses={201: NewWebhookSerializer, 404: None, 409: None, 422: None}
    )
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        hook, secret = webhook_create(
            owner=cast(User, request.user),
            url=given["url"],
            game_id=given["game"],
            name=given["name"],
            kinds=given["kinds"],
        )
        hook.secret = secret  # the full answer, this once
        return Response(NewWebhookSerializer(hook).data, status=status.HTTP_201_CREATED)


class WebhookDetailApi(APIView):
    """Remove one of my webhooks, and its log; it hears nothing from then on."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(responses={204: None})
    def delete(self, request: Request, webhook_id: int) -> Response:
        webhook_delete(webhook=webhook_of(owner=cast(User, request.user), webhook_id=webhook_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookDeliveriesApi(APIView):
    """One webhook's delivery log, newest first: each delivery's news and whether it was delivered."""

    pagination_class = Pagination
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: DeliverySerializer(many=True)})
    def get(self, request: Request, webhook_id: int) -> Response:
        hook = webhook_of(owner=cast(User, request.user), webhook_id=webhook_id)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(deliveries_of(webhook=hook), request, view=self)
        return paginator.get_paginated_response(DeliverySerializer(page, many=True).data)
