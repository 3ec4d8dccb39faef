"""One error body for every failure: ``{"error": {"code": ..., "message": ..., "fields": {...}}}``.

``code`` is stable and machine-readable; ``message`` is a sentence for the client's developer (or the
player); ``fields`` maps a request field to what is wrong with it, and is empty when no field is to blame.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from dipserver.games.errors import GameError


class Conflict(exceptions.APIException):
    """The request is well formed but the game has moved on (e.g. orders for a phase that has closed)."""

    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"
    default_detail = "The game is not in a state that allows this."


class Refused(exceptions.APIException):
    """The rules or the game's state refuse a well-formed request; the message says why."""

    status_code: int = status.HTTP_400_BAD_REQUEST  # a service's refusal may map to another (``refused``)
    default_code = "refused"


# A service's refusal (``GameError.code``) -> its HTTP status, where that is not 400.
GAME_ERROR_STATUSES = {
    "conflict": status.HTTP_409_CONFLICT,  # the write named a phase the game is no longer in
    "precondition_failed": status.HTTP_412_PRECONDITION_FAILED,  # If-Match names a stale version
    "idempotency_key_reused": status.HTTP_422_UNPROCESSABLE_ENTITY,
}


def refused(exc: GameError) -> Refused:
    """A ``GameError`` as the API answers it: its code, and the status that code maps to."""
    answer = Refused(str(exc), code=exc.code)
    answer.status_code = GAME_ERROR_STATUSES.get(exc.code, status.HTTP_400_BAD_REQUEST)
    return answer


def error_body(code: str, message: str, fields: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "fields": fields or {}, **extra}}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, GameError):
        exc = refused(exc)
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or "Not found.")
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response  # a bug: Django's 500 handling takes over
    response.data = _body(exc)
    return response


def _body(exc: exceptions.APIException) -> dict[str, Any]:
    detail = exc.detail
    if isinstance(exc, exceptions.ValidationError) and isinstance(detail, dict):
        fields = {name: _text(value) for name, value in detail.items() if name != "non_field_errors"}
        general = _text(detail.get("non_field_errors", ""))
        if general:
            message = general
        elif fields:
            message = "; ".join(f"{name}: {text}" for name, text in fields.items())
        else:
            message = "The request is not valid."
        return error_body("invalid", message, fields)
    code = exc.get_codes()
    if not isinstance(code, str):
        code = exc.default_code
    return error_body(str(code), _text(detail))


def _text(value: Any) -> str:
    """DRF error details (strings, lists, nested dicts) flattened into one readable sentence."""
    if isinstance(value, dict):
        return "; ".join(f"{key}: {_text(item)}" for key, item in value.items())
    if isinstance(value, list | tuple):
        return " ".join(_text(item) for item in value)
    return str(value)


def not_found(request: Any, *args: Any, **kwargs: Any) -> JsonResponse:
    """Unknown addresses under /api/ answer JSON too, so clients parse one format."""
    return JsonResponse(
        error_body("not_found", f"There is no API endpoint {request.path!r}; see /api/docs/."), status=404
    )
