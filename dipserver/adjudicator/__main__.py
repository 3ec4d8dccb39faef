"""``python -m dipserver.adjudicator``: the engine's command line (see ``cli.py``).

``python -m dipserver.engine``, its name before it left the engine, runs this module too (the engine's
``__main__`` imports it), so that the tools that use that name keep working.

Start-up (imports, the variant) builds many objects that live as long as the process and no garbage
cycles, so the cyclic collector is off from the very start; ``main`` turns it back on once start-up is over.
At the end the process leaves without the interpreter's teardown, which frees every object one by one for
nothing: a tenth of a one-request run. Only this entry point does that, never ``main`` (tests call it).
"""

import gc

_collector = gc.isenabled()
gc.disable()

import os  # noqa: E402  (after the collector is off: importing is start-up too)
import sys  # noqa: E402

from dipserver.adjudicator.cli import main  # noqa: E402

_status = main(collector=_collector)
try:
    sys.stdout.flush()
    sys.stderr.flush()
except BaseException:
    raise SystemExit(_status) from None  # let the interpreter's exit report it, as it always did
os._exit(_status)
