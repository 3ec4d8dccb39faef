from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "dipserver.web"
    label = "web"
    verbose_name = "Web pages"
