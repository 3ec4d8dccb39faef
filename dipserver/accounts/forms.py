"""Django's password-reset form, its mail put in the outbox instead of sent inside the request."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth.forms import PasswordResetForm
from django.template import loader

from dipserver.accounts.services import PASSWORD_RESETS_PER_DAY, account_mails_recent
from dipserver.mail.models import Mail
from dipserver.mail.outbox import Outgoing, mail_queue


class QueuedPasswordResetForm(PasswordResetForm):
    """Django's own form, views and tokens; only the sending differs: a Celery task delivers the mail."""

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
        body = loader.render_to_string(email_template_name, context)
        user = context["user"]
        if account_mails_recent(user_id=user.pk, what="password-reset") >= PASSWORD_RESETS_PER_DAY:
            return  # the page says the same either way: nobody learns which addresses have logins
        key = f"{Mail.Kind.ACCOUNT}:password-reset:{user.pk}:{uuid.uuid4().hex}"
        mail_queue([Outgoing(key, Mail.Kind.ACCOUNT, to_email, subject, body, user.pk)])
