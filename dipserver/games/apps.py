from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "dipserver.games"
    label = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # The foundation's `seed_demo` asks registered seeders for demo games; ours makes one per variant.
        from dipserver.core.demo import register_demo_games_seeder
        from dipserver.games.demo import demo_games_seed

        register_demo_games_seeder(demo_games_seed)
        # Services hand work to the workers by name (games.jobs); the tasks say how.
        from dipserver.games.tasks import jobs_register

        jobs_register()
        # A phase-results mail shows the phase's map, drawn when the mail is sent (dipserver.mail).
        from dipserver.games.pictures import PHASE_PICTURE, phase_png
        from dipserver.mail.pictures import picture_drawer_register

        picture_drawer_register(PHASE_PICTURE, phase_png)
