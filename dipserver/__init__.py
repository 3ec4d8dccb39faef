# The compiled engine modules are used only while they match their sources (``native.py``).
from dipserver.native import guard as _guard

_guard()
