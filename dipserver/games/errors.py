"""The one error type services raise for anything a player or game master can cause."""


class GameError(ValueError):
    """A request the rules or the game's state refuse; the message is meant for the person asking."""
