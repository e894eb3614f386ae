"""The orthogonal initializer (Saxe et al., 2014)."""

from __future__ import annotations

import math

import numpy

from framework import backend
from framework.initializers.base import Initializer, random_state

# mode: (whether more inputs than outputs is refused, whether fewer is refused)
_MODES = {
    'auto': (False, False),
    'projection': (False, True),
    'embedding': (True, False),
    'basis': (True, True),
}


class Orthogonal(Initializer):
    """Fills an array with ``scale`` times a (semi-)orthogonal matrix.

    The array is seen as a matrix of ``out = shape[0]`` rows and ``in = prod(shape[1:])``
    columns. A matrix of standard normal draws is QR-decomposed (transposed first when there are
    more columns than rows) with the diagonal of R made non-negative, which makes the result
    uniformly distributed: the rows are orthonormal when ``out <= in``, the columns when
    ``out >= in``. A 0-dimensional array gets ``scale`` or ``-scale``. The draws are made on
    the host (from NumPy's generator of :mod:`framework.random`, or ``rng``) and sent to the
    array's device, so a seed gives the same values on every device.

    Args:
        scale (float): the factor of the matrix.
        dtype: see :class:`~framework.initializers.Initializer`.
        mode (str): which shapes are accepted: ``'auto'`` any; ``'projection'`` needs
            ``out <= in`` (orthonormal rows); ``'embedding'`` needs ``out >= in``
            (orthonormal columns); ``'basis'`` needs ``out == in``.
        rng: a generator with NumPy's ``RandomState`` interface to draw from.

    Raises:
        ValueError: for an unknown mode; when called on an empty array or on a shape that the
            mode refuses.
    """

    def __init__(self, scale: float = 1.1, dtype=None, mode: str = 'auto', *, rng=None):
        if mode not in _MODES:
            raise ValueError(f'Orthogonal: mode must be one of {", ".join(map(repr, _MODES))}, '
                             f'but got {mode!r}')
        super().__init__(dtype)
        self.scale = scale
        self.mode = mode
        self.rng = rng

    def __call__(self, array) -> None:
        self.check_dtype(array)
        generator = random_state(self.rng, numpy)
        device = backend.get_device_from_array(array)
        if array.ndim == 0:
            value = self.scale * (2 * int(generator.randint(2)) - 1)
            array[...] = device.send(numpy.asarray(value, array.dtype))
            return
        if array.size == 0:
            raise ValueError(f'Orthogonal: the array to fill must not be empty, but got shape '
                             f'{array.shape}')
        out_dim, in_dim = array.shape[0], math.prod(array.shape[1:])
        refuse_wide, refuse_tall = _MODES[self.mode]
        if (in_dim > out_dim and refuse_wide) or (in_dim < out_dim and refuse_tall):
            raise ValueError(f'Orthogonal: mode {self.mode!r} cannot fill shape {array.shape} '
                             f'({in_dim} inputs, {out_dim} outputs)')
        a = backend.to_cpu(generator.normal(size=(out_dim, in_dim)))
        transpose = in_dim > out_dim
        q, r = numpy.linalg.qr(a.T if transpose else a)
        q *= numpy.copysign(self.scale, numpy.diag(r))
        q = q.T if transpose else q
        array[...] = device.send(q.reshape(array.shape).astype(array.dtype))
