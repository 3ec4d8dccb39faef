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

# HTTPS. Behind the TLS proxy (BEHIND_TLS_PROXY) every browser reaches the site over HTTPS, so the
# cookies are always secure and HSTS is on (a year unless SECURE_HSTS_SECONDS says how long; a small
# number such as 300 tries it first). Without one, secure cookies and the redirect default to on and may be
# switched off only for plain HTTP on a private host (see docker-compose.yml).
SECURE_COOKIES = flag("SECURE_COOKIES", default=True)
if BEHIND_TLS_PROXY and not SECURE_COOKIES:  # noqa: F405 - from base
    raise ConfigError(
        "SECURE_COOKIES cannot be false with BEHIND_TLS_PROXY=true: browsers reach the site over HTTPS"
    )
SESSION_COOKIE_SECURE = SECURE_COOKIES
CSRF_COOKIE_SECURE = SECURE_COOKIES
SECURE_SSL_REDIRECT = flag("SECURE_SSL_REDIRECT", default=True)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # container health checks speak plain HTTP inside the network
HSTS_ONE_YEAR = 365 * 24 * 3600
SECURE_HSTS_SECONDS = integer("SECURE_HSTS_SECONDS", HSTS_ONE_YEAR if BEHIND_TLS_PROXY else 0)  # noqa: F405
if SECURE_HSTS_SECONDS < 0 or (BEHIND_TLS_PROXY and SECURE_HSTS_SECONDS == 0):  # noqa: F405
    raise ConfigError(
        f"SECURE_HSTS_SECONDS must be more than 0 with BEHIND_TLS_PROXY=true (and never negative), "
        f"not {SECURE_HSTS_SECONDS}; try a small number such as 300 first"
    )
SECURE_HSTS_INCLUDE_SUBDOMAINS = flag("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
if BEHIND_TLS_PROXY:  # noqa: F405 - from base
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    if not os.environ.get("CSRF_TRUSTED_ORIGINS", "").strip():
        # The forms are posted from the HTTPS origins of the hosts the site is served as.
        # (A wildcard or a leading-dot domain names no single origin: list those in CSRF_TRUSTED_ORIGINS.)
        CSRF_TRUSTED_ORIGINS = [f"https://{h}" for h in ALLOWED_HOSTS if h[0] != "." and "*" not in h]

# --- mail (notify): the backend comes from EMAIL_URL (settings/mail.py); links in mails need the site's
# public address, which defaults to the first of ALLOWED_HOSTS.
if not os.environ.get("SITE_URL", "").strip():
    DIPSERVER_SITE_URL = site_url_checked(
        f"{'https' if SECURE_SSL_REDIRECT else 'http'}://{ALLOWED_HOSTS[0]}"
    )

DIPSERVER_WEBHOOKS_ALLOW_LOOPBACK = False  # webhooks never reach this machine or its network
