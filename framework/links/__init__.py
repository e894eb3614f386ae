"""Links (``import framework.links as L``): components that own parameters.

``Link``, ``Chain``, ``ChainList`` and ``Sequential`` structure models; the layers (Linear,
Convolution2D, BatchNormalization, ...) are links with Chainer's names and arguments.
"""

from framework.links.link import Chain, ChainList, Link
from framework.links.sequential import Sequential

__all__ = ['Chain', 'ChainList', 'Link', 'Sequential']
