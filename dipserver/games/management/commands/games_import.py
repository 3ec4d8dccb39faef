"""Read a game exported by games_export and check that it replays."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from dipserver.games.errors import GameError
from dipserver.games.services.transfer import game_import, game_replay


class Command(BaseCommand):
    help = "Import a game exported with games_export, then re-adjudicate its history to check it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")

    def handle(self, *args: object, file: str, **options: object) -> None:
        try:
            data = json.loads(Path(file).read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise CommandError(f"Cannot read {file}: {exc}") from exc
        try:
            game = game_import(data=data)
        except (GameError, KeyError) as exc:
            raise CommandError(f"{file} is not a complete game export: {exc}") from exc
        problems = game_replay(game_id=game.id)
        for problem in problems:
            self.stderr.write(problem)
        self.stdout.write(
            f"Imported game #{game.id} ({game.name}); replay: {'OK' if not problems else 'DIFFERS'}"
        )
