"""OpenAPI generation: component names, and every error an operation can answer, documented once.

The error statuses follow from what the server does to every request (``errors_of``), so no view lists
them by hand: the authentication classes (401 for a bad token), the permissions (401 and 403), path
parameters and pages (404), parameters and bodies (400), writes (413 and 415 for a body too large or not
JSON, 503 when SQLite stays locked, always with Retry-After) and throttles (429). A view names only the
statuses its own rules add (409 for a game not in the state it needs, 412, 422 for what the rules refuse), as
``responses={409: None}``; every error answer gets the one body, the ``Error`` component. Which code
answers which status is decided in ``dipserver.api.errors.GAME_ERROR_STATUSES``.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly

from dipserver.api.throttling import WriteThrottle

UNSAFE = ("POST", "PUT", "PATCH", "DELETE")

ERROR_TEXT = {
    "400": "Malformed: the request's parameters or body do not say what the schema asks (codes invalid, "
    "parse_error)",
    "401": "Not authenticated, or the token is unknown, revoked or expired",
    "403": "Permission denied: not a player of this game, not its game master, or no CSRF token",
    "404": "Not found: no such game, phase, variant, token or page",
    "409": "Conflict: the game is not in a state that allows this now (e.g. the phase named is not open, "
    "the game is full, over or paused); look again",
    "412": "Precondition failed: If-Match names an older version",
    "413": "The request body is larger than the API accepts",
    "415": "The body's media type is not JSON (code unsupported_media_type)",
    "422": "Unprocessable: well formed, but the rules refuse it (e.g. orders rejected, a power or channel "
    "not to be had, an idempotency key used for another request)",
    "429": "Throttled: too many requests; see Retry-After",
    "503": "Busy for a moment (the database stayed locked by other writes or is read-only, or too many "
    "webhook host names are being looked up); nothing changed, send it again after Retry-After",
}
# What DRF's CharField does to a string before it checks it, said as a pattern: it refuses NUL anywhere,
# and (unless blank is allowed) one that is empty once the whitespace str.strip() removes is stripped.
WHITESPACE = r"\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
NO_NUL = r"^[^\x00]*$"
NOT_BLANK = rf"^[^\x00]*[^\x00{WHITESPACE}][^\x00]*$"
_RETRY_AFTER = {"Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait."}}
# A read that answers 304 is a conditional GET (``dipserver.api.etag``): its answers carry the ETag, and it
# takes the last one back as If-None-Match. Declared here once for every such read.
ETAG_HEADER = {
    "schema": {"type": "string"},
    "description": 'The version of what was answered (weak, W/"...", except my orders\' strong one); send '
    "it back as If-None-Match to poll (304 while unchanged).",
}
IF_NONE_MATCH = {
    "in": "header",
    "name": "If-None-Match",
    "required": False,
    "schema": {"type": "string"},
    "description": "The ETag of the last answer (or several, comma-separated): 304 with no body while it "
    "still matches. Compared weakly.",
}

# The main chain a client follows (create -> join -> options -> orders -> ready), as OpenAPI links: an
# operation's answer names the calls that come next and where their game id is found. Keyed by the
# answering operation's id and status; each link is (operation id, parameters, description).
_GAME_IN_BODY = {"game_id": "$response.body#/id"}
_SAME_GAME = {"game_id": "$request.path.game_id"}
LINKS: dict[tuple[str, str], dict[str, tuple[str, dict[str, str], str]]] = {
    ("v1_games_create", "201"): {
        "JoinGame": ("v1_games_join_create", _GAME_IN_BODY, "Take a seat in the game just made."),
        "ReadGame": ("v1_games_retrieve", _GAME_IN_BODY, "Poll the game until it starts."),
    },
    ("v1_games_retrieve", "200"): {
        "JoinGame": ("v1_games_join_create", _GAME_IN_BODY, "Take a seat while the game is forming."),
        "GetOptions": ("v1_games_options_retrieve", _GAME_IN_BODY, "Once it has started: my choices."),
    },
    ("v1_games_join_create", "200"): {
        "GetOptions": ("v1_games_options_retrieve", _GAME_IN_BODY, "Once the game has started: my choices."),
    },
    ("v1_games_options_retrieve", "200"): {
        "ReplaceOrders": (
            "v1_games_orders_update",
            _SAME_GAME,
            "Order from these choices, for the phase this answer names.",
        ),
    },
    ("v1_games_orders_update", "200"): {
        "MarkReady": ("v1_games_ready_update", _SAME_GAME, "Say I am done with this phase's orders."),
        "ReadOrders": ("v1_games_orders_retrieve", _SAME_GAME, "The orders as stored."),
    },
    ("v1_games_ready_update", "200"): {
        "ReadGame": ("v1_games_retrieve", _SAME_GAME, "Poll the game for the phase's results."),
    },
}


class ErrorDetailSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="Stable and machine-readable, e.g. invalid, conflict, not_found.")
    message = serializers.CharField(help_text="A sentence for people.")
    # The body's key is "fields"; DRF's metaclass takes declared fields off the class, so this does not
    # shadow Serializer.fields at run time (the stubs cannot know).
    fields = serializers.DictField(  # type: ignore[assignment]
        child=serializers.JSONField(), help_text="Request field -> what is wrong with it; empty when none."
    )
    # A refusal may say more (``errors.refused``): a studio refusal its provinces, and one that found
    # several things wrong (a draft's check, a version the open phase's units or orders do not fit) each.
    provinces = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="A studio refusal: the provinces the mistake concerns, to show it beside them.",
    )
    problems = serializers.ListField(
        child=serializers.DictField(child=serializers.JSONField()),
        required=False,
        help_text="Each thing wrong on its own, when there are several: its message and provinces (a "
        "version's problem also its code; an order refused its power, order and reason).",
    )


class ErrorSerializer(serializers.Serializer[Any]):
    error = ErrorDetailSerializer()


class ApiSchema(AutoSchema):
    def get_serializer_name(self, serializer: Any, direction: str) -> str:
        """``OrdersApi.ReplaceInputSerializer`` -> ``OrdersApiReplaceInput``: every API nests its own
        ``InputSerializer``/``OutputSerializer``, so the bare class name is not unique."""
        qualname = type(serializer).__qualname__.replace(".", "").lstrip("_")
        return qualname.removesuffix("Serializer")

    def _map_serializer_field(self, field: Any, direction: str, bypass_extensions: bool = False) -> Any:
        schema = super()._map_serializer_field(field, direction, bypass_extensions)  # type: ignore[no-untyped-call]
        if direction == "request" and _is_plain_text(field) and "pattern" not in schema:
            schema["pattern"] = NO_NUL if field.allow_blank or not field.trim_whitespace else NOT_BLANK
        return schema

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation: dict[str, Any] | None = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        error = self.resolve_serializer(ErrorSerializer(), "response").ref
        responses = operation["responses"]
        if "304" in responses:
            _declare_conditional_get(operation)
        for (operation_id, code), links in LINKS.items():
            if operation_id == operation["operationId"] and code in responses:
                responses[code]["links"] = {
                    name: {"operationId": target, "parameters": parameters, "description": description}
                    for name, (target, parameters, description) in links.items()
                }
        for code in sorted(errors_of(self.view, self.method, operation) | set(responses)):
            if code < "400" or "content" in responses.get(code, {}):
                continue  # a success, or an error body a view describes itself
            headers = {"headers": _RETRY_AFTER} if code in ("429", "503") else {}
            content = {"application/json": {"schema": error}}
            responses[code] = {**headers, "content": content, "description": ERROR_TEXT.get(code, "")}
        return operation


def _declare_conditional_get(operation: dict[str, Any]) -> None:
    parameters = operation.setdefault("parameters", [])
    if not any(p["name"] == IF_NONE_MATCH["name"] and p["in"] == "header" for p in parameters):
        parameters.append(dict(IF_NONE_MATCH))
    for code in ("200", "304"):
        if code in operation["responses"]:
            operation["responses"][code].setdefault("headers", {})["ETag"] = dict(ETAG_HEADER)


def _is_plain_text(field: Any) -> bool:
    """A free text field: its schema says nothing of NUL or blanks (choices, e-mails and regexes do)."""
    special = serializers.EmailField | serializers.RegexField | serializers.SlugField | serializers.URLField
    return isinstance(field, serializers.CharField) and not isinstance(field, special)


def errors_of(view: Any, method: str, operation: dict[str, Any]) -> set[str]:
    """The error statuses any request to this operation may get, from how the API treats every request."""
    codes: set[str] = set()
    unsafe = method in UNSAFE
    if view.get_authenticators():
        codes.add("401")  # a token that is unknown, revoked or expired is refused on any endpoint
    permissions = view.get_permissions()
    if any(
        isinstance(p, IsAuthenticated) or (unsafe and isinstance(p, IsAuthenticatedOrReadOnly))
        for p in permissions
    ):
        codes |= {"401", "403"}  # a seat, mastership or (with the session) a CSRF token is checked
    parameters = operation.get("parameters", [])
    if any(p["in"] == "path" for p in parameters) or (
        method == "GET" and getattr(view, "pagination_class", None)
    ):
        codes.add("404")
    if any(p["in"] == "query" for p in parameters) or unsafe:
        codes.add("400")
    if "requestBody" in operation:
        codes.add("400")
    throttles = view.get_throttles()
    if any(unsafe or not isinstance(t, WriteThrottle) for t in throttles):
        codes.add("429")  # writes are counted per user; logins, sign-ups and anonymous pictures always
    if unsafe:
        # Any body too large or not JSON, even to a write that reads none (the API's middleware), and
        # SQLite's lock.
        codes |= {"413", "415", "503"}
    return codes
