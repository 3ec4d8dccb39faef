"""The variant studio's API: a game master's drafts (private), their check, their SVG map, packages in
and out, and publishing frozen versions; site admins unpublish. Every refusal is a ``StudioError`` whose
code ``dipserver/api/errors.py`` maps to its status; a mistake names its provinces."""

from __future__ import annotations

import base64
import binascii
from typing import Any

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from dipserver.api.inputs import Input
from dipserver.api.press import IDEMPOTENCY_KEY_PATTERN, idempotency_key
from dipserver.api.studio_payloads import (
    DraftCheckSerializer,
    DraftListSerializer,
    DraftSerializer,
    SvgImportSerializer,
    VersionListSerializer,
    VersionSerializer,
    VersionSummarySerializer,
)
from dipserver.api.throttling import WriteThrottle
from dipserver.studio import imports, services
from dipserver.studio.errors import StudioError
from dipserver.studio.models import Draft, SvgImport, VariantVersion
from dipserver.studio.package import Package, package_bytes
from dipserver.studio.selectors import draft_of, draft_report, drafts_of, version_of, versions_visible


def draft_summary(draft: Draft) -> dict[str, Any]:
    return {
        "id": draft.id,
        "slug": draft.slug,
        "name": str(draft.data.get("variant", {}).get("name", draft.slug)),
        "revision": draft.revision,
        "updated_at": draft.updated_at.isoformat(),
        "has_drawing": draft.geometry is not None,
    }


def draft_detail(draft: Draft) -> dict[str, Any]:
    return {
        **draft_summary(draft),
        "tables": draft.data,
        "geometry": draft.geometry,
        "svg": draft.svg or None,
    }


def version_summary(version: VariantVersion) -> dict[str, Any]:
    return {
        "id": version.id,
        "slug": version.slug,
        "number": version.number,
        "name": version.name,
        "author": version.author.username,
        "version": version.version,
        "published": version.published,
        "published_at": version.published_at.isoformat(),
        "unpublished_at": version.unpublished_at.isoformat() if version.unpublished_at else None,
    }


