"""My orders for the current phase (read, replace all, delete), my legal options, and the ready flag.

Every order in an answer carries its validation result. Every write names the phase it is for; one naming
a phase that is not the one open for orders gets 409 Conflict: that is how a client learns the game moved
on while it was thinking. My orders carry a strong ``ETag`` (their version); a write with ``If-Match``
naming an older one gets 412, so two clients of one player never silently overwrite each other.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.core.cache import cache
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from dipserver.api.boards import in_play, variant_or_404
from dipserver.api.errors import Conflict, error_body, status_of
from dipserver.api.etag import matches, not_modified, tagged
from dipserver.api.inputs import Input
from dipserver.api.payloads import DrawingSerializer, OptionSerializer
from dipserver.api.permissions import game_or_404, power_required, viewer_of
from dipserver.api.schema import WHITESPACE, ErrorDetailSerializer
from dipserver.api.throttling import WriteThrottle
from dipserver.engine import legal_options
from dipserver.games.errors import GameError
from dipserver.games.mappers import board_of, position_of
from dipserver.games.models import Game, Order, Phase
from dipserver.games.selectors import orders_drawn
from dipserver.games.services import orders as order_services

MAX_ORDERS = 200
MAX_ORDER_LENGTH = 200
PHASE_NAME = r"^[SFWsfw]\d{1,4}[MRAmra]$"
_PHASE_EXACT = re.compile(PHASE_NAME[1:-1])  # the whole text, as the field sees it once stripped


def phase_field(what: str) -> serializers.RegexField:
    """The phase a write is for (required: a write for a phase that has closed must not land on the next)."""
    return serializers.RegexField(PHASE_NAME, help_text=f"The phase {what} for, e.g. S1901M.")


@extend_schema_field(
    {
        "type": "string",
        "minLength": 1,
        "maxLength": 200,
        "pattern": rf"^[^\x00\r\n]*[^\x00\r\n{WHITESPACE}][^\x00\r\n]*$",
    }
)
class OrderTextField(serializers.CharField):
    """One order: text on one line (``validate_orders`` says which item holds a line break)."""


_IF_MATCH = OpenApiParameter(
    "If-Match",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="The ETag of my orders as last read; 412 if they have changed since. Without it the "
    "write goes through.",
)


def _new_etag(*codes: int) -> OpenApiParameter:
    """The ETag header of answers to a write of my orders: the version they have now."""
    return OpenApiParameter(
        "ETag",
        str,
        OpenApiParameter.HEADER,
        response=list(codes),
        description="The new version of my orders (strong): send it as If-Match with the next write.",
    )


class _OrderResultSerializer(serializers.Serializer[Any]):
    text = serializers.CharField(help_text="As sent.")
    valid = serializers.BooleanField()
    normalised = serializers.CharField(allow_null=True, help_text="As stored; null when rejected.")
    reason = serializers.CharField(allow_null=True, help_text="Why it was rejected; null when valid.")
    drawing = DrawingSerializer(allow_null=True, help_text="How the map draws it; null when rejected.")


class _OrdersOutputSerializer(serializers.Serializer[Any]):
    phase = serializers.CharField()
    orders = _OrderResultSerializer(many=True)


class InvalidOrdersDetailSerializer(ErrorDetailSerializer):
    """A PUT's error: with ``invalid_orders``, every order with its result too (the valid ones are stored)."""

    phase = serializers.CharField(required=False, help_text="With invalid_orders: the phase.")
    orders = _OrderResultSerializer(many=True, required=False, help_text="With invalid_orders.")


class InvalidOrdersSerializer(serializers.Serializer[Any]):
    error = InvalidOrdersDetailSerializer()


def _player_or_refused(request: Request, game_id: int) -> Game:
    """The general checks, in their order: 404 for no game, 403 for a viewer who plays no power in it."""
    game = game_or_404(game_id)
    power_required(viewer_of(request, game, mastery=False), game)
    return game


