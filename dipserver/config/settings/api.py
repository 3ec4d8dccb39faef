"""REST API settings (DRF, authtoken, drf-spectacular). Owned by the API; imported at the end of base.py.

Throttle rates are read per request from ``DIPSERVER_API_THROTTLES`` (see ``dipserver.api.throttling``),
so a test or a deployment can change them without reloading DRF.
"""

from __future__ import annotations

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "dipserver.api.schema.ApiSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "dipserver.api.authentication.ApiTokenAuthentication",  # bots and other clients
        "rest_framework.authentication.SessionAuthentication",  # the browser
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "dipserver.api.pagination.Pagination",
    # JSON only, as the schema says: a form or multipart body answers 415 (the browsable API then offers
    # its raw JSON form, and the site's own pages send JSON). Size- and depth-limited: a clear 400 or 413.
    "DEFAULT_PARSER_CLASSES": ["dipserver.api.parsers.JSONParser"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "dipserver.api.negotiation.RememberingContentNegotiation",
    "EXCEPTION_HANDLER": "dipserver.api.errors.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

# Requests per period, by scope: per client address for login, registration and anonymous map pictures,
# per user for writes and signed-in map pictures (a game's page reads one picture a phase shown).
DIPSERVER_API_THROTTLES = {
    "login": "20/min",
    "register": "10/hour",
    "writes": "300/min",
    "pictures": "60/min",
    "user_pictures": "240/min",
    # Sandboxes, per user (per address for a share link's visitors), reads and writes alike: playing a
    # step adjudicates a phase, drawing one renders a map.
    "sandboxes": "240/min",
    # A published studio version's tests run, reads too (anyone may run them): each plays its cases.
    "scenario_runs": "60/min",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "dipserver API",
    "DESCRIPTION": (
        "Play Diplomacy variants whose map changes during the game. Authenticate with "
        "`Authorization: Token <key>` (POST /api/v1/accounts/token) or the browser session. "
        'Every error answers `{"error": {"code", "message", "fields"}}`.'
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and Redoc from the drf-spectacular-sidecar package: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # The schema documents JSON bodies, the only ones the API parses.
    "PARSER_WHITELIST": ["dipserver.api.parsers.JSONParser"],
    # Every choice set has a name of its own, so no two collide (several fields are called kind, press
    # or status) and none is named by a hash.
    "ENUM_NAME_OVERRIDES": {
        "OptionKindEnum": "dipserver.api.payloads.OPTION_KINDS",
        "DrawingShapeEnum": "dipserver.api.payloads.DRAWING_SHAPES",
        "NotificationKindEnum": "dipserver.notices.events.NEWS_KINDS",  # also webhooks' kinds and deliveries'
        "GamePressEnum": "dipserver.api.payloads.GAME_PRESS",
        "PressMailEnum": "dipserver.accounts.models.NotificationPreferences.Press",
        "DeliveryStatusEnum": "dipserver.webhooks.models.Delivery.Status",
        "WebhookViewEnum": "dipserver.webhooks.models.Webhook.View",
        "ResultKindEnum": "dipserver.api.results.RESULT_KINDS",
        "OutcomeEnum": "dipserver.api.results.OUTCOMES",
        "UnitTypeEnum": "dipserver.api.results.UNIT_TYPES",
        "GameStatusEnum": "dipserver.api.payloads.GAME_STATUSES",
        "PhaseStatusEnum": "dipserver.api.payloads.PHASE_STATUSES",
        "PowerStatusEnum": "dipserver.api.payloads.POWER_STATUSES",
        "SvgImportStatusEnum": "dipserver.studio.models.SvgImport.Status",
        "HookEnum": "dipserver.api.studio_payloads.HOOKS",
    },
}