def _zip(package: Package) -> HttpResponse:
    response = HttpResponse(package_bytes(package), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{package.slug}.zip"'
    return response


class _StudioApi(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]


class DraftListApi(_StudioApi):
    """My drafts; creating one (blank, from an installed variant's map, or from a published version)."""

    class InputSerializer(Input):
        slug = serializers.CharField(max_length=40)
        name = serializers.CharField(max_length=100, required=False)
        start_from = serializers.CharField(required=False, help_text="An installed variant to extend.")
        from_version = serializers.IntegerField(required=False, help_text="A published version to copy.")

    @extend_schema(operation_id="v1_studio_drafts_list", responses={200: DraftListSerializer})
    def get(self, request: Request) -> Response:
        return Response({"results": [draft_summary(d) for d in drafts_of(request.user)]})

    @extend_schema(request=InputSerializer, responses={201: DraftSerializer, 403: None, 409: None, 422: None})
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        if "from_version" in given:
            draft = services.draft_from_version(
                user=request.user, version_id=given["from_version"], slug=given["slug"]
            )
        else:
            draft = services.draft_create(
                user=request.user,
                slug=given["slug"],
                name=given.get("name", given["slug"]),
                start_from=given.get("start_from"),
            )
        return Response(draft_detail(draft), status=status.HTTP_201_CREATED)


class DraftDetailApi(_StudioApi):
    """One of my drafts: read it, save it as edited (with the revision it was loaded at), delete it."""

    class InputSerializer(Input):
        tables = serializers.DictField(
            help_text="The draft's files as tables: variant, map, start, timeline."
        )
        revision = serializers.IntegerField(min_value=1)

    @extend_schema(responses={200: DraftSerializer, 404: None})
    def get(self, request: Request, draft_id: int) -> Response:
        return Response(draft_detail(draft_of(request.user, draft_id)))

    @extend_schema(request=InputSerializer, responses={200: DraftSerializer, 404: None, 409: None, 422: None})
    def put(self, request: Request, draft_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        draft = services.draft_save(
            user=request.user, draft_id=draft_id, data=given["tables"], revision=given["revision"]
        )
        return Response(draft_detail(draft))

    @extend_schema(responses={204: None, 404: None})
    def delete(self, request: Request, draft_id: int) -> Response:
        services.draft_delete(user=request.user, draft_id=draft_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class DraftCheckApi(_StudioApi):
    """The engine's check of my draft: problems (each beside its provinces), notes, and the timeline's
    changes season by season, for the preview."""

    @extend_schema(responses={200: DraftCheckSerializer, 404: None})
    def get(self, request: Request, draft_id: int) -> Response:
        return Response(draft_report(draft_of(request.user, draft_id)).as_data())


class DraftSvgApi(_StudioApi):
    """Give my draft an SVG map (the file's text). Sanitised and bounded at once (413, 422); its shapes
    and borders are read by a worker: the answer is 202 with the import job, polled at its ``url``. The
    same upload again (its Idempotency-Key, or the same drawing for the same revision) is the same job."""

    class InputSerializer(Input):
        svg = serializers.CharField(trim_whitespace=False)
        revision = serializers.IntegerField(min_value=1)

    @extend_schema(
        request=InputSerializer,
        parameters=[
            OpenApiParameter(
                "Idempotency-Key", {"type": "string", "pattern": IDEMPOTENCY_KEY_PATTERN},
                OpenApiParameter.HEADER, required=False,
                description="A key of my choosing (e.g. a UUID) per upload: sent again with the same key, "
                "it answers the same job; the key with an upload to another draft is refused with 422 "
                "`idempotency_key_reused`.",
            )
        ],
        responses={202: SvgImportSerializer, 403: None, 404: None, 409: None, 413: None, 422: None},
    )  # fmt: skip
    def post(self, request: Request, draft_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        job = imports.svg_import_queue(
            user=request.user,
            draft_id=draft_id,
            svg=given["svg"].encode(),
            revision=given["revision"],
            key=idempotency_key(request),
        )
        body = svg_import_data(job)
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["url"]})


class SvgImportApi(_StudioApi):
    """One of my SVG imports: queued, running, done (with the draft as the map made it, and warnings) or
    failed (with the refusal: its code, message and provinces)."""

    throttle_classes: list[Any] = []  # polled every second while a worker reads the map

    @extend_schema(responses={200: SvgImportSerializer, 404: None})
    def get(self, request: Request, job_id: int) -> Response:
        return Response(svg_import_data(imports.svg_import_of(request.user, job_id)))


def svg_import_data(job: SvgImport) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": job.id,
        "url": f"/api/v1/studio/imports/{job.id}",
        "draft_id": job.draft_id,
        "status": job.status,
        "warnings": job.warnings,
        "error": job.error,
    }
    if job.status == SvgImport.Status.DONE:
        body["draft"] = draft_detail(draft_of(job.owner, job.draft_id))
    return body


class DraftPackageApi(_StudioApi):
    """My draft as a package: one zip of its folder, as in ``variants/<slug>/``."""

    @extend_schema(responses={(200, "application/zip"): bytes, 404: None})
    def get(self, request: Request, draft_id: int) -> HttpResponse:
        return _zip(services.package_of_draft(draft_of(request.user, draft_id)))


class DraftImportApi(_StudioApi):
    """A new draft from a package (the zip, base64-encoded)."""

    class InputSerializer(Input):
        package = serializers.CharField(help_text="The zip of a variant's folder, base64.")

    @extend_schema(
        request=InputSerializer, responses={201: DraftSerializer, 403: None, 409: None, 413: None, 422: None}
    )
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            raw = base64.b64decode(data.validated_data["package"], validate=True)
        except (binascii.Error, ValueError):
            raise StudioError("The package is not base64", code="invalid_package") from None
        draft = services.draft_import(user=request.user, raw=raw)
        return Response(draft_detail(draft), status=status.HTTP_201_CREATED)


class DraftPublishApi(_StudioApi):
    """Publish my draft as the next version of its slug (only when its check finds no problem)."""

    class InputSerializer(Input):
        revision = serializers.IntegerField(min_value=1)

    @extend_schema(
        request=InputSerializer,
        responses={201: VersionSummarySerializer, 403: None, 404: None, 409: None, 422: None},
    )
    def post(self, request: Request, draft_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        version = services.version_publish(
            user=request.user, draft_id=draft_id, revision=data.validated_data["revision"]
        )
        return Response(version_summary(version), status=status.HTTP_201_CREATED)


class VersionListApi(APIView):
    """Published studio variants, newest version first within each (anyone may read them)."""

    @extend_schema(operation_id="v1_studio_versions_list", responses={200: VersionListSerializer})
    def get(self, request: Request) -> Response:
        return Response({"results": [version_summary(v) for v in versions_visible(request.user)]})


class VersionDetailApi(APIView):
    """One version: its files, drawing and the tests published with it (``.../tests`` runs them)."""

    @extend_schema(responses={200: VersionSerializer, 404: None})
    def get(self, request: Request, version_id: int) -> Response:
        version = version_of(request.user, version_id)
        body = {**version_summary(version), "files": version.files, "geometry": version.geometry}
        return Response({**body, "tests": version.tests or {"scenarios": []}})


class VersionPackageApi(APIView):
    @extend_schema(responses={(200, "application/zip"): bytes, 404: None})
    def get(self, request: Request, version_id: int) -> HttpResponse:
        return _zip(services.package_of_version(version_of(request.user, version_id)))


class VersionUnpublishApi(_StudioApi):
    """A site admin takes a version off the list; games that pinned it play on."""

    @extend_schema(request=None, responses={200: VersionSummarySerializer, 403: None, 404: None, 409: None})
    def post(self, request: Request, version_id: int) -> Response:
        return Response(version_summary(services.version_unpublish(user=request.user, version_id=version_id)))
