"""A sandbox's steps: one step's position and results, its map, playing it, branching it, editing its
position, and each power's orders, options and coming map changes in the shapes a game's endpoints
give (so a client, the game page's components included, orders in a sandbox as in a game).

Reading takes the sandbox's owner or its share token (``sandboxes.sandbox_visible``); writing, the owner.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from dipserver.api.boards import timeline_entries
from dipserver.api.errors import Conflict, error_body, status_of
from dipserver.api.inputs import Input
from dipserver.api.orders import MAX_ORDER_LENGTH, MAX_ORDERS
from dipserver.api.phases import public_modules
from dipserver.api.sandboxes import TOKEN, sandbox_owned, sandbox_visible
from dipserver.api.throttling import SandboxThrottle, WriteThrottle
from dipserver.core.content_security import styles_allowed
from dipserver.games.errors import GameError
from dipserver.games.variants import game_variant
from dipserver.render import GeometryError, render_svg
from dipserver.render.style import stylesheet
from dipserver.sandbox import services
from dipserver.sandbox.models import Sandbox, Step
from dipserver.sandbox.selectors import (
    OrderLine,
    step_coming,
    step_of,
    step_options,
    step_orders_read,
    step_picture_args,
    step_tree,
    steps_of,
)
from dipserver.sandbox.standin import standin_game

_THROTTLES = [SandboxThrottle, WriteThrottle]


def step_out(sandbox: Sandbox, step: Step) -> dict[str, Any]:
    """The step as a game's phase is given (``phases.PhaseDetailApi``), with its place in the tree."""
    [row] = [r for r in step_tree(steps_of(sandbox)) if r["number"] == step.number]
    snapshot = step.snapshot
    return {
        **row,
        "map": snapshot["map"],
        "units": snapshot["units"],
        "dislodged": snapshot["dislodged"],
        "owners": snapshot["owners"],
        "orders": step.orders,
        "results": step.results,
        "events": step.events,
        "skipped": step.skipped,
        "modules": public_modules(snapshot),
        "outcome": step.outcome or None,
    }


class _StepSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    phase = serializers.CharField()
    status = serializers.CharField(help_text="open (takes orders) or played")
    parent = serializers.IntegerField(allow_null=True)  # type: ignore[assignment]  # a Field attribute
    branched_from = serializers.IntegerField(allow_null=True)
    children = serializers.ListField(child=serializers.IntegerField())
    map = serializers.DictField()
    units = serializers.ListField(child=serializers.DictField())
    dislodged = serializers.ListField(child=serializers.DictField())
    owners = serializers.DictField(child=serializers.CharField())
    orders = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))
    results = serializers.ListField(child=serializers.DictField(), help_text="Once played: one per order.")
    events = serializers.ListField(child=serializers.DictField())
    skipped = serializers.ListField(child=serializers.CharField())
    modules = serializers.DictField(allow_null=True)
    outcome = serializers.DictField(
        allow_null=True, help_text="The game's end, if this step's play ended it."
    )


class StepDetailApi(APIView):
    """One step: the position, the orders given for it and, once played, their results and the map
    changes that followed."""

    permission_classes = [AllowAny]
    throttle_classes = _THROTTLES

    @extend_schema(parameters=[TOKEN], responses={200: _StepSerializer})
    def get(self, request: Request, sandbox_id: int, number: int) -> Response:
        sandbox, _ = sandbox_visible(request, sandbox_id)
        return Response(_StepSerializer(step_out(sandbox, step_of(sandbox, number))).data)


class StepPlayApi(APIView):
    """Adjudicate an open step with the orders given (a power without orders holds, or as the rules
    say) and add the position that follows as a new step, which is answered."""

    permission_classes = [IsAuthenticated]
    throttle_classes = _THROTTLES

    @extend_schema(request=None, responses={201: _StepSerializer, 409: None})
    def post(self, request: Request, sandbox_id: int, number: int) -> Response:
        sandbox = sandbox_owned(request, sandbox_id)
        child = services.step_play(sandbox=sandbox, number=number)
        return Response(_StepSerializer(step_out(sandbox, child)).data, status=status.HTTP_201_CREATED)


