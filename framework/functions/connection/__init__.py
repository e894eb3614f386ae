"""Connection functions: linear maps (and, later, convolutions)."""

__all__ = []
