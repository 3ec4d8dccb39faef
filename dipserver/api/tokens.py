"""A user's API tokens: list (never the secrets), create, revoke, rotate, and sign out (revoke my own)."""

from __future__ import annotations

from typing import cast

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from dipserver.accounts.models import ApiToken, User
from dipserver.accounts.selectors import tokens_active
from dipserver.accounts.tokens import token_create, token_of, token_revoke, token_rotate
from dipserver.api.errors import Refused
from dipserver.api.inputs import Input


class TokenSerializer(serializers.ModelSerializer[ApiToken]):
    class Meta:
        model = ApiToken
        fields = ["id", "name", "created_at", "last_used_at", "expires_at"]


class NewTokenSerializer(TokenSerializer):
    token = serializers.CharField(help_text="The secret: shown this once, never again.")

    class Meta(TokenSerializer.Meta):
        fields = [*TokenSerializer.Meta.fields, "token"]


def _new(token: ApiToken, secret: str, answer: int) -> Response:
    token.token = secret  # type: ignore[attr-defined]  # the serializer's field, on this answer only
    return Response(NewTokenSerializer(token).data, status=answer)


def _carried(request: Request) -> ApiToken:
    """The token the request was authenticated with; a browser session has none."""
    if not isinstance(request.auth, ApiToken):
        raise Refused(
            "This request carries no API token (the browser signs out at /accounts/logout/).", code="no_token"
        )
    return request.auth


class TokenListApi(APIView):
    """My active tokens (their secrets are never shown again), and making a new one."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(Input):
        name = serializers.CharField(max_length=100)
        expires_in_days = serializers.IntegerField(
            min_value=1, max_value=3650, required=False, allow_null=True
        )

    @extend_schema(responses={200: TokenSerializer(many=True)})
    def get(self, request: Request) -> Response:
        tokens = tokens_active(user=cast(User, request.user))
        return Response(TokenSerializer(tokens, many=True).data)

    @extend_schema(request=InputSerializer, responses={201: NewTokenSerializer, 409: None})
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        token, secret = token_create(user=cast(User, request.user), **data.validated_data)
        return _new(token, secret, status.HTTP_201_CREATED)


class TokenDetailApi(APIView):
    """Revoke one of my tokens; it answers 401 from then on."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={204: None})
    def delete(self, request: Request, token_id: int) -> Response:
        token_revoke(token=token_of(user=cast(User, request.user), token_id=token_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenRotateApi(APIView):
    """Replace one of my tokens (by id, or else the one this request carries) with a new secret."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={201: NewTokenSerializer, 422: None})  # no_token
    def post(self, request: Request, token_id: int | None = None) -> Response:
        user = cast(User, request.user)
        old = _carried(request) if token_id is None else token_of(user=user, token_id=token_id)
        token, secret = token_rotate(token=old)
        return _new(token, secret, status.HTTP_201_CREATED)


class LogoutApi(APIView):
    """Sign out: revoke the token this request carries."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None, 422: None})  # no_token
    def post(self, request: Request) -> Response:
        token_revoke(token=_carried(request))
        return Response(status=status.HTTP_204_NO_CONTENT)
