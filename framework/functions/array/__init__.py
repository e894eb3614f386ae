"""Array manipulation functions."""

from framework.functions.array.broadcast import broadcast, broadcast_to
from framework.functions.array.reshape import reshape

__all__ = ['broadcast', 'broadcast_to', 'reshape']
