"""Games: list with filters, create, detail (with ETag), join, leave; draw votes, concession; muting one."""

from __future__ import annotations

from typing import Any, cast

from django.db.models import Count, Q
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from dipserver.accounts.models import User
from dipserver.api.etag import game_tag, matches, not_modified, tagged
from dipserver.api.game_rows import SETTINGS, my_seat, power_rows
from dipserver.api.inputs import Input, query_of
from dipserver.api.orders import phase_field
from dipserver.api.pagination import Pagination
from dipserver.api.payloads import game_status, phase_status, power_status, press_kind
from dipserver.api.permissions import Viewer, game_or_404, power_required, seat_required, viewer_of
from dipserver.api.throttling import WriteThrottle
from dipserver.games import selectors
from dipserver.games.models import Game
from dipserver.games.services import games as game_services
from dipserver.games.services.mutes import game_mute
from dipserver.games.services.powers import power_vacation_take
from dipserver.games.variants import GENERATED_POWERS, playable_slugs

_PHASE_TYPES = ("M", "R", "A")


class _PhaseRefSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField()
    name = serializers.CharField()
    status = phase_status()
    deadline = serializers.DateTimeField(allow_null=True)


def _phase_ref(phase: Any) -> dict[str, Any] | None:
    if phase is None:
        return None
    return {"index": phase.index, "name": phase.name, "status": phase.status, "deadline": phase.deadline}


class _SeatSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    power = serializers.CharField(allow_null=True, help_text="Null until the game starts.")
    player = serializers.CharField(allow_null=True, help_text="Hidden (null) in anonymous games.")
    is_bot = serializers.BooleanField(
        help_text="The seat is held by a bot (shown even where players are not)."
    )
    status = power_status()
    ready = serializers.BooleanField()
    missed_phases = serializers.IntegerField()
    seat_open = serializers.BooleanField()
    centres = serializers.IntegerField()
    units = serializers.IntegerField()
    needs_orders = serializers.BooleanField(help_text="It has a decision to make in the open phase.")
    has_orders = serializers.BooleanField(help_text="It has given orders for the open phase (not which).")


class _MeSerializer(serializers.Serializer[Any]):
    """The viewer's own place in the game; every field is null for a viewer without a seat."""

    seat = serializers.IntegerField(allow_null=True)
    power = serializers.CharField(allow_null=True, help_text="Null until the game starts.")
    is_master = serializers.BooleanField()
    draw_vote = serializers.BooleanField(allow_null=True)
    concede_to = serializers.CharField(allow_null=True)
    vacation_days_left = serializers.IntegerField(allow_null=True)
    away_until = serializers.DateTimeField(allow_null=True)


class GameDetailSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    variant = serializers.CharField()
    variant_version = serializers.CharField()
    status = game_status()
    result = serializers.ChoiceField(
        choices=[r for r in Game.Result.values if r], allow_null=True, help_text="Null until the game ends."
    )
    winners = serializers.ListField(child=serializers.CharField())
    press = press_kind()
    options = serializers.DictField()
    phase_minutes = serializers.DictField(child=serializers.IntegerField())
    deadline_zone = serializers.CharField()
    grace_minutes = serializers.IntegerField()
    vacation_days = serializers.IntegerField(help_text="Each player's vacation allowance for the game.")
    missed_limit = serializers.IntegerField(help_text="Phases missed in a row before civil disorder.")
    min_reliability = serializers.IntegerField(help_text="Reliability (%) a player needs to take a seat.")
    min_rating = serializers.FloatField(allow_null=True, help_text="Rating a player needs to take a seat.")
    rated = serializers.BooleanField(help_text="Its ending changes the players' ratings.")
    replacement_approval = serializers.BooleanField(help_text="A master approves replacement players.")
    bots_fill_seats = serializers.BooleanField(help_text="Its masters may fill the empty seats with bots.")
    bots_play_disorder = serializers.BooleanField(help_text="Bots play powers in civil disorder.")
    replacement_grace_minutes = serializers.IntegerField(help_text="A replacement's least time to order.")
    end_year = serializers.IntegerField(allow_null=True)
    has_password = serializers.BooleanField()
    commitment = serializers.CharField(help_text="sha256 of the secret, public from the start.")
    secret = serializers.CharField(allow_null=True, help_text="Revealed when the game ends.")
    current_phase = _PhaseRefSerializer(allow_null=True)
    phases = serializers.IntegerField(help_text="How many phases there are so far.")
    waiting = serializers.ListField(child=serializers.CharField(), help_text="Powers yet to order.")
    next_map_change = serializers.CharField(allow_null=True, help_text="Null when none is coming.")
    powers = _SeatSerializer(many=True)
    me = _MeSerializer()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class GamesApi(APIView):
    """``GET``: games, newest first, filtered; ``POST``: create a game (its creator is its game master)."""

    pagination_class = Pagination
    permission_classes = [IsAuthenticatedOrReadOnly]
    throttle_classes = [WriteThrottle]

    class FilterSerializer(serializers.Serializer[Any]):
        status = serializers.ChoiceField(choices=Game.Status.values, required=False)
        open = serializers.BooleanField(required=False, help_text="Only games still taking players.")
        mine = serializers.BooleanField(required=False, help_text="Only games I play in or master.")
        variant = serializers.ChoiceField(choices=playable_slugs(), required=False)

    class ListOutputSerializer(serializers.Serializer[Any]):
        id = serializers.IntegerField()
        name = serializers.CharField()
        variant = serializers.CharField()
        status = game_status()
        press = press_kind()
        has_password = serializers.BooleanField()
        seats_taken = serializers.IntegerField()
        current_phase = _PhaseRefSerializer(allow_null=True)
        created_at = serializers.DateTimeField()

    class CreateInputSerializer(Input):
        name = serializers.CharField(max_length=100)
        variant = serializers.ChoiceField(
            choices=playable_slugs(),
            required=False,
            help_text="A variant of variants/ (or the generated board); leave out with studio_version.",
            error_messages={
                "invalid_choice": f"Unknown variant '{{input}}'; choose one of {', '.join(playable_slugs())}."
            },
        )
        studio_version = serializers.IntegerField(
            required=False,
            help_text="A published studio variant version to play (its id), instead of a variant.",
        )
        press = serializers.ChoiceField(choices=Game.Press.values, default=Game.Press.FULL)
        options = serializers.DictField(required=False, help_text='Timeline options, e.g. {"mode": "random"}')
        phase_minutes = serializers.DictField(
            child=serializers.IntegerField(min_value=1, max_value=60 * 24 * 60), required=False,
            help_text="Minutes per phase type: {\"M\": 1440, \"R\": 720, \"A\": 720}",
        )  # fmt: skip
        deadline_time = serializers.TimeField(required=False, allow_null=True)
        deadline_zone = serializers.CharField(max_length=64, default="UTC")
        grace_minutes = serializers.IntegerField(min_value=0, max_value=60 * 24 * 14, default=0)
        password = serializers.CharField(max_length=128, required=False, default="", write_only=True)
        assignment = serializers.ChoiceField(choices=Game.Assignment.values, default=Game.Assignment.RANDOM)
        missed_limit = serializers.IntegerField(min_value=1, max_value=100, default=2)
        vacation_days = serializers.IntegerField(min_value=0, max_value=365, default=0)
        min_reliability = serializers.IntegerField(
            min_value=0, max_value=100, default=0,
            help_text="Percent of their phases due a player must have ordered in to take a seat (0: anyone).",
        )  # fmt: skip
        min_rating = serializers.FloatField(
            required=False, allow_null=True, min_value=-1000, max_value=1000,
            help_text="Rating in the variant's family a player needs to take a seat (null: anyone).",
        )  # fmt: skip
        rated = serializers.BooleanField(default=True, help_text="Its ending changes the players' ratings.")
        replacement_approval = serializers.BooleanField(
            default=False, help_text="A replacement takes an open seat only once a game master approves."
        )
        bots_fill_seats = serializers.BooleanField(
            default=False, help_text="Its masters may start it with bots in the empty seats (then unrated)."
        )
        bots_play_disorder = serializers.BooleanField(
            default=False, help_text="A power in civil disorder is played by a bot until a person takes it."
        )
        replacement_grace_minutes = serializers.IntegerField(
            min_value=0, max_value=60 * 24 * 14, default=1440,
            help_text="A replacement has at least this long before the open phase's deadline.",
        )  # fmt: skip
        end_year = serializers.IntegerField(min_value=1, max_value=9999, required=False, allow_null=True)
        powers = serializers.IntegerField(
            min_value=GENERATED_POWERS[0], max_value=GENERATED_POWERS[1], required=False, allow_null=True,
            help_text="A generated board (Ice Lords) only: how many powers it is dealt for (default 6).",
        )  # fmt: skip
        seed = serializers.CharField(
            max_length=100, required=False, allow_null=True,
            help_text="A generated board only: deal it from this seed (the same seed, the same board).",
        )  # fmt: skip

    @extend_schema(parameters=[FilterSerializer], responses={200: ListOutputSerializer(many=True)})
    def get(self, request: Request) -> Response:
        filters = self.FilterSerializer(data=query_of(request))
        filters.is_valid(raise_exception=True)
        wanted = filters.validated_data
        games = selectors.game_list().annotate(seats_taken=Count("powers", distinct=True))
        if "status" in wanted:
            games = games.filter(status=wanted["status"])
        if wanted.get("open"):
            games = games.filter(status=Game.Status.FORMING)
        if "variant" in wanted:
            games = games.filter(variant=wanted["variant"])
        if wanted.get("mine"):
            user = request.user
            if not user.is_authenticated:
                games = games.none()
            else:
                games = games.filter(Q(powers__user=user) | Q(masters=user)).distinct()
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(games.order_by("-id"), request, view=self)
        rows = [
            {
                "id": g.id,
                "name": g.name,
                "variant": g.variant,
                "status": g.status,
                "press": g.press,
                "has_password": bool(g.join_password),
                "seats_taken": g.seats_taken,
                "current_phase": _phase_ref(g.current_phase),
                "created_at": g.created_at,
            }
            for g in page or []
        ]
        return paginator.get_paginated_response(self.ListOutputSerializer(rows, many=True).data)

    @extend_schema(request=CreateInputSerializer, responses={201: GameDetailSerializer, 404: None, 422: None})
    def post(self, request: Request) -> Response:
        data = self.CreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given = dict(data.validated_data)
        given["join_password"] = given.pop("password")
        given.setdefault("variant", "")  # a studio version names its own (game_create wants one of them)
        game = game_services.game_create(created_by=request.user, masters=[request.user], **given)
        return Response(game_detail_data(game.id, viewer_of(request, game)), status=status.HTTP_201_CREATED)


