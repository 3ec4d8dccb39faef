"""Production: every secret comes from the environment and unsafe values stop start-up."""

import os

from dipserver.config.env import (
    DEV_SECRET_KEY,
    VAR_DIR,
    ConfigError,
    cache_from_url,
    flag,
    integer,
    listing,
    required,
    site_url_checked,
)
from dipserver.config.settings.base import *  # noqa: F403

SECRET_KEY = required("SECRET_KEY")
if SECRET_KEY == DEV_SECRET_KEY or SECRET_KEY.startswith("django-insecure"):
    raise ConfigError("SECRET_KEY is the development key; set a long random one for production")
if len(SECRET_KEY) < 32:
    raise ConfigError("SECRET_KEY is too short for production; use at least 32 random characters")
if flag("DEBUG", default=False):
    raise ConfigError("DEBUG must be off with production settings (unset DEBUG or set it to false)")
DEBUG = False

ALLOWED_HOSTS = listing("ALLOWED_HOSTS", [])
if not ALLOWED_HOSTS:
    raise ConfigError("ALLOWED_HOSTS must name the host(s) this site is served as, e.g. dip.example.org")

# Limits must hold across gunicorn's workers: without CACHE_URL, a cache directory they all share.
_SHARED_CACHE = f"file://{(VAR_DIR / 'cache').resolve()}"
CACHES = {"default": cache_from_url(os.environ.get("CACHE_URL", "").strip() or _SHARED_CACHE)}

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# HTTPS hardening; switch off only when serving plain HTTP on a private host (see docker-compose.yml).
SECURE_COOKIES = flag("SECURE_COOKIES", default=True)
SESSION_COOKIE_SECURE = SECURE_COOKIES
CSRF_COOKIE_SECURE = SECURE_COOKIES
SECURE_SSL_REDIRECT = flag("SECURE_SSL_REDIRECT", default=True)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # container health checks speak plain HTTP inside the network
SECURE_HSTS_SECONDS = integer("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = flag("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
if BEHIND_TLS_PROXY:  # noqa: F405 - from base
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# --- mail (notify): the backend comes from EMAIL_URL (settings/mail.py); links in mails need the site's
# public address, which defaults to the first of ALLOWED_HOSTS.
if not os.environ.get("SITE_URL", "").strip():
    DIPSERVER_SITE_URL = site_url_checked(
        f"{'https' if SECURE_SSL_REDIRECT else 'http'}://{ALLOWED_HOSTS[0]}"
    )

DIPSERVER_WEBHOOKS_ALLOW_LOOPBACK = False  # webhooks never reach this machine or its network
