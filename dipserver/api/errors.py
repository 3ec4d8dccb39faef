"""One error body for every failure: ``{"error": {"code": ..., "message": ..., "fields": {...}}}``.

``code`` is stable and machine-readable; ``message`` is a sentence for the client's developer (or the
player); ``fields`` maps a request field to what is wrong with it, and is empty when no field is to blame.
"""

from __future__ import annotations

import math
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.db import DatabaseError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.response import Response

from dipserver.accounts.tokens import TokenError
from dipserver.core.read_only import is_read_only
from dipserver.games.errors import GameError
from dipserver.studio.errors import StudioError
from dipserver.webhooks.addresses import RESOLVE_SECONDS
from dipserver.webhooks.errors import WebhookError


class Conflict(exceptions.APIException):
    """The request is well formed but the game has moved on (e.g. orders for a phase that has closed)."""

    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"
    default_detail = "The game is not in a state that allows this."


class Refused(exceptions.APIException):
    """A well-formed request that the rules or the state of the game (or account) refuse; the message says
    why, the code which refusal it is, and the code alone decides the status (``GAME_ERROR_STATUSES``)."""

    status_code: int = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_code = "refused"

    def __init__(
        self, detail: str | None = None, code: str | None = None, fields: dict[str, str] | None = None
    ) -> None:
        super().__init__(detail, code)
        self.status_code = status_of(code or self.default_code)
        # A 503 is a condition that passes: its Retry-After says when (None for the other statuses).
        self.retry_after_seconds = RETRY_AFTER_SECONDS.get(code or self.default_code)
        self.fields = fields or {}  # the request fields to blame, as in a 400's body
        self.extra: dict[str, Any] = {}  # more of the body beside code, message and fields


class PayloadTooLarge(exceptions.APIException):
    """The request body is larger than the API accepts (``DATA_UPLOAD_MAX_MEMORY_SIZE``)."""

    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"
    default_detail = "The request body is too large for this API."


class Busy(exceptions.APIException):
    """The database stayed locked by other writers longer than its timeout (SQLite, the embedded
    default, takes one writer at a time): nothing was changed, and the same request may be sent again."""

    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_code = "busy"
    default_detail = "The server is busy with other writes; nothing was changed. Send the request again."
    retry_after_seconds = 1


class ReadOnly(exceptions.APIException):
    """The database takes no writes for a while (maintenance, a failover to a standby): reads go on
    working, a write changed nothing and may be sent again later."""

    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_code = "read_only"
    default_detail = (
        "The site is read-only for a moment (maintenance or a database failover); nothing was changed. "
        "Try again in a minute."
    )
    retry_after_seconds = 30


