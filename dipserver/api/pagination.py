"""Every list is paginated the same way: ``?page=N&page_size=M`` (at most 200).

The parameters are checked, not guessed at: a ``page`` that is not a whole number from 1 (or ``last``) and a
``page_size`` that is not one from 1 to 200 are a 400 (DRF would answer 404, or quietly use the default),
and a page past the last one is a 404. Whole numbers are written in ASCII digits. The schema says the same.
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request

from dipserver.api.inputs import whole_number


class Pagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request: Request) -> int:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        size = whole_number(raw, 1, self.max_page_size)
        if size is None:
            raise ValidationError({"page_size": f"A whole number from 1 to {self.max_page_size}."})
        return size

    def get_page_number(self, request: Request, paginator: Any) -> Any:
        raw = request.query_params.get(self.page_query_param)
        if raw is None or raw in self.last_page_strings:
            return super().get_page_number(request, paginator)
        if whole_number(raw, 1) is None:
            raise ValidationError({"page": "A page number from 1 (or last)."})
        return raw

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        page, size = super().get_schema_operation_parameters(view)
        page["schema"] = {"type": "integer", "minimum": 1}
        page["description"] = (
            "A page number from 1 (or `last`), in ASCII digits; anything else is 400, one past the last 404."
        )
        size["schema"] = {"type": "integer", "minimum": 1, "maximum": self.max_page_size}
        size["description"] = f"Results per page, 1 to {self.max_page_size} (default {self.page_size})."
        return [page, size]

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        envelope = super().get_paginated_response_schema(schema)
        envelope["required"] = ["count", "next", "previous", "results"]  # next/previous are null, not absent
        return envelope
