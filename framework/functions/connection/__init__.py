"""Connection functions: linear maps (and, later, convolutions)."""

from framework.functions.connection.linear import linear

__all__ = ['linear']
