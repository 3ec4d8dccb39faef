"""Settings shared by every environment; the thin local/production/test modules override a few."""

from __future__ import annotations

import os

from csp.constants import NONE, SELF

from dipserver.config.env import BASE_DIR as BASE_DIR  # a setting too (settings.BASE_DIR): re-exported
from dipserver.config.env import (
    DEV_SECRET_KEY,
    VAR_DIR,
    cache_from_url,
    database_from_url,
    flag,
    integer,
    listing,
    proxy_count,
)

SECRET_KEY = os.environ.get("SECRET_KEY", "").strip() or DEV_SECRET_KEY
DEBUG = flag("DEBUG", default=False)
ALLOWED_HOSTS = listing("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = listing("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",  # serve static files the same way in development and production
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",  # API tokens for bots and clients
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI / Redoc assets served locally
    "csp",  # the Content-Security-Policy header (django-csp)
    "dipserver.accounts",
    "dipserver.core",
    "dipserver.games",  # the game server (games developer)
    "dipserver.web",  # the HTML pages (web developer)
    "dipserver.mail",  # the outbox: every mail is a row, sent by a Celery task (notify)
    "dipserver.notices",  # what each game event tells each reader, beside mail (notify)
    "dipserver.webhooks",  # signed JSON to a player's or a game master's address (notify)
    "dipserver.players",  # profiles, reliability from the phases held, ratings (issue 36)
    "dipserver.studio",  # the variant studio: drafts, checks, published versions
    "dipserver.sandbox",  # private boards for trying positions, from any variant or game phase
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "dipserver.api.middleware.BodyLimitMiddleware",  # 413 (JSON) for an oversized body under /api/
    "dipserver.api.middleware.JsonBodyMiddleware",  # 415 (JSON) for a body under /api/ that is not JSON
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "dipserver.accounts.middleware.TimeZoneMiddleware",  # the player's own time zone (notify)
    "dipserver.api.middleware.SignInLimitMiddleware",  # the sign-in forms share the API's login limits
    "dipserver.core.messages.MessageMiddleware",  # Django's, the storage made on first use
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "dipserver.api.middleware.ReadOnlyDatabaseMiddleware",  # 503 "read-only, try again" for a refused write
    "dipserver.core.content_security.PolicyMiddleware",  # django-csp's, the policy built once
]

# Security headers on every answer: SecurityMiddleware (nosniff, Referrer-Policy, Cross-Origin-Opener-
# Policy), XFrameOptionsMiddleware (X-Frame-Options) and django-csp (Content-Security-Policy).
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Scripts and styles only from this site's files: no inline script or style, no eval, no other origin.
# The game page adopts the map SVG's own stylesheet through the CSSOM and sets power colours the same
# way; a map SVG opened on its own allows its stylesheet by hash (dipserver.core.content_security).
# Swagger UI and Redoc style themselves inline, so their two pages alone allow it (config/urls.py).
# Redoc runs its search in a worker made from a blob.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF, "data:"],
        "connect-src": [SELF],
        "worker-src": [SELF, "blob:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

ROOT_URLCONF = "dipserver.config.urls"  # also names the error views: JSON under /api/, HTML elsewhere
WSGI_APPLICATION = "dipserver.config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "dipserver.notices.context.unread_notifications",  # the inbox count in the header
            ],
        },
    },
]

_database_url = os.environ.get("DATABASE_URL", "").strip()
if not _database_url:
    # The zero-configuration default: a SQLite file under var/ (created on first use).
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    _database_url = f"sqlite:///{VAR_DIR / 'db.sqlite3'}"
DATABASES = {"default": database_from_url(_database_url)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's, with the health check before a kept connection's reuse asked of the socket first.
    DATABASES["default"]["ENGINE"] = "dipserver.core.postgresql"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Throttle counts and rendered map pictures. Local memory is this process only: production defaults to
# a directory every process on the host shares, and docker-compose.yml points it at Redis.
CACHES = {"default": cache_from_url(os.environ.get("CACHE_URL", "").strip() or "locmem://")}

# A proxy in front of the site (TLS, load balancer) passes the client's address in X-Forwarded-For;
# the header is read only behind one, and only the entry the outermost trusted proxy wrote counts.
BEHIND_TLS_PROXY = flag("BEHIND_TLS_PROXY", default=False)
TRUSTED_PROXY_COUNT = proxy_count(behind_proxy=BEHIND_TLS_PROXY)

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = os.environ.get("STATIC_ROOT", "").strip() or BASE_DIR / "staticfiles"  # collectstatic target
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# The pages load their scripts bundled (static/dist/, made by ./dip with esbuild: dipserver/web/bundle.py)
# when the bundle is there and current; false loads the plain ES modules of static/js/ (the benchmark's
# reference, or to read the scripts as written in the browser's tools).
DIPSERVER_BUNDLED_SCRIPTS = flag("DIPSERVER_BUNDLED_SCRIPTS", default=True)
# Cached for good (WhiteNoise's ten years, immutable): the files whose names carry their content's hash,
# Django's (collectstatic's manifest: name.0123456789ab.js) and esbuild's (dist/game-ABCD2345.js).
WHITENOISE_IMMUTABLE_FILE_TEST = r"^/.+(\.[0-9a-f]{12}\.\w+|/dist/[^/]+-[A-Z0-9]{8}\.js)$"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO").upper()},
    # httpx logs every request's URL at INFO, and a webhook's URL may hold its secret (Discord's token).
    "loggers": {"httpx": {"level": "WARNING"}, "httpcore": {"level": "WARNING"}},
}

from dipserver.config.settings.api import *  # noqa: E402, F403 - REST API settings live in their own module
from dipserver.config.settings.celery import *  # noqa: E402, F403 - Celery settings live in their own module
from dipserver.config.settings.mail import *  # noqa: E402, F403 - mail settings live in their own module

# Sandboxes (dipserver.sandbox): one unused this many days is announced for deletion to its owner (on
# their sandbox list), and deleted this many days after that unless opened meanwhile.
DIPSERVER_SANDBOX_IDLE_DAYS = integer("DIPSERVER_SANDBOX_IDLE_DAYS", 90)
DIPSERVER_SANDBOX_NOTICE_DAYS = integer("DIPSERVER_SANDBOX_NOTICE_DAYS", 14)
