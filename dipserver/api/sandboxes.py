"""Sandboxes: a player's private board for trying positions, from a variant's start, a game's phase or a
studio draft.

A sandbox is its owner's. Anyone else sees it only with its share token (``?token=`` or the
``X-Share-Token`` header), read-only; without it, it does not exist (404). Every request is rate-limited
(``SandboxThrottle``). The steps' own endpoints (orders, options, playing, the map) are in
``sandbox_steps.py``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from dipserver.api.inputs import Input
from dipserver.api.pagination import Pagination
from dipserver.api.throttling import SandboxThrottle, WriteThrottle
from dipserver.sandbox import services
from dipserver.sandbox.errors import SandboxError
from dipserver.sandbox.models import Sandbox
from dipserver.sandbox.selectors import powers_of, sandbox_seen, sandboxes_of, step_tree, steps_of

TOKEN = OpenApiParameter(
    "token", str, required=False, description="The share token of a sandbox shared with you (read-only)."
)
# What a sandbox's summary tells of where it came from.
ORIGIN_KEYS = ("game", "phase", "name", "game_name", "draft", "slug", "revision")


def sandbox_visible(request: Request, sandbox_id: int) -> tuple[Sandbox, bool]:
    """The sandbox and whether the caller owns it; 404 unless theirs or named by its share token."""
    token = request.query_params.get("token") or request.META.get("HTTP_X_SHARE_TOKEN")
    return sandbox_seen(sandbox_id=sandbox_id, user=request.user, token=token)


def sandbox_owned(request: Request, sandbox_id: int) -> Sandbox:
    """The caller's own sandbox, to change; a shared one is read-only (403), any other a 404."""
    sandbox, mine = sandbox_visible(request, sandbox_id)
    if not mine:
        raise SandboxError("A shared sandbox is read-only: copy it to change it", code="not_yours")
    return sandbox


def cleanup_due(sandbox: Sandbox) -> dt.datetime | None:
    """When an idle sandbox will be deleted, once its owner has been told; None otherwise."""
    if sandbox.cleanup_noticed_at is None:
        return None
    return sandbox.cleanup_noticed_at + dt.timedelta(days=settings.DIPSERVER_SANDBOX_NOTICE_DAYS)


def summary(sandbox: Sandbox, mine: bool) -> dict[str, Any]:
    return {
        "id": sandbox.id,
        "title": sandbox.title,
        "variant": sandbox.variant,
        "source": sandbox.source,
        "origin": {k: v for k, v in sandbox.origin.items() if k in ORIGIN_KEYS},
        "options": sandbox.options,
        "yours": mine,
        "shared": bool(sandbox.share_token),
        "share_url": share_url(sandbox) if mine and sandbox.share_token else None,
        "page_url": reverse("sandbox", args=[sandbox.id]),
        "created_at": sandbox.created_at,
        "used_at": sandbox.used_at,
        "cleanup_due": cleanup_due(sandbox) if mine else None,
    }


def share_url(sandbox: Sandbox) -> str:
    return reverse("sandbox-shared", args=[sandbox.share_token])


class _SummarySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    title = serializers.CharField()
    variant = serializers.CharField()
    # A field named as a Field attribute (source, parent) is plain data to DRF; only the stubs object.
    source = serializers.CharField(help_text="variant, game, draft or copy")  # type: ignore[assignment]
    origin = serializers.DictField(
        help_text="A game's sandbox: game, phase (index), name, game_name; a draft's: draft, slug, revision."
    )
    options = serializers.DictField()
    yours = serializers.BooleanField()
    shared = serializers.BooleanField()
    share_url = serializers.CharField(allow_null=True, help_text="The read-only page; null unless shared.")
    page_url = serializers.CharField()
    created_at = serializers.DateTimeField()
    used_at = serializers.DateTimeField()
    cleanup_due = serializers.DateTimeField(
        allow_null=True, help_text="Unused for long: deleted then unless opened before."
    )


class _StepRowSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    phase = serializers.CharField()
    status = serializers.CharField(help_text="open (takes orders) or played")
    parent = serializers.IntegerField(allow_null=True, help_text="The step played to reach it.")  # type: ignore[assignment]
    branched_from = serializers.IntegerField(allow_null=True)
    children = serializers.ListField(child=serializers.IntegerField())


class _PowerSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    display_name = serializers.CharField()
    colour = serializers.CharField()


class _DetailSerializer(_SummarySerializer):
    powers = _PowerSerializer(many=True)
    steps = _StepRowSerializer(many=True)


def detail(sandbox: Sandbox, mine: bool) -> dict[str, Any]:
    return {**summary(sandbox, mine), "powers": powers_of(sandbox), "steps": step_tree(steps_of(sandbox))}


