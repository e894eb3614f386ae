"""Initializers: objects that fill a parameter's array in place (Chainer's ``initializers``).

An initializer is called with the array to fill; its ``dtype`` (None for any) is the dtype of
the arrays it makes through :func:`generate_array`. Random initializers draw from
:mod:`framework.random` (or from a generator given as ``rng``), so ``framework.random.seed(0)``
builds the same model every time. :func:`get_initializer` turns what a link's constructor
takes (an initializer, a scalar, an array or None) into an initializer.
"""

from __future__ import annotations

import numbers

import numpy

from framework import backend
from framework.initializers.base import Initializer, generate_array, get_fans
from framework.initializers.constant import Constant, Identity, NaN, One, Zero
from framework.initializers.normal import GlorotNormal, HeNormal, LeCunNormal, Normal
from framework.initializers.orthogonal import Orthogonal
from framework.initializers.uniform import GlorotUniform, HeUniform, LeCunUniform, Uniform

__all__ = [
    'Constant', 'GlorotNormal', 'GlorotUniform', 'HeNormal', 'HeUniform', 'Identity',
    'Initializer', 'LeCunNormal', 'LeCunUniform', 'NaN', 'Normal', 'One', 'Orthogonal',
    'Uniform', 'Zero', 'generate_array', 'get_fans', 'get_initializer',
]


def get_initializer(initializer) -> Initializer:
    """Returns an :class:`Initializer` for ``initializer`` (Chainer's ``_get_initializer``).

    Args:
        initializer: an Initializer or any callable filling an array; a scalar (a constant);
            an array (copied); None (LeCunNormal, Chainer's default for weights).

    Returns:
        ``initializer`` itself when it is callable, else a :class:`Constant` or a
        :class:`LeCunNormal`.

    Raises:
        TypeError: naming the type of ``initializer`` when it is none of these.
    """
    if initializer is None:
        return LeCunNormal()
    if isinstance(initializer, numbers.Number) and not isinstance(initializer, bool) or \
            isinstance(initializer, numpy.generic):
        return Constant(initializer)
    if backend.is_array(initializer):
        return Constant(initializer)
    if not callable(initializer):
        raise TypeError(f'get_initializer: initializer must be an Initializer, a callable, a '
                        f'scalar, an array or None, but got {type(initializer).__name__}')
    return initializer
