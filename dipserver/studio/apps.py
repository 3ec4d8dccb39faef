from django.apps import AppConfig


class StudioConfig(AppConfig):
    name = "dipserver.studio"
    label = "studio"
    verbose_name = "Variant studio"
