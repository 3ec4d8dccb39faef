"""``python -m dipserver.engine``: the engine's command line (see ``cli.py``)."""

from dipserver.engine.cli import main

raise SystemExit(main())