def game_detail_data(game_id: int, viewer: Viewer) -> dict[str, Any]:
    view = selectors.game_get(game_id=game_id)
    game = view.game
    try:
        upcoming: str | None = selectors.next_map_change(game=game)
    except Exception:  # a timeline problem must not hide the game; the admin shows it
        upcoming = None
    out = {
        "id": game.id,
        "name": game.name,
        "variant": game.variant,
        "variant_version": game.variant_version,
        "status": game.status,
        "result": game.result or None,
        "winners": game.winners,
        **{name: getattr(game, name) for name in SETTINGS},
        "has_password": bool(game.join_password),
        "secret": game.secret_revealed,
        "current_phase": _phase_ref(view.phase),
        "phases": len(view.phase_names),
        "waiting": view.waiting,
        "next_map_change": upcoming or None,
        "powers": power_rows(view, viewer),
        "me": my_seat(viewer),
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
    }
    return GameDetailSerializer(out).data


class GameDetailApi(APIView):
    """One game. Send ``If-None-Match`` with the last ``ETag`` to poll cheaply (304 when unchanged)."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: GameDetailSerializer, 304: None})
    def get(self, request: Request, game_id: int) -> Response:
        user_id = request.user.id if request.user.is_authenticated else None
        tag = game_tag(game_id, user_id, admin=bool(user_id and request.user.is_superuser))
        if tag is None:
            game_or_404(game_id)
        if tag and matches(request, tag):
            return not_modified(tag)
        game = game_or_404(game_id)
        response = Response(game_detail_data(game_id, viewer_of(request, game)))
        # No tag only if the game appeared after game_tag looked: answer untagged rather than "ETag: None".
        return response if tag is None else tagged(response, tag)


class GameJoinApi(APIView):
    """Take a seat; the game starts (powers assigned) when the last seat is taken."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    class InputSerializer(Input):
        password = serializers.CharField(max_length=128, required=False, default="", allow_blank=True)
        preferences = serializers.ListField(
            child=serializers.RegexField(r"^[A-Za-z_]{1,30}$", help_text="A power's name, e.g. FRANCE."),
            required=False, default=list, max_length=50,
        )  # fmt: skip

    @extend_schema(request=InputSerializer, responses={200: GameDetailSerializer, 409: None, 422: None})
    def post(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game_services.game_join(game_id=game.id, user=request.user, **data.validated_data)
        return Response(game_detail_data(game.id, viewer_of(request, game)))


class GameLeaveApi(APIView):
    """Give up a seat before the game starts."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(request=None, responses={204: None, 409: None})
    def post(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        seat_required(viewer_of(request, game), game)
        game_services.game_leave(game_id=game.id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class DrawVoteApi(APIView):
    """Vote for (or withdraw from) a draw among all survivors. Votes stay secret until unanimous."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    class InputSerializer(Input):
        phase = phase_field("this vote is")
        vote = serializers.BooleanField()

    class OutputSerializer(serializers.Serializer[Any]):
        vote = serializers.BooleanField()
        game_drawn = serializers.BooleanField()

    @extend_schema(request=InputSerializer, responses={200: OutputSerializer, 409: None, 422: None})
    def put(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        power_required(viewer_of(request, game, mastery=False), game)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        named, vote = data.validated_data["phase"].upper(), data.validated_data["vote"]
        drawn = game_services.game_draw_vote(game_id=game.id, user=request.user, vote=vote, phase=named)
        return Response(self.OutputSerializer({"vote": vote, "game_drawn": drawn}).data)


class ConcedeApi(APIView):
    """Concede the game to another surviving power; when every other survivor has, that power wins."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    class InputSerializer(Input):
        to = serializers.CharField(max_length=30)

    class OutputSerializer(serializers.Serializer[Any]):
        to = serializers.CharField()
        game_over = serializers.BooleanField()

    @extend_schema(request=InputSerializer, responses={200: OutputSerializer, 409: None, 422: None})
    def post(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        power_required(viewer_of(request, game, mastery=False), game)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        to = data.validated_data["to"].upper()
        over = game_services.game_concede(game_id=game.id, user=request.user, to=to)
        return Response(self.OutputSerializer({"to": to, "game_over": over}).data)


class VacationApi(APIView):
    """Take vacation days from my allowance for this game: the open phase's deadline moves on by that many
    days, and phases that open before I am back are due no earlier than my return."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    class InputSerializer(Input):
        days = serializers.IntegerField(min_value=1, max_value=365)

    class OutputSerializer(serializers.Serializer[Any]):
        days_left = serializers.IntegerField()
        away_until = serializers.DateTimeField()
        deadline = serializers.DateTimeField()

    @extend_schema(request=InputSerializer, responses={200: OutputSerializer, 409: None, 422: None})
    def post(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        seat = power_required(viewer_of(request, game, mastery=False), game)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        phase = power_vacation_take(game_id=game.id, user=request.user, days=data.validated_data["days"])
        seat.refresh_from_db(fields=["vacation_days_left", "away_until"])
        out = {"days_left": seat.vacation_days_left, "away_until": seat.away_until}
        return Response(self.OutputSerializer({**out, "deadline": phase.deadline}).data)


class GameMuteApi(APIView):
    """Whether I muted this game: a muted game sends me no mail and puts nothing in my inbox (my webhooks
    still hear it). ``PUT`` mutes or unmutes it, for its players and game masters."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    class InputSerializer(Input):
        muted = serializers.BooleanField()

    class OutputSerializer(serializers.Serializer[Any]):
        muted = serializers.BooleanField()

    @extend_schema(responses={200: OutputSerializer})
    def get(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        muted = cast(User, request.user).id in game.muted_by
        return Response(self.OutputSerializer({"muted": muted}).data)

    @extend_schema(request=InputSerializer, responses={200: OutputSerializer, 403: None})
    def put(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        muted = data.validated_data["muted"]
        game_mute(game_id=game.id, user=request.user, muted=muted)
        return Response(self.OutputSerializer({"muted": muted}).data)
