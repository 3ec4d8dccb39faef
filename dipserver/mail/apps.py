from django.apps import AppConfig


class MailConfig(AppConfig):
    name = "dipserver.mail"
    label = "mail"
    verbose_name = "Mail"