class SandboxListApi(APIView):
    """``GET`` my sandboxes, most recently used first; ``POST`` opens a new one: from a variant's start
    (``variant``, with a game's ``options``, a ``secret`` for random draws, ``powers``/``seed`` for a
    generated board), from a game's phase (``game``, ``phase`` index, the current one by default: as you
    see it, with your own orders only while it is open) or from the start of your own studio ``draft`` (it
    must check clean; ``revision``: the one you see), played with the draft's files and drawing as they are
    now."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [SandboxThrottle, WriteThrottle]
    pagination_class = Pagination

    class InputSerializer(Input):
        title = serializers.CharField(required=False, allow_blank=True, max_length=100)
        variant = serializers.CharField(required=False, max_length=50)
        options = serializers.DictField(required=False)
        secret = serializers.CharField(required=False, allow_blank=True, max_length=64, trim_whitespace=False)
        powers = serializers.IntegerField(required=False, min_value=1, max_value=20)
        seed = serializers.CharField(required=False, max_length=100, trim_whitespace=False)
        game = serializers.IntegerField(required=False, min_value=1)
        phase = serializers.IntegerField(required=False, min_value=0, allow_null=True)
        draft = serializers.IntegerField(required=False, min_value=1)
        revision = serializers.IntegerField(
            required=False, min_value=1, help_text="The draft's revision you see: refused if saved since."
        )

    @extend_schema(responses={200: _SummarySerializer(many=True)})
    def get(self, request: Request) -> Response:
        paginator = Pagination()
        page = paginator.paginate_queryset(sandboxes_of(request.user), request, view=self)
        rows = [summary(s, True) for s in page or []]
        return paginator.get_paginated_response(_SummarySerializer(rows, many=True).data)

    @extend_schema(
        request=InputSerializer, responses={201: _DetailSerializer, 404: None, 409: None, 422: None}
    )
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        if sum(key in given for key in ("variant", "game", "draft")) != 1:  # nothing (or two) to start from
            raise SandboxError("Give one of a variant, a game or a draft to start from", code="refused")
        if "draft" in given:
            sandbox = services.sandbox_from_draft(
                owner=request.user,
                draft_id=given["draft"],
                revision=given.get("revision"),
                secret=given.get("secret") or None,
                title=given.get("title", ""),
            )
        elif "game" in given:
            sandbox = services.sandbox_from_game(
                owner=request.user,
                game_id=given["game"],
                index=given.get("phase"),
                secret=given.get("secret") or None,
                title=given.get("title", ""),
            )
        else:
            sandbox = services.sandbox_from_variant(
                owner=request.user,
                slug=given["variant"],
                options=given.get("options"),
                secret=given.get("secret") or None,
                powers=given.get("powers"),
                seed=given.get("seed"),
                title=given.get("title", ""),
            )
        return Response(_DetailSerializer(detail(sandbox, True)).data, status=status.HTTP_201_CREATED)


class SandboxDetailApi(APIView):
    """``GET`` one sandbox with its tree of steps (yours, or shared with you: ``?token=``); ``PATCH`` its
    ``title`` or ``shared`` (a share link is made, or withdrawn); ``DELETE`` it with every step."""

    permission_classes = [AllowAny]
    throttle_classes = [SandboxThrottle, WriteThrottle]

    class PatchSerializer(Input):
        title = serializers.CharField(required=False, max_length=100)
        shared = serializers.BooleanField(required=False)

    @extend_schema(parameters=[TOKEN], responses={200: _DetailSerializer})
    def get(self, request: Request, sandbox_id: int) -> Response:
        sandbox, mine = sandbox_visible(request, sandbox_id)
        if mine:
            services.sandbox_touch(sandbox)
            sandbox.cleanup_noticed_at = None
        return Response(_DetailSerializer(detail(sandbox, mine)).data)

    @extend_schema(request=PatchSerializer, responses={200: _DetailSerializer, 403: None})
    def patch(self, request: Request, sandbox_id: int) -> Response:
        sandbox = sandbox_owned(request, sandbox_id)
        data = self.PatchSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        services.sandbox_update(sandbox=sandbox, title=given.get("title"), shared=given.get("shared"))
        return Response(_DetailSerializer(detail(sandbox, True)).data)

    @extend_schema(responses={204: None, 403: None})
    def delete(self, request: Request, sandbox_id: int) -> Response:
        services.sandbox_delete(sandbox=sandbox_owned(request, sandbox_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class SandboxCopyApi(APIView):
    """A copy of a sandbox, every step of it, as a new sandbox of yours: your own, or one shared with
    you (``?token=``)."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [SandboxThrottle, WriteThrottle]

    @extend_schema(parameters=[TOKEN], request=None, responses={201: _DetailSerializer, 409: None})
    def post(self, request: Request, sandbox_id: int) -> Response:
        sandbox, _ = sandbox_visible(request, sandbox_id)
        copy = services.sandbox_copy(sandbox=sandbox, owner=request.user)
        return Response(_DetailSerializer(detail(copy, True)).data, status=status.HTTP_201_CREATED)
