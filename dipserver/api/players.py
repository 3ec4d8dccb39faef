"""Players: a profile (games, outcomes per variant, reliability computed from the phases they held)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from dipserver.players.profiles import OUTCOMES, Profile, Tally, profile_of


class _TallySerializer(serializers.Serializer[Any]):
    played = serializers.IntegerField(help_text="Games started with the player in a seat.")
    finished = serializers.IntegerField(help_text="Games that ended with the player still in their seat.")
    outcomes = serializers.DictField(
        child=serializers.IntegerField(), help_text=f"Games per outcome: {', '.join(OUTCOMES)}."
    )


class _ReliabilitySerializer(serializers.Serializer[Any]):
    phases_due = serializers.IntegerField(
        help_text="Processed phases of their seats with a decision to make."
    )
    phases_ordered = serializers.IntegerField(help_text="Of those, the phases they gave orders in.")
    percent = serializers.IntegerField(
        allow_null=True, help_text="Ordered / due, rounded down; null: none due."
    )
    civil_disorders = serializers.IntegerField(help_text="Runs of missed phases that reached a game's limit.")


class _GameRowSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField(source="game_id")
    name = serializers.CharField()
    variant = serializers.CharField()
    status = serializers.CharField()
    power = serializers.CharField()
    outcome = serializers.ChoiceField(choices=OUTCOMES)


class ProfileSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    joined = serializers.DateTimeField()
    reliability = _ReliabilitySerializer()
    totals = _TallySerializer()
    per_variant = serializers.DictField(child=_TallySerializer())
    recent = _GameRowSerializer(
        many=True, help_text="Newest first; anonymous games in play are left out (but for the player)."
    )


def _tally(tally: Tally) -> dict[str, Any]:
    return {"played": tally.played, "finished": tally.finished, "outcomes": tally.outcomes}


def profile_data(profile: Profile) -> dict[str, Any]:
    r = profile.reliability
    return {
        "username": profile.user.username,
        "joined": profile.user.date_joined,
        "reliability": {
            "phases_due": r.phases_due,
            "phases_ordered": r.phases_ordered,
            "percent": r.percent,
            "civil_disorders": r.civil_disorders,
        },
        "totals": _tally(profile.totals),
        "per_variant": {v: _tally(t) for v, t in profile.per_variant.items()},
        "recent": profile.recent,
    }


class PlayerProfileApi(APIView):
    """A player's profile: games played and how they went, per variant; reliability (phases ordered out
    of phases due, from the stored phases and orders); the games they play or played."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: ProfileSerializer, 404: None})
    def get(self, request: Request, username: str) -> Response:
        user = get_user_model().objects.filter(username=username, is_active=True).first()
        if user is None:
            raise NotFound(f"There is no player {username!r}.")
        return Response(ProfileSerializer(profile_data(profile_of(user, request.user))).data)
