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

from dipserver.api.inputs import query_of
from dipserver.players.profiles import OUTCOMES, Profile, Tally, profile_of
from dipserver.players.ratings import busiest_family, families, leaderboard, ratings_of


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


class _RatingSerializer(serializers.Serializer[Any]):
    family = serializers.CharField(help_text="The variant the family is built on, e.g. standard.")
    rating = serializers.FloatField(source="value", help_text="mu - 3 sigma; a newcomer's is 0.")
    mu = serializers.FloatField(help_text="The estimated skill (openskill, Plackett-Luce).")
    sigma = serializers.FloatField(help_text="Its uncertainty.")
    games = serializers.IntegerField(help_text="Rated games that changed it.")


class ProfileSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    is_bot = serializers.BooleanField(help_text="One of the site's bots, playing through this API.")
    joined = serializers.DateTimeField()
    reliability = _ReliabilitySerializer()
    ratings = _RatingSerializer(many=True)
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
        "is_bot": profile.user.is_bot,
        "joined": profile.user.date_joined,
        "reliability": {
            "phases_due": r.phases_due,
            "phases_ordered": r.phases_ordered,
            "percent": r.percent,
            "civil_disorders": r.civil_disorders,
        },
        "ratings": ratings_of(profile.user),
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


class LeaderboardSerializer(serializers.Serializer[Any]):
    class _Row(serializers.Serializer[Any]):
        place = serializers.IntegerField()
        username = serializers.CharField()
        rating = serializers.FloatField()
        mu = serializers.FloatField()
        sigma = serializers.FloatField()
        games = serializers.IntegerField()

    family = serializers.CharField()
    families = serializers.ListField(child=serializers.CharField(), help_text="Every family with ratings.")
    players = _Row(many=True, help_text="Best first, at most 100.")


class LeaderboardApi(APIView):
    """The best-rated players of a variant family (``?family=standard``; by default the family with the
    most rated games). Games with bots, unrated games and sandboxes do not count; the method is in
    docs/ratings.md."""

    permission_classes = [AllowAny]

    class FilterSerializer(serializers.Serializer[Any]):
        family = serializers.CharField(max_length=50, required=False, default="")

    @extend_schema(parameters=[FilterSerializer], responses={200: LeaderboardSerializer})
    def get(self, request: Request) -> Response:
        query = self.FilterSerializer(data=query_of(request))
        query.is_valid(raise_exception=True)
        family = query.validated_data["family"] or busiest_family()
        rows = [
            {"place": place, "username": r.user.username, "rating": r.value, "mu": r.mu, "sigma": r.sigma,
             "games": r.games}
            for place, r in enumerate(leaderboard(family), start=1)
        ]  # fmt: skip
        out = {"family": family, "families": families(), "players": rows}
        return Response(LeaderboardSerializer(out).data)