def open_phase_or_409(game: Game, named: str | None = None, phase: Phase | None = None) -> Phase:
    """The phase taking orders now; 409 with the reason when there is none or it is not ``named``."""
    if phase is None and game.current_phase_id:
        phase = Phase.objects.filter(id=game.current_phase_id).first()
    if phase is None:
        raise Conflict(f"{game.name} has not started yet; there is no phase to order for.")
    if game.status == Game.Status.FINISHED:
        raise Conflict(f"{game.name} is over; no more orders are taken.")
    if game.status == Game.Status.PAUSED:
        raise Conflict(f"{game.name} is paused; orders are taken again when it resumes.")
    if named is not None and named.upper() != phase.name:
        raise Conflict(f"Orders for {named} are no longer taken: the game is in {phase.name}.")
    if phase.status != Phase.Status.OPEN:
        raise Conflict(f"{phase.name} is being processed; no more orders are taken.")
    return phase


def _refused_or_conflict(exc: GameError, game_id: int, named: str | None) -> Exception:
    """A refusal because the phase closed in the meantime is said as the conflict it is; any other keeps
    its own code (and so its status)."""
    game = game_or_404(game_id)
    try:
        open_phase_or_409(game, named)
    except Conflict as conflict:
        return conflict
    return exc


class OrdersApi(APIView):
    """``GET`` my orders; ``PUT`` replaces all of them; ``DELETE`` withdraws them."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    class ReplaceInputSerializer(Input):
        phase = phase_field("these orders are")
        orders = serializers.ListField(
            child=OrderTextField(max_length=MAX_ORDER_LENGTH, allow_blank=False), max_length=MAX_ORDERS,
            help_text="One order per item, e.g. \"A PAR - BUR\" (texts from the options endpoint).",
        )  # fmt: skip

        def validate_orders(self, value: list[str]) -> list[str]:
            bad = [i + 1 for i, text in enumerate(value) if "\n" in text or "\r" in text]
            if bad:
                raise serializers.ValidationError(f"One order per item; item(s) {bad} hold a line break.")
            return value

    @extend_schema(responses={200: _OrdersOutputSerializer, 304: None})
    def get(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        seat = power_required(viewer_of(request, game, mastery=False), game)
        phase_id = game.current_phase_id
        # The snapshot is not read here: the drawings read the orders on the phase's cached board.
        phase = Phase.objects.filter(id=phase_id).only("id", "name").first() if phase_id else None
        if phase is None:
            raise Conflict(f"{game.name} has not started yet.")
        # The version is read first: orders written meanwhile then come with an older tag, never newer.
        tag = order_services.orders_version_of(phase_id=phase.id, power_id=seat.id).tag
        if matches(request, tag):
            return not_modified(tag)
        texts = list(Order.objects.filter(phase=phase, power=seat).values_list("text", flat=True))
        drawings = orders_drawn(game=game, phase_id=phase.id, power=seat.name, texts=texts) if texts else []
        rows = [
            {"text": t, "valid": True, "normalised": t, "reason": None, "drawing": d}
            for t, d in zip(texts, drawings, strict=True)
        ]
        return tagged(Response(_OrdersOutputSerializer({"phase": phase.name, "orders": rows}).data), tag)

    @extend_schema(
        request=ReplaceInputSerializer,
        parameters=[_IF_MATCH, _new_etag(200, 422)],
        responses={200: _OrdersOutputSerializer, 409: None, 412: None, 422: InvalidOrdersSerializer},
        description="Replace all my orders. Valid orders are stored even when others are rejected; the "
        "answer is then 422 (invalid_orders) and lists every order with its result. Either answer carries "
        "the new ETag.",
    )
    def put(self, request: Request, game_id: int) -> Response:
        # The busiest write: straight to the service, which reads and locks what it needs in three
        # statements and refuses anything amiss; only then do the general checks run, to say how (404, 403,
        # 409 or the service's reason), in the order they would have answered.
        taken = replace_input_plain(request.data)
        if taken is None:  # anything unusual, every refusal among it: the serializer reads and says
            data = self.ReplaceInputSerializer(data=request.data)
            if not data.is_valid():
                _player_or_refused(request, game_id)
                data.is_valid(raise_exception=True)
            taken = data.validated_data["phase"], data.validated_data["orders"]
        named, texts = taken[0].upper(), taken[1]
        try:
            submission = order_services.orders_submit(
                game_id=game_id,
                user=request.user,
                text="\n".join(texts),
                phase=named,
                expected=request.META.get("HTTP_IF_MATCH"),  # request.headers would build them all
            )
        except GameError as exc:
            game = _player_or_refused(request, game_id)
            raise _refused_or_conflict(exc, game.id, named) from exc
        rows = _results(texts, submission)
        body = {"phase": submission.phase, "orders": rows}
        if submission.ok:  # the rows are already the output's plain values: no serializer pass
            return tagged(Response(body), submission.version.tag)
        bad = [r for r in rows if not r["valid"]]
        message = f"{len(bad)} of {len(rows)} orders were rejected (the valid ones are stored): " + "; ".join(
            f"{r['text']!r}: {r['reason']}" for r in bad
        )
        fields = {"orders": {str(i): r["reason"] for i, r in enumerate(rows) if not r["valid"]}}
        answer = Response(
            error_body("invalid_orders", message, fields, **_OrdersOutputSerializer(body).data),
            status=status_of("invalid_orders"),
        )
        return tagged(answer, submission.version.tag)  # the valid orders were stored: a new version

    class DeleteInputSerializer(Input):
        phase = phase_field("the orders withdrawn are")

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "phase",
                {"type": "string", "pattern": PHASE_NAME},
                required=True,
                description="The phase the orders withdrawn are for, e.g. S1901M (older clients send it "
                "in a JSON body instead).",
            ),
            _IF_MATCH,
            _new_etag(204),
        ],
        request=None,
        responses={204: None, 409: None, 412: None},
    )
    def delete(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        power_required(viewer_of(request, game, mastery=False), game)
        given = request.query_params if "phase" in request.query_params else request.data
        named = given.get("phase") if isinstance(given, Mapping) else None  # a body may be any JSON
        data = self.DeleteInputSerializer(data={} if named is None else {"phase": named})
        data.is_valid(raise_exception=True)
        phase = open_phase_or_409(game, data.validated_data["phase"].upper())
        try:
            submission = order_services.orders_submit(
                game_id=game.id,
                user=request.user,
                text="",
                phase=phase.name,
                expected=request.headers.get("If-Match"),
            )
        except GameError as exc:
            raise _refused_or_conflict(exc, game.id, phase.name) from exc
        return tagged(Response(status=status.HTTP_204_NO_CONTENT), submission.version.tag)


def replace_input_plain(data: Any) -> tuple[str, list[str]] | None:
    """A PUT body read without the serializer, when it is plainly one it takes: a JSON object whose
    ``phase`` is a phase name and whose ``orders`` are up to ``MAX_ORDERS`` texts of printable ASCII
    (after stripping, as the serializer strips them: 1 to ``MAX_ORDER_LENGTH`` characters, on one line).
    The phase and the stripped texts, exactly what the serializer's ``validated_data`` would hold; None
    for any other body, which the serializer then reads (and refuses or takes, as always). DRF builds a
    serializer's fields afresh for every request (deep copies of the declared ones) and runs each value
    through several validators: about a tenth of an order PUT's CPU."""
    if type(data) is not dict:
        return None
    phase, orders = data.get("phase"), data.get("orders")
    if type(phase) is not str or _PHASE_EXACT.fullmatch(phase) is None:
        return None
    if type(orders) is not list or len(orders) > MAX_ORDERS:
        return None
    texts = []
    for item in orders:
        if type(item) is not str:
            return None
        text = item.strip()
        # Printable ASCII only: no line break, null or surrogate to refuse, and str.strip() then strips
        # nothing the field's validators would see differently.
        if not 0 < len(text) <= MAX_ORDER_LENGTH or not text.isascii() or not text.isprintable():
            return None
        texts.append(text)
    return phase, texts


