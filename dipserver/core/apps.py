from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "dipserver.core"
    label = "core"
    verbose_name = "Site operations"
