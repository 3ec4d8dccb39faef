"""The order kinds: one module per kind, each registering itself in ``registry`` when it is loaded.

This file imports nothing, so that loading the registry never loads a kind; ``standard`` loads the
Diplomacy kinds and names the modules of the kinds few games give (``conversion``, the variants'
conversions; ``modules/kinds.py``, the rule modules'), which the registry loads when it first needs them.
"""
