"""Every list is paginated the same way: ``?page=N&page_size=M`` (at most 200).

The parameters are checked, not guessed at: a ``page_size`` that is not a whole number from 1 to 200 is a
400 (DRF would quietly use the default), and a page past the last one is a 404. The schema says the same.
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request


class Pagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request: Request) -> int:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        if not raw.isdigit() or not 1 <= int(raw) <= self.max_page_size:
            raise ValidationError({"page_size": f"A whole number from 1 to {self.max_page_size}."})
        return int(raw)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        page, size = super().get_schema_operation_parameters(view)
        page["schema"] = {"type": "integer", "minimum": 1}
        page["description"] = "A page number from 1; a page past the last one is 404."
        size["schema"] = {"type": "integer", "minimum": 1, "maximum": self.max_page_size}
        size["description"] = f"Results per page, 1 to {self.max_page_size} (default {self.page_size})."
        return [page, size]

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        envelope = super().get_paginated_response_schema(schema)
        envelope["required"] = ["count", "next", "previous", "results"]  # next/previous are null, not absent
        return envelope