class StepBranchApi(APIView):
    """A new open step beside this one, with the same position and orders: to try it again differently."""

    permission_classes = [IsAuthenticated]
    throttle_classes = _THROTTLES

    @extend_schema(request=None, responses={201: _StepSerializer, 409: None})
    def post(self, request: Request, sandbox_id: int, number: int) -> Response:
        sandbox = sandbox_owned(request, sandbox_id)
        branch = services.step_branch(sandbox=sandbox, number=number)
        return Response(_StepSerializer(step_out(sandbox, branch)).data, status=status.HTTP_201_CREATED)


class _PlaceSerializer(Input):
    power = serializers.CharField(max_length=30)
    type = serializers.ChoiceField(choices=["A", "F"])
    location = serializers.CharField(max_length=10)


class StepSetupApi(APIView):
    """Edit an open step's position: ``remove`` the units in these provinces, ``place`` units (replacing
    any in the province) and set centre ``owners`` (``null``: nobody)."""

    permission_classes = [IsAuthenticated]
    throttle_classes = _THROTTLES

    class InputSerializer(Input):
        place = _PlaceSerializer(many=True, required=False)
        remove = serializers.ListField(child=serializers.CharField(max_length=10), required=False)
        owners = serializers.DictField(child=serializers.CharField(allow_null=True), required=False)

    @extend_schema(request=InputSerializer, responses={200: _StepSerializer, 409: None, 422: None})
    def post(self, request: Request, sandbox_id: int, number: int) -> Response:
        sandbox = sandbox_owned(request, sandbox_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        step = services.step_setup(
            sandbox=sandbox,
            number=number,
            place=given.get("place", []),
            remove=given.get("remove", []),
            owners=given.get("owners"),
        )
        return Response(_StepSerializer(step_out(sandbox, step)).data)


class StepMapSvgApi(APIView):
    """The step drawn as SVG: its orders and results once played, the next map change outlined."""

    permission_classes = [AllowAny]
    throttle_classes = _THROTTLES

    @extend_schema(parameters=[TOKEN], responses={(200, "image/svg+xml"): OpenApiTypes.STR})
    def get(self, request: Request, sandbox_id: int, number: int) -> HttpResponse:
        sandbox, _ = sandbox_visible(request, sandbox_id)
        step = step_of(sandbox, number)
        try:
            svg = render_svg(**step_picture_args(sandbox, step))
        except GeometryError as exc:
            raise NotFound(f"There is no drawing of this map yet: {exc}") from exc
        response = HttpResponse(svg, content_type="image/svg+xml")
        response["Cache-Control"] = "private, no-cache"
        return styles_allowed(response, [stylesheet(game_variant(standin_game(sandbox)))])


class StepTimelineApi(APIView):
    """What the map changes when, seen from the step (the game timeline's shape), and what the coming
    changes do to the units and centres of ``power`` (a path segment: ``mine``) or, without it, of every
    power (``powers``: power -> the same rows; a power untouched has none)."""

    permission_classes = [AllowAny]
    throttle_classes = _THROTTLES

    @extend_schema(parameters=[TOKEN], responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, sandbox_id: int, number: int, power: str | None = None) -> Response:
        sandbox, _ = sandbox_visible(request, sandbox_id)
        step = step_of(sandbox, number)
        game = standin_game(sandbox, step)
        name = step.snapshot["phase"]
        try:
            entries, undrawn = timeline_entries(game, name)
            mine = step_coming(sandbox, step, power) if power else None
            every = None if power else {p: step_coming(sandbox, step, p) for p in _powers(sandbox)}
        except GameError as exc:
            raise NotFound(f"The timeline of this sandbox cannot be read: {exc}") from exc
        state = (step.snapshot.get("modules") or {}).get("state") or {}
        out: dict[str, Any] = {
            "mode": sandbox.options.get("mode", "exact"),
            "phase": name,
            "entries": entries,
            "undrawn": undrawn,
            "blizzards": {"phase": name, "provinces": sorted(state.get("blizzards", []))}
            if sandbox.options.get("blizzards")
            else None,
        }
        if mine is not None:
            out["mine"] = mine
        if every is not None:
            out["powers"] = {p: rows for p, rows in every.items() if rows}
        return Response(out)


def _powers(sandbox: Sandbox) -> list[str]:
    return list(game_variant(standin_game(sandbox)).powers)


def _open_named(sandbox: Sandbox, number: int, named: str | None) -> Step:
    step = step_of(sandbox, number)
    if step.status != Step.Status.OPEN:
        raise Conflict(f"Step {number} has been played: branch it to give other orders.")
    if named is not None and named.upper() != step.snapshot["phase"]:
        raise Conflict(f"Step {number} is {step.snapshot['phase']}, not {named.upper()}.")
    return step


def _row(line: OrderLine) -> dict[str, Any]:
    """An order line as a game's orders answer gives it (with how the map draws a kept one)."""
    return {
        "text": line.text,
        "valid": line.valid,
        "normalised": line.normalised,
        "reason": line.reason,
        "drawing": line.drawing,
    }


class PowerOrdersApi(APIView):
    """One power's orders for an open step, as a game's orders endpoint gives them: ``GET``; ``PUT``
    replaces them (the valid ones are kept, the answer says why the others are not: 422
    ``invalid_orders``); ``DELETE`` withdraws them."""

    permission_classes = [IsAuthenticated]
    throttle_classes = _THROTTLES

    class InputSerializer(Input):
        phase = serializers.CharField(required=False, max_length=8)
        orders = serializers.ListField(
            child=serializers.CharField(max_length=MAX_ORDER_LENGTH), max_length=MAX_ORDERS
        )

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, sandbox_id: int, number: int, power: str) -> Response:
        sandbox = sandbox_owned(request, sandbox_id)
        step = step_of(sandbox, number)
        texts = step.orders.get(power, [])
        lines = step_orders_read(sandbox=sandbox, step=step, power=power, texts=texts) if texts else []
        return Response({"phase": step.snapshot["phase"], "orders": [_row(line) for line in lines]})

    @extend_schema(request=InputSerializer, responses={200: OpenApiTypes.OBJECT, 409: None, 422: None})
    def put(self, request: Request, sandbox_id: int, number: int, power: str) -> Response:
        sandbox = sandbox_owned(request, sandbox_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        step = _open_named(sandbox, number, data.validated_data.get("phase"))
        texts = data.validated_data["orders"]
        lines = services.step_orders_set(sandbox=sandbox, number=step.number, power=power, texts=texts)
        rows = [_row(line) for line in lines]
        body = {"phase": step.snapshot["phase"], "orders": rows}
        bad = [r for r in rows if not r["valid"]]
        if not bad:
            return Response(body)
        message = f"{len(bad)} of {len(rows)} orders were rejected (the valid ones are kept): " + "; ".join(
            f"{r['text']!r}: {r['reason']}" for r in bad
        )
        fields = {"orders": {str(i): r["reason"] for i, r in enumerate(rows) if not r["valid"]}}
        return Response(
            error_body("invalid_orders", message, fields, **body), status=status_of("invalid_orders")
        )

    @extend_schema(request=None, responses={204: None, 409: None, 422: None})
    def delete(self, request: Request, sandbox_id: int, number: int, power: str) -> Response:
        sandbox = sandbox_owned(request, sandbox_id)
        step = _open_named(sandbox, number, request.query_params.get("phase"))
        services.step_orders_set(sandbox=sandbox, number=step.number, power=power, texts=[])
        return Response(status=status.HTTP_204_NO_CONTENT)


class PowerOptionsApi(APIView):
    """Every legal order of one power in an open step, as a game's options endpoint gives them."""

    permission_classes = [IsAuthenticated]
    throttle_classes = _THROTTLES

    @extend_schema(responses={200: OpenApiTypes.OBJECT, 409: None})
    def get(self, request: Request, sandbox_id: int, number: int, power: str) -> Response:
        sandbox = sandbox_owned(request, sandbox_id)
        step = _open_named(sandbox, number, None)
        return Response(step_options(sandbox, step, power))
