"""The REST API (``/api/v1/``): thin DRF views over ``dipserver.games.services`` and ``selectors``."""
