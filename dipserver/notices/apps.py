from django.apps import AppConfig


class NoticesConfig(AppConfig):
    name = "dipserver.notices"
    label = "notices"
    verbose_name = "Notices"

    def ready(self) -> None:
        # Every announced game event lands in its players' inboxes (in the worker that announced it).
        from dipserver.games.notifications import announced
        from dipserver.notices.receivers import event_announced

        announced.connect(event_announced, dispatch_uid="dipserver.notices.event_announced")