def _results(texts: list[str], submission: Any) -> list[dict[str, Any]]:
    """Each order sent with its fate (and, if stored, its drawing); the service numbers lines from 1 and
    stores the valid ones in order."""
    rejected = {r.line: r.reason for r in submission.rejected}
    accepted = iter(zip(submission.accepted, submission.drawings, strict=True))
    rows = []
    for number, text in enumerate(texts, start=1):
        if number in rejected:
            rows.append(_refused(text, rejected[number]))
        elif text.strip() and not text.strip().startswith("#"):
            stored, drawing = next(accepted, (text, None))
            rows.append(
                {"text": text, "valid": True, "normalised": stored, "reason": None, "drawing": drawing}
            )
        else:
            rows.append(_refused(text, "Not an order (blank)."))
    return rows


def _refused(text: str, reason: str) -> dict[str, Any]:
    return {"text": text, "valid": False, "normalised": None, "reason": reason, "drawing": None}


class OptionsApi(APIView):
    """Every legal order for each of my units (or my builds in an adjustment phase). Send an option's
    ``text`` back unchanged as an order."""

    permission_classes = [IsAuthenticated]

    class OutputSerializer(serializers.Serializer[Any]):
        power = serializers.CharField()
        phase = serializers.CharField()
        adjustment = serializers.IntegerField(help_text="Builds (>0) or disbands (<0) due.")
        units = serializers.DictField(
            child=OptionSerializer(many=True),
            help_text="Unit location -> options, each {text, kind, ...order fields}.",
        )
        builds = OptionSerializer(many=True)
        conversions = OptionSerializer(
            many=True,
            help_text="Conversion orders open now. Deluge's \"A POR becomes fleet\" is the army's order "
            "for the phase (it holds meanwhile, and another order for it is refused); Wall of Ice's "
            '"F BRE becomes army" is a Winter order; Sahara\'s "F NAO stays fleet" is a flag sent beside '
            "the fleet's own movement order.",
        )
        module_orders = OptionSerializer(
            many=True,
            help_text='Rule module orders open now: "establish depot PAR" (supply lines), '
            '"place blizzard MUN" / "remove blizzard MUN" (Snow Storm).',
        )
        builds_first = serializers.ListField(
            child=serializers.CharField(),
            help_text="Deluge: the free home centres; a build elsewhere is accepted only when each of them "
            "gets a build too. Empty in other variants.",
        )
        builds_elsewhere = serializers.IntegerField(
            allow_null=True,
            help_text="Deluge: how many builds may go outside builds_first this Winter (builds elsewhere "
            "are offered only when this is more than 0); null when builds go in any site offered.",
        )

    @extend_schema(responses={200: OutputSerializer, 409: None})
    def get(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        seat = power_required(viewer_of(request, game, mastery=False), game)
        phase = open_phase_or_409(game)
        key = f"dipserver:options:{OPTIONS_FORMAT}:{game.commitment}:{game.version}:{phase.id}:{seat.name}"
        data = cache.get(key)
        if data is None:
            data = self.OutputSerializer(_options_of(game, phase, seat.name)).data
            cache.set(key, data, OPTIONS_CACHE_SECONDS)
        return Response(data)


# How long a phase's listed options are kept. The key names everything they depend on (the game, its
# version, which any change to its settings bumps, the phase row, whose snapshot is fixed while it is open,
# and the power), so this only bounds the memory they take.
OPTIONS_CACHE_SECONDS = 6 * 3600
# Raised whenever what the engine offers or the answer's shape changes, so that options an older release
# cached (e.g. Deluge builds elsewhere it then refused, without builds_first) are not served after an
# upgrade. 2: Deluge's builds_first and builds_elsewhere. 3: each option's drawing.
OPTIONS_FORMAT = 3


def _options_of(game: Game, phase: Phase, power: str) -> dict[str, Any]:
    """The legal options of ``power`` in the open ``phase``, computed only when a client asks for them."""
    board = board_of(variant_or_404(game), phase.snapshot)
    modules = in_play(game, phase.snapshot)
    return legal_options(board, position_of(phase.snapshot), power, modules=modules).to_data()


class ReadyApi(APIView):
    """Mark my power ready (or not). When every power with orders to give is ready, the phase is
    processed at once."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    class InputSerializer(Input):
        phase = phase_field("this is")
        ready = serializers.BooleanField()

    class OutputSerializer(serializers.Serializer[Any]):
        ready = serializers.BooleanField()
        phase_due = serializers.BooleanField(help_text="Everyone is ready: processing has been queued.")

    @extend_schema(request=InputSerializer, responses={200: OutputSerializer, 409: None, 422: None})
    def put(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        power_required(viewer_of(request, game, mastery=False), game)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        named, ready = data.validated_data["phase"].upper(), data.validated_data["ready"]
        phase = open_phase_or_409(game, named)
        try:
            due = order_services.power_ready_set(
                game_id=game.id, user=request.user, ready=ready, phase=phase.name
            )
        except GameError as exc:
            raise _refused_or_conflict(exc, game.id, phase.name) from exc
        return Response(self.OutputSerializer({"ready": ready, "phase_due": due}).data)
