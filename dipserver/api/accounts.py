"""Accounts: register, obtain a token, and who am I."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from django.contrib.auth import authenticate, get_user_model, password_validation
from django.contrib.auth.password_validation import MinimumLengthValidator
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from dipserver.accounts.calendar import calendar_address
from dipserver.accounts.services import calendar_key_renew, email_change_request
from dipserver.accounts.tokens import SIGN_IN_NAME, token_create
from dipserver.api.errors import Refused
from dipserver.api.inputs import Input
from dipserver.api.throttling import LoginThrottle, RegisterThrottle, WriteThrottle

if TYPE_CHECKING:
    from dipserver.accounts.models import User


def password_min_length() -> int:
    """The fewest characters a password may have, as the site's validators (AUTH_PASSWORD_VALIDATORS) say:
    the one rule of theirs a schema can state; the others answer 422 ``weak_password``."""
    validators = password_validation.get_default_password_validators()
    return max((v.min_length for v in validators if isinstance(v, MinimumLengthValidator)), default=1)


class AccountRegisterApi(APIView):
    """Create a login; the answer carries its API token."""

    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []
    throttle_classes = [RegisterThrottle]

    class InputSerializer(Input):
        username = serializers.RegexField(r"^[\w.@+-]{1,150}$", max_length=150)
        password = serializers.CharField(
            min_length=password_min_length(),
            max_length=128,
            write_only=True,
            help_text="Shorter or longer answers 400. A common password, one of digits only or one too "
            "like the username answers 422 (weak_password), with the reasons under fields.password.",
        )
        email = serializers.EmailField(required=False, allow_blank=True, allow_null=True, default=None)

    class OutputSerializer(serializers.Serializer[Any]):
        id = serializers.IntegerField()
        username = serializers.CharField()
        token = serializers.CharField()
        email_pending = serializers.CharField(
            allow_null=True,
            help_text="Waiting for its owner to follow the mailed link; null when none was given.",
        )

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer, 422: None})  # weak_password
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user_model = get_user_model()
        candidate = user_model(username=data.validated_data["username"])
        try:
            password_validation.validate_password(data.validated_data["password"], candidate)
        except DjangoValidationError as exc:
            reasons = " ".join(exc.messages)
            raise Refused(
                f"This password is too weak: {reasons}", "weak_password", {"password": reasons}
            ) from None
        candidate.set_password(data.validated_data["password"])
        try:
            with transaction.atomic():
                if user_model.objects.filter(username__iexact=candidate.username).exists():
                    raise IntegrityError
                candidate.save()
        except IntegrityError:
            raise ValidationError({"username": ["That username is taken."]}) from None
        _, secret = token_create(user=candidate, name=SIGN_IN_NAME)
        # The address is used once its owner follows the link mailed to it (sent by a worker).
        email_change_request(user=candidate, email=data.validated_data["email"] or "")
        out = {
            "id": candidate.id,
            "username": candidate.username,
            "token": secret,
            "email_pending": candidate.email_pending or None,
        }
        return Response(self.OutputSerializer(out).data, status=status.HTTP_201_CREATED)


class TokenObtainApi(APIView):
    """Exchange a username and password for a new API token (``Authorization: Token <key>``)."""

    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []
    throttle_classes = [LoginThrottle]

    class InputSerializer(Input):
        username = serializers.CharField(max_length=150)
        password = serializers.CharField(max_length=128, write_only=True)

    class OutputSerializer(serializers.Serializer[Any]):
        token = serializers.CharField()

    @extend_schema(request=InputSerializer, responses={200: OutputSerializer, 422: None})  # bad_credentials
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = authenticate(request, **data.validated_data)
        if user is None or not user.is_active:
            raise Refused("Wrong username or password.", code="bad_credentials")
        # A new token for each sign-in (only hashes are kept, so an old one cannot be shown again); the
        # least recently used sign-in tokens make room past the limit.
        _, secret = token_create(user=user, name=SIGN_IN_NAME, evict=True)
        return Response(self.OutputSerializer({"token": secret}).data)


class MeApi(APIView):
    """The logged-in user."""

    permission_classes = [IsAuthenticated]

    class OutputSerializer(serializers.Serializer[Any]):
        id = serializers.IntegerField()
        username = serializers.CharField()
        email = serializers.CharField(
            allow_null=True, help_text="The confirmed address; mail goes only there. Null: none."
        )
        email_pending = serializers.CharField(
            allow_null=True, help_text="Waiting for its owner to follow the mailed link; null when none is."
        )
        time_zone = serializers.CharField()
        is_game_master = serializers.BooleanField()
        is_admin = serializers.BooleanField()
        calendar_url = serializers.URLField(
            help_text="My deadlines as an iCalendar feed, for calendar apps: a private signed address that "
            "needs no sign-in. A new one (POST accounts/calendar/renew, or the account page) makes the old "
            "one answer 404."
        )

    @extend_schema(responses={200: OutputSerializer})
    def get(self, request: Request) -> Response:
        from dipserver.accounts.roles import GAME_MASTERS_GROUP

        user = cast("User", request.user)  # IsAuthenticated lets no AnonymousUser this far
        out = {
            "id": user.id,
            "username": user.username,
            "email": user.email or None,  # "" in the database: no address (the null rule)
            "email_pending": user.email_pending or None,
            "time_zone": user.time_zone,
            "is_game_master": user.is_superuser or user.groups.filter(name=GAME_MASTERS_GROUP).exists(),
            "is_admin": user.is_superuser,
            "calendar_url": calendar_address(user),
        }
        return Response(self.OutputSerializer(out).data)


class CalendarRenewApi(APIView):
    """A new address for my deadlines feed; the old one answers 404 from now on."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    class OutputSerializer(serializers.Serializer[Any]):
        calendar_url = serializers.URLField()

    @extend_schema(request=None, responses={200: OutputSerializer})
    def post(self, request: Request) -> Response:
        user = cast("User", request.user)  # IsAuthenticated lets no AnonymousUser this far
        calendar_key_renew(user=user)
        return Response(self.OutputSerializer({"calendar_url": calendar_address(user)}).data)
