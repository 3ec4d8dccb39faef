"""Mail settings (owned by the mail and accounts code); imported at the end of base.py.

``EMAIL_URL`` picks the backend and server through django-environ, e.g. ``smtp+tls://user:pass@host:587``;
with none set, mails are printed on the console (the worker's output under ``./dip serve``).
"""

from __future__ import annotations

import os

from dipserver.config.env import email_from_url, integer, site_url_checked

_email = email_from_url(os.environ.get("EMAIL_URL", "").strip() or "consolemail://")
EMAIL_BACKEND = _email.pop("EMAIL_BACKEND")
globals().update(_email)  # EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS/SSL
# A mail server that does not answer must not hold a worker for the whole task time limit.
EMAIL_TIMEOUT = integer("EMAIL_TIMEOUT", 20)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "").strip() or "dipserver <dipserver@localhost>"
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# Links in mails point here (production derives it from ALLOWED_HOSTS when it is not set).
DIPSERVER_SITE_URL = site_url_checked(os.environ.get("SITE_URL", "").strip() or "http://127.0.0.1:8000")
# Confirmation links for a new email address are good for this many days.
DIPSERVER_EMAIL_CONFIRM_DAYS = 3

# Webhooks reach only globally routable addresses; loopback only where this says so: the test settings, whose
# receivers listen on loopback. Production forces it off.
DIPSERVER_WEBHOOKS_ALLOW_LOOPBACK = False
# A webhook delivery's whole try (resolving, connecting, sending, the answer's status line) ends after this
# many seconds, however slowly the receiver trickles its answer.
DIPSERVER_WEBHOOK_DEADLINE = integer("DIPSERVER_WEBHOOK_DEADLINE", 15)
