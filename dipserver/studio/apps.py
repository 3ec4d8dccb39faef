from django.apps import AppConfig


class StudioConfig(AppConfig):
    name = "dipserver.studio"
    label = "studio"
    verbose_name = "Variant studio"

    def ready(self) -> None:
        # Uploaded SVG maps are read by a worker (studio.imports); the task says how it gets there.
        from dipserver.studio.tasks import jobs_register

        jobs_register()
