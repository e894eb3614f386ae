"""SEBlock: a squeeze-and-excitation block (ChainerCV's)."""

from __future__ import annotations

from framework.functions.activation.relu import relu
from framework.functions.activation.sigmoid import sigmoid
from framework.functions.math.average import mean
from framework.functions.math.scale import scale
from framework.links.connection.linear import Linear
from framework.links.link import Chain


class SEBlock(Chain):
    """A squeeze-and-excitation block (Hu et al., 2018): each channel of the input is
    multiplied by a weight in (0, 1) inferred from the spatial averages of all channels.

    Args:
        n_channels (int): the number of channels of the input (and the output).
        ratio (int): the number of channels divided by the number of hidden units.

    Attributes:
        down (~framework.links.Linear): ``n_channels -> n_channels // ratio``.
        up (~framework.links.Linear): ``n_channels // ratio -> n_channels``.
    """

    def __init__(self, n_channels: int, ratio: int = 16):
        super().__init__()
        reduction_size = n_channels // ratio
        with self.init_scope():
            self.down = Linear(n_channels, reduction_size)
            self.up = Linear(reduction_size, n_channels)

    def forward(self, u):
        """Reweights the channels of ``u`` of shape ``(N, C, H, W)``."""
        weights = sigmoid(self.up(relu(self.down(mean(u, axis=(2, 3))))))
        return scale(u, weights, axis=0)
