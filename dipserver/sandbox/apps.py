from django.apps import AppConfig


class SandboxConfig(AppConfig):
    name = "dipserver.sandbox"
    label = "sandbox"
    verbose_name = "Sandboxes"
