"""Fixtures of the optimizer hook tests: devices and a small link."""

import numpy
import pytest

from framework import Parameter
from framework.links import Link
from framework.testing import devices

W0 = numpy.array([[0.5, -1.0], [0.0, 2.0], [-0.25, 0.75]], numpy.float32)
B0 = numpy.array([0.1, -0.2], numpy.float32)
GW = numpy.array([[0.3, -0.6], [1.5, -2.5], [0.05, 0.0]], numpy.float32)
GB = numpy.array([-0.4, 0.2], numpy.float32)


class _Link(Link):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.W = Parameter(W0.copy())
            self.b = Parameter(B0.copy())


@pytest.fixture(params=devices(), ids=str)
def device(request):
    return request.param


@pytest.fixture
def link(device):
    """``W`` (3, 2) and ``b`` (2,) on ``device``, with gradients ``GW`` and ``GB``; ``W`` has a
    zero element (for the sign at 0)."""
    link = _Link().to_device(device)
    link.W.grad = device.send(GW.copy())
    link.b.grad = device.send(GB.copy())
    return link


@pytest.fixture
def values():
    """The initial arrays and gradients of :func:`link`: ``(W0, B0, GW, GB)``."""
    return W0, B0, GW, GB
