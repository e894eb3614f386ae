"""Initializers: objects that fill a parameter's array in place (Chainer's ``initializers``).

An initializer is called with the array to fill; its ``dtype`` (None for any) is the dtype of
the arrays it makes through :func:`generate_array`. Random initializers draw from
:mod:`framework.random`, so ``framework.random.seed(0)`` builds the same model every time.
"""

from framework.initializers.base import Initializer, generate_array, get_initializer
from framework.initializers.constant import Constant, NaN, One, Zero
from framework.initializers.normal import LeCunNormal

__all__ = ['Constant', 'Initializer', 'LeCunNormal', 'NaN', 'One', 'Zero', 'generate_array',
           'get_initializer']
