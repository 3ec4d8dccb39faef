from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "dipserver.webhooks"
    label = "webhooks"
    verbose_name = "Webhooks"

    def ready(self) -> None:
        # Every announced game event goes to the webhooks that hear it (in the worker that announced it).
        from dipserver.games.notifications import announced
        from dipserver.webhooks.receivers import event_announced

        announced.connect(event_announced, dispatch_uid="dipserver.webhooks.event_announced")
