"""The HTML pages: sign-up, the lobby, creating a game, the game page and the variant pages.

Views are thin: they read through the games app's selectors and act through its services; the game page
itself talks to the REST API from the browser (static/js/game.js).
"""