# Every refusal's code -> its status; the one place that decides them. 400 is not among them: it is kept
# for requests that are malformed (codes invalid, parse_error, bad_request), which DRF's own exceptions
# answer before any rule is asked. A code missing here is a rule refusal, 422.
GAME_ERROR_STATUSES = {
    # 403: the caller may not do this at all.
    "not_a_player": status.HTTP_403_FORBIDDEN,  # a write for a game the caller plays no power in
    "wrong_password": status.HTTP_403_FORBIDDEN,  # joining a game with a password
    "reliability_too_low": status.HTTP_403_FORBIDDEN,  # below the game's minimum reliability to take a seat
    "rating_too_low": status.HTTP_403_FORBIDDEN,  # below the game's minimum rating to take a seat
    "not_yours": status.HTTP_403_FORBIDDEN,  # a webhook on a game the caller neither plays nor runs
    # 404: what the request names does not exist (or is not the caller's).
    "not_found": status.HTTP_404_NOT_FOUND,  # e.g. a token that is not the caller's (or not active)
    # 409: the game (or account) is not in the state this needs; look again, and it may be allowed later.
    "conflict": status.HTTP_409_CONFLICT,  # the write named a phase that is not the open one
    "not_started": status.HTTP_409_CONFLICT,  # the game is still forming: no phase yet
    "already_started": status.HTTP_409_CONFLICT,  # joining or leaving once the game has begun
    "already_joined": status.HTTP_409_CONFLICT,  # the caller already has a seat in the game
    "game_full": status.HTTP_409_CONFLICT,
    "no_bots": status.HTTP_409_CONFLICT,  # the game was not created to take bots in its seats
    "not_in_play": status.HTTP_409_CONFLICT,  # the game is over (or not yet, or not now) in play
    "paused": status.HTTP_409_CONFLICT,  # orders wait until the game resumes
    "not_paused": status.HTTP_409_CONFLICT,
    "phase_closed": status.HTTP_409_CONFLICT,  # its deadline has passed, or no phase is open
    "eliminated": status.HTTP_409_CONFLICT,  # the caller's power is out of the game
    "seat_not_open": status.HTTP_409_CONFLICT,  # the seat is not looking for a new player
    "too_many_tokens": status.HTTP_409_CONFLICT,  # revoke one of the caller's tokens first
    "too_many_webhooks": status.HTTP_409_CONFLICT,  # remove one of the caller's webhooks first
    "step_played": status.HTTP_409_CONFLICT,  # a sandbox step already played: branch it to change it
    "full": status.HTTP_409_CONFLICT,  # the caller's sandboxes (or a sandbox's steps) are at their limit
    # 412: If-Match names a stale version.
    "precondition_failed": status.HTTP_412_PRECONDITION_FAILED,
    # 422: well formed, but the rules refuse what it asks, whatever the game's state.
    "refused": status.HTTP_422_UNPROCESSABLE_ENTITY,  # a choice the rules do not allow; the message says
    "invalid_orders": status.HTTP_422_UNPROCESSABLE_ENTITY,  # orders the rules reject (the rest stored)
    "idempotency_key_reused": status.HTTP_422_UNPROCESSABLE_ENTITY,  # for another request
    "unknown_channel": status.HTTP_422_UNPROCESSABLE_ENTITY,  # a press channel the caller does not have
    "not_in_channel": status.HTTP_422_UNPROCESSABLE_ENTITY,  # a message that is not in that channel
    "bad_credentials": status.HTTP_422_UNPROCESSABLE_ENTITY,  # a wrong username or password
    "weak_password": status.HTTP_422_UNPROCESSABLE_ENTITY,  # common, all digits, or like the username
    "no_token": status.HTTP_422_UNPROCESSABLE_ENTITY,  # a session, not a token, asked for its token
    "bad_kind": status.HTTP_422_UNPROCESSABLE_ENTITY,  # a webhook for news that does not exist
    "bad_url": status.HTTP_422_UNPROCESSABLE_ENTITY,  # a webhook URL that cannot be posted to
    "address_refused": status.HTTP_422_UNPROCESSABLE_ENTITY,  # a webhook host the site may not reach
    # 503: the site cannot check it now (nothing was changed); the same request may be sent again.
    "lookups_busy": status.HTTP_503_SERVICE_UNAVAILABLE,  # too many webhook host names being looked up
    # The variant studio (dipserver/studio).
    "not_game_master": status.HTTP_403_FORBIDDEN,  # only game masters author and publish variants
    "not_site_admin": status.HTTP_403_FORBIDDEN,  # only site admins unpublish
    "stale_revision": status.HTTP_409_CONFLICT,  # the draft was saved from another tab since: load it again
    "slug_taken": status.HTTP_409_CONFLICT,  # an installed variant's, another author's, or another draft's
    "not_published": status.HTTP_409_CONFLICT,  # unpublishing a version already unpublished
    "unchanged": status.HTTP_409_CONFLICT,  # publishing the same files as the last version
    "too_many_drafts": status.HTTP_409_CONFLICT,  # delete a draft first
    "has_base": status.HTTP_409_CONFLICT,  # an SVG map for a draft that extends an installed variant
    "too_large": status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,  # an SVG or package over its bounds
    "check_failed": status.HTTP_422_UNPROCESSABLE_ENTITY,  # publishing a draft whose check finds problems
    "invalid_data": status.HTTP_422_UNPROCESSABLE_ENTITY,  # a draft's tables that cannot be TOML files
    "invalid_svg": status.HTTP_422_UNPROCESSABLE_ENTITY,  # an SVG map that cannot be read (each mistake)
    "invalid_package": status.HTTP_422_UNPROCESSABLE_ENTITY,  # a package that is not a variant's folder
    "unknown_variant": status.HTTP_422_UNPROCESSABLE_ENTITY,  # starting from a variant not installed
    # A newer studio version offered to a running game (games.services.versions).
    "not_newer": status.HTTP_409_CONFLICT,  # the version is not newer than the one the game plays
    "other_variant": status.HTTP_422_UNPROCESSABLE_ENTITY,  # a version of another variant, or no studio game
    "position_invalid": status.HTTP_409_CONFLICT,  # the open phase's units or orders do not fit it
}
# Every refusal that answers 503 -> the seconds its Retry-After asks the client to wait before sending the
# same request again (tests/api/test_webhooks.py checks that no 503 code is missing here).
RETRY_AFTER_SECONDS = {
    "lookups_busy": math.ceil(RESOLVE_SECONDS),  # the longest a hook being made waits for its host's lookup
}


