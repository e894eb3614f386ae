"""TFConvolution2D: a convolution with TensorFlow's ``'SAME'`` and ``'VALID'`` padding
(ChainerCV's)."""

from __future__ import annotations

import framework.functions as F
from framework.links import Chain, Convolution2D


def tf_pad_amounts(in_size: int, ksize: int, stride: int, tf_padding: str) -> tuple[int, int]:
    """The padding before and after one axis that gives TensorFlow's output size: ``'SAME'``
    gives ``ceil(in / stride)`` and ``'VALID'`` ``ceil((in - ksize + 1) / stride)``; the odd
    pixel goes after, as in TensorFlow."""
    if tf_padding == 'SAME':
        out_size = -(-in_size // stride)
    else:
        out_size = -(-(in_size - ksize + 1) // stride)
    total = max(stride * (out_size - 1) + ksize - in_size, 0)
    return total // 2, total - total // 2


class TFConvolution2D(Chain):
    """A :class:`~framework.links.Convolution2D` (the child ``conv``) whose ``pad`` may also be
    TensorFlow's ``'SAME'`` or ``'VALID'``: the input is then padded with zeros, by the
    amounts TensorFlow uses for its size, before the convolution. An integer ``pad`` is the
    convolution's own.

    The other arguments are those of :class:`~framework.links.Convolution2D`.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad='SAME',
                 nobias: bool = False, initialW=None, initial_bias=None, *, dilate=1,
                 groups: int = 1):
        super().__init__()
        if isinstance(pad, str) and pad not in ('SAME', 'VALID'):
            raise ValueError(f"TFConvolution2D: pad must be an int, 'SAME' or 'VALID', but got "
                             f"{pad!r}")
        self.tf_padding = pad if isinstance(pad, str) else None
        with self.init_scope():
            self.conv = Convolution2D(in_channels, out_channels, ksize, stride,
                                      0 if self.tf_padding else pad, nobias, initialW,
                                      initial_bias, dilate=dilate, groups=groups)

    @property
    def W(self):
        return self.conv.W

    @property
    def b(self):
        return self.conv.b

    def forward(self, x):
        if self.tf_padding is not None:
            # From the link's ksize: W is not initialised yet when in_channels is None.
            ksize = self.conv.ksize
            ksize = (ksize, ksize) if isinstance(ksize, int) else tuple(ksize)
            widths = [tf_pad_amounts(n, k, s, self.tf_padding)
                      for n, k, s in zip(x.shape[2:], ksize, self.conv.stride)]
            if any(before or after for before, after in widths):
                x = F.pad(x, ((0, 0), (0, 0), *widths), 'constant')
        return self.conv(x)
