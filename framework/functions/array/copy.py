"""Copying an array onto another device."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import array_input
from framework.variable import Variable


class Copy(FunctionNode):

    def __init__(self, in_device: backend.Device, out_device: backend.Device):
        self.in_device = in_device
        self.out_device = out_device

    def forward(self, inputs):
        x, = inputs
        if backend.get_device_from_array(x) == self.out_device:
            return x.view(),
        return self.out_device.send(x),

    def backward(self, indexes, grad_outputs):
        return Copy(self.out_device, self.in_device).apply(grad_outputs)


def copy(x, dst) -> Variable:
    """Copies ``x`` onto the device ``dst``; the gradient is copied back to the device of ``x``.

    When ``x`` already lives on ``dst`` nothing is copied: the output holds a view of ``x``.

    Args:
        x (Variable or array): the input.
        dst: the target device: a :class:`~framework.backend.Device`, a name such as
            ``'@numpy'`` or ``'@cupy:0'``, or an int (-1 for the host, ``n`` for GPU ``n``),
            as :func:`framework.backend.get_device` takes.

    Returns:
        Variable: of the shape and dtype of ``x``, on ``dst``.
    """
    x_array = array_input('copy', 'x', x)
    in_device = backend.get_device_from_array(x_array)
    out_device = backend.get_device(dst)
    return Copy(in_device, out_device).apply((x,))[0]
