"""The command line's tests use the engine's fixtures: the standard variant, its board, broken copies."""

from tests.engine.conftest import board, standard, variant_copy

__all__ = ["board", "standard", "variant_copy"]
