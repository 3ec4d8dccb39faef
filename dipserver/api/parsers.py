"""The API's JSON parser: a body is read up to the size limit and refused with a clear error, never a 500,
when it is too large, malformed or nested deeper than any request of this API needs."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from rest_framework import parsers
from rest_framework.exceptions import ParseError

from dipserver.api.errors import PayloadTooLarge

# The deepest request of this API (a game's options) nests three levels; a client's bug may add a few.
MAX_DEPTH = 32


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        encoding = _text_encoding(parser_context or {})
        limit = body_limit()
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise PayloadTooLarge()
        try:
            data = json.loads(raw.decode(encoding), parse_constant=_refuse_constant)
        except RecursionError:
            raise ParseError(f"JSON parse error - nested more than {MAX_DEPTH} levels deep.") from None
        except ValueError as exc:  # includes UnicodeDecodeError and json.JSONDecodeError
            raise ParseError(f"JSON parse error - {exc}") from None
        if depth_over(data, MAX_DEPTH):
            raise ParseError(f"JSON parse error - nested more than {MAX_DEPTH} levels deep.")
        return data


def body_limit() -> int:
    """The largest body any API request may have, in bytes (Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE``)."""
    return int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 2_621_440)


def depth_over(data: Any, limit: int) -> bool:
    """Whether lists and objects nest deeper than ``limit``, found without recursion."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def _text_encoding(parser_context: dict[str, Any]) -> str:
    """The body's charset; codecs that are not text (``bz2_codec``: a decompression bomb) are refused."""
    encoding = str(parser_context.get("encoding") or settings.DEFAULT_CHARSET)
    try:
        "".encode(encoding)
    except (LookupError, UnicodeError):
        raise ParseError(f"Unsupported charset {encoding!r} in the Content-Type header.") from None
    return encoding


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")
