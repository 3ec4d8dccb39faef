"""My account settings beside the account page: email (a new one waits for its mailed link), time
zone, which mails I get, and, to read, the vacation left in each game I play (taken per game at
``/games/{id}/vacation``)."""

from __future__ import annotations

from typing import Any, cast

from django.db import transaction
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from dipserver.accounts.models import PREFERENCE_FIELDS, NotificationPreferences, User
from dipserver.accounts.selectors import preferences_of, time_zone_names
from dipserver.accounts.services import TooManyMails, account_settings_save, email_change_request
from dipserver.api.inputs import Input
from dipserver.api.throttling import WriteThrottle
from dipserver.games.selectors import seats_unfinished

PREFERENCES = list(PREFERENCE_FIELDS)


class PreferencesSerializer(serializers.ModelSerializer[NotificationPreferences]):
    reminder_hours = serializers.IntegerField(min_value=1, max_value=72)

    class Meta:
        model = NotificationPreferences
        fields = PREFERENCES


class PreferencesInputSerializer(PreferencesSerializer):
    """The preferences to change; those left out stay."""

    reminder_hours = serializers.IntegerField(min_value=1, max_value=72, required=False)

    class Meta(PreferencesSerializer.Meta):
        extra_kwargs = {name: {"required": False} for name in PREFERENCES}


class VacationSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField(source="game_id")
    game_name = serializers.CharField(source="game.name")
    power = serializers.SerializerMethodField(help_text="Null until the game starts (the null rule).")
    days_left = serializers.IntegerField(source="vacation_days_left")
    away_until = serializers.DateTimeField(allow_null=True)

    def get_power(self, seat: Any) -> str | None:
        return seat.name or None  # a seat's power is "" in the database until the game deals them


class SettingsSerializer(serializers.Serializer[Any]):
    email = serializers.CharField(
        allow_null=True, help_text="The confirmed address; mail goes only there. Null: none (the null rule)."
    )
    email_pending = serializers.CharField(
        allow_null=True, help_text="Waiting for its owner to follow the mailed link; null when none is."
    )
    time_zone = serializers.CharField()
    preferences = PreferencesSerializer()
    vacation = VacationSerializer(many=True)


def _settings(user: User) -> dict[str, Any]:
    return {
        "email": user.email or None,  # "" in the database: no address (the null rule)
        "email_pending": user.email_pending or None,
        "time_zone": user.time_zone,
        "preferences": preferences_of([user.id])[user.id],
        "vacation": list(seats_unfinished(user=user)),
    }


class AccountSettingsApi(APIView):
    """Read my settings, or change some of them (the fields left out stay as they are)."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    # Input: the JSON types as the schema says them, nested preferences included (``0`` is no boolean).
    class InputSerializer(Input):
        email = serializers.EmailField(
            required=False, allow_blank=True, allow_null=True, help_text='null (or "") removes every address.'
        )
        time_zone = serializers.ChoiceField(choices=[], required=False)
        preferences = PreferencesInputSerializer(required=False)

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            field = self.fields["time_zone"]
            assert isinstance(field, serializers.ChoiceField)
            field.choices = time_zone_names()

    @extend_schema(responses={200: SettingsSerializer})
    def get(self, request: Request) -> Response:
        return Response(SettingsSerializer(_settings(cast(User, request.user))).data)

    # 429: a new address is mailed its link at most five times a day (TooManyMails).
    @extend_schema(request=InputSerializer, responses={200: SettingsSerializer, 429: None})
    def patch(self, request: Request) -> Response:
        user = cast(User, request.user)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        with transaction.atomic():
            if "time_zone" in given or "preferences" in given:
                account_settings_save(
                    user=user,
                    time_zone=given.get("time_zone", user.time_zone),
                    preferences=dict(given.get("preferences", {})),
                )
            email = given.get("email") or ""  # null and "" alike: no address
            if "email" in given and email != (user.email_pending or user.email):
                try:
                    email_change_request(user=user, email=email)
                except TooManyMails as exc:
                    raise exceptions.Throttled(detail=str(exc)) from None
        user.refresh_from_db()
        return Response(SettingsSerializer(_settings(user)).data)
