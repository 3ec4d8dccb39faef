"""``python -m dipserver.engine``: the old name of the command line, kept for the tools that use it.

The command line is its own package now, ``dipserver.adjudicator`` (run ``python -m dipserver.adjudicator``);
importing its ``__main__`` runs it, arguments, exit status and all. This is the one import from the engine
into that package, and the import contract names it as its one exception.
"""

import dipserver.adjudicator.__main__  # noqa: F401  (runs the command line and ends the process)
