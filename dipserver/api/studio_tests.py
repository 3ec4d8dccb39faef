"""The studio's API for a draft's own tests: run them all on the draft as saved, or try one case (as the
editor holds it, before it is saved) on it. The cases themselves are saved with the draft's tables
(``tests``); ``GET .../check`` runs them too, with everything else. A published version keeps the tests
its draft had, frozen with it: anyone who may read the version may run them on its files."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from dipserver.api.inputs import Input
from dipserver.api.studio_payloads import ScenarioResultSerializer, ScenariosRunSerializer
from dipserver.api.throttling import ScenarioThrottle, WriteThrottle
from dipserver.studio.scenarios import case_of, tests_run
from dipserver.studio.selectors import draft_of, version_of, version_tests


class DraftTestsApi(APIView):
    """My draft's tests: ``GET`` runs those saved with it; ``POST`` tries one case on it without saving."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    class InputSerializer(Input):
        scenario = serializers.DictField(help_text="One case in the shape of tests/scenarios.toml's.")

    @extend_schema(responses={200: ScenariosRunSerializer, 404: None, 422: None})
    def get(self, request: Request, draft_id: int) -> Response:
        draft = draft_of(request.user, draft_id)
        results = tests_run(draft.slug, draft.data)
        return Response({"ok": all(r["passed"] for r in results), "tests": results})

    @extend_schema(request=InputSerializer, responses={200: ScenarioResultSerializer, 404: None, 422: None})
    def post(self, request: Request, draft_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        draft = draft_of(request.user, draft_id)
        [result] = tests_run(draft.slug, draft.data, (case_of(data.validated_data["scenario"]),))
        return Response(result)


class VersionTestsApi(APIView):
    """The tests published with a version, run on its frozen files (as they ran on the draft)."""

    throttle_classes = [ScenarioThrottle]

    # 422 (check_failed): this server's engine no longer loads the version's files.
    @extend_schema(responses={200: ScenariosRunSerializer, 404: None, 422: None})
    def get(self, request: Request, version_id: int) -> Response:
        results = version_tests(version_of(request.user, version_id))
        return Response({"ok": all(r["passed"] for r in results), "tests": results})
