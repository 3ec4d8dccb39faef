"""The real receivers the notices' tests tell game news to: an SMTP server and a webhook receiver, both on
loopback (the fixtures of tests/mail and tests/webhooks)."""

from tests.mail.conftest import smtp, smtp_settings  # noqa: F401
from tests.webhooks.conftest import receiver  # noqa: F401
