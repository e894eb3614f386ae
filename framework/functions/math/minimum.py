"""Element-wise minimum of two inputs."""

from __future__ import annotations

from framework.functions.math._elementwise import Select, check_pair
from framework.variable import Variable


class Minimum(Select):

    ufunc = 'minimum'
    first_wins = 'less_equal'


def minimum(x1, x2) -> Variable:
    """Element-wise minimum of two inputs, broadcast together.

    Where ``x1 == x2`` the gradient goes to ``x1`` (and none to ``x2``), as in Chainer.

    Args:
        x1 (Variable or array): a floating-point input.
        x2 (Variable or array): a floating-point input of the dtype of ``x1``, whose shape
            broadcasts with that of ``x1``.

    Returns:
        Variable: of the broadcast shape and the dtype of the inputs.
    """
    check_pair('minimum', x1, x2)
    return Minimum().apply((x1, x2))[0]
