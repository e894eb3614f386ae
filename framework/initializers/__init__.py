"""Initializers: objects that fill a parameter's array in place (Chainer's ``initializers``).

An initializer is called with the array to fill; its ``dtype`` (None for any) is the dtype of
the arrays it makes through :func:`generate_array`. Random initializers draw from
:mod:`framework.random` (or from a generator given as ``rng``), so ``framework.random.seed(0)``
builds the same model every time.
"""

from framework.initializers.base import Initializer, generate_array, get_fans, get_initializer
from framework.initializers.constant import Constant, Identity, NaN, One, Zero
from framework.initializers.normal import GlorotNormal, HeNormal, LeCunNormal, Normal
from framework.initializers.orthogonal import Orthogonal
from framework.initializers.uniform import GlorotUniform, HeUniform, LeCunUniform, Uniform

__all__ = [
    'Constant', 'GlorotNormal', 'GlorotUniform', 'HeNormal', 'HeUniform', 'Identity',
    'Initializer', 'LeCunNormal', 'LeCunUniform', 'NaN', 'Normal', 'One', 'Orthogonal',
    'Uniform', 'Zero', 'generate_array', 'get_fans', 'get_initializer',
]