def status_of(code: str) -> int:
    """The HTTP status a refusal with this code answers."""
    return GAME_ERROR_STATUSES.get(code, status.HTTP_422_UNPROCESSABLE_ENTITY)


def refused(exc: GameError | TokenError | WebhookError | StudioError) -> Refused:
    """A service's refusal as the API answers it: its code, and the status that code maps to; a studio
    refusal also names its provinces and, when it found several mistakes, each one (a game's refusal
    too, when it names its problems: a version the open phase's units or orders do not fit)."""
    answer = Refused(str(exc), code=exc.code)
    if isinstance(exc, StudioError):
        answer.extra = {"provinces": list(exc.provinces), "problems": list(exc.problems)}
    elif isinstance(exc, GameError) and exc.problems:
        answer.extra = {"problems": list(exc.problems)}
    return answer


def error_body(code: str, message: str, fields: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "fields": fields or {}, **extra}}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    # Imported here: rest_framework.views loads the parser classes, and the API's parser imports this module.
    from rest_framework.views import exception_handler as drf_exception_handler

    if isinstance(exc, GameError | TokenError | WebhookError | StudioError):
        exc = refused(exc)
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or "Not found.")
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    elif isinstance(exc, DatabaseError) and is_read_only(exc):
        exc = ReadOnly()
    elif isinstance(exc, OperationalError) and "database is locked" in str(exc):
        exc = Busy()
    response = drf_exception_handler(exc, context)
    seconds = getattr(exc, "retry_after_seconds", None)  # Busy's, ReadOnly's, a 503 refusal's
    if seconds is not None and response is not None:
        response["Retry-After"] = str(seconds)
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
    if isinstance(exc, Refused):
        return error_body(str(code), _text(detail), exc.fields, **exc.extra)
    return error_body(str(code), _text(detail))


def _text(value: Any) -> str:
    """DRF error details (strings, lists, nested dicts) flattened into one readable sentence."""
    if isinstance(value, dict):
        return "; ".join(f"{key}: {_text(item)}" for key, item in value.items())
    if isinstance(value, list | tuple):
        return " ".join(_text(item) for item in value)
    return str(value)


@csrf_exempt  # a POST to a wrong address is a 404, not a CSRF failure
def not_found(request: Any, *args: Any, **kwargs: Any) -> JsonResponse:
    """Unknown addresses under /api/ answer JSON too, so clients parse one format."""
    return JsonResponse(
        error_body("not_found", f"There is no API endpoint {request.path!r}; see /api/docs/."), status=404
    )


# --- Django's error views (handler400/403/404/500): JSON under /api/, HTML elsewhere.

API_PREFIX = "/api/"


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def not_json(media_type: str) -> JsonResponse:
    """415, as DRF answers a body no parser takes (code ``unsupported_media_type``)."""
    message = (
        f"Unsupported media type {media_type!r}: this API takes JSON bodies (Content-Type: application/json)."
    )
    return JsonResponse(error_body("unsupported_media_type", message), status=415)


def too_large() -> JsonResponse:
    body = error_body(PayloadTooLarge.default_code, str(PayloadTooLarge.default_detail))
    return JsonResponse(body, status=PayloadTooLarge.status_code)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not is_api(request):
        return defaults.bad_request(request, exception)
    if isinstance(exception, RequestDataTooBig):
        return too_large()
    return JsonResponse(error_body("bad_request", "The request could not be understood."), status=400)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not is_api(request):
        return defaults.permission_denied(request, exception)
    message = str(exception) or "You may not do this."
    return JsonResponse(error_body("permission_denied", message), status=403)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not is_api(request):
        return defaults.page_not_found(request, exception)
    return not_found(request)


def read_only(request: HttpRequest) -> HttpResponse:
    """503 with ``Retry-After`` for a write the read-only database refused outside the API's views: the
    documented body under /api/, a page elsewhere."""
    if is_api(request):
        response: HttpResponse = JsonResponse(
            error_body(ReadOnly.default_code, str(ReadOnly.default_detail)), status=ReadOnly.status_code
        )
    else:
        response = render(request, "read_only.html", status=ReadOnly.status_code)
    response["Retry-After"] = str(ReadOnly.retry_after_seconds)
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """The last resort: an unexpected failure (a bug) is still the documented body under /api/."""
    if not is_api(request):
        return defaults.server_error(request)
    message = "The server failed to answer this request; it has been logged. Try again later."
    return JsonResponse(error_body("server_error", message), status=500)
