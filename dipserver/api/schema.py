"""OpenAPI generation tweaks: name components after the API class that nests their serializer."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema


class ApiSchema(AutoSchema):
    def get_serializer_name(self, serializer: Any, direction: str) -> str:
        """``OrdersApi.ReplaceInputSerializer`` -> ``OrdersApiReplaceInput``: every API nests its own
        ``InputSerializer``/``OutputSerializer``, so the bare class name is not unique."""
        qualname = type(serializer).__qualname__.replace(".", "").lstrip("_")
        return qualname.removesuffix("Serializer")
