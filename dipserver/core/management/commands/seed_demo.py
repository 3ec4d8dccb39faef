"""Create the demo logins and demo games used by `./dip serve`."""

from django.core.management.base import BaseCommand

from dipserver.core.demo import GAME_MASTER, PLAYERS, demo_games_ensure, demo_logins_ensure


class Command(BaseCommand):
    help = "Create (or repair) the demo logins and demo games. Safe to run repeatedly."

    def handle(self, *args: object, **options: object) -> None:
        gm, players = demo_logins_ensure()
        games = demo_games_ensure(game_master=gm, players=players)
        self.stdout.write(f"Game master login (admin): {GAME_MASTER.username} / {GAME_MASTER.password}")
        for login in PLAYERS:
            self.stdout.write(f"Player login: {login.username} / {login.password}")
        if games:
            for line in games:
                self.stdout.write(f"Demo game: {line}")
        else:
            self.stdout.write("Demo games: none yet (no app has registered a demo-games seeder)")
