"""The order kinds: one module per kind, each registering itself in ``registry`` when it is loaded.

This file imports nothing, so that loading the registry never loads a kind; ``standard`` loads the
Diplomacy kinds, ``conversion`` the variants' conversions, and ``modules/kinds.py`` the rule modules'.
"""
