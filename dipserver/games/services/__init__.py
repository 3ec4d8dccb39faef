"""Every write to games goes through these functions (keyword-only, ``<entity>_<action>``, atomic)."""
