from django.apps import AppConfig


class NoticesConfig(AppConfig):
    name = "dipserver.notices"
    label = "notices"
    verbose_name = "Notices"
