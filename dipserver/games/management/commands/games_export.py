"""Write a game, every phase included, as JSON."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from dipserver.games.errors import GameError
from dipserver.games.services.transfer import game_export


class Command(BaseCommand):
    help = "Export a whole game (every phase, order, result and snapshot) as JSON to a file or stdout."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_id", type=int)
        parser.add_argument("--output", "-o", help="File to write (default: standard output)")

    def handle(self, *args: object, game_id: int, output: str | None = None, **options: object) -> None:
        try:
            text = json.dumps(game_export(game_id=game_id), indent=1, sort_keys=True)
        except GameError as exc:
            raise CommandError(str(exc)) from exc
        if output:
            Path(output).write_text(text + "\n")
        else:
            self.stdout.write(text)
