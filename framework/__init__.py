"""A define-by-run deep-learning runtime in the style of Chainer.

The names user code needs most are here: :class:`Variable`, :func:`grad`, the configuration
(:data:`config`, :func:`using_config`, :func:`no_backprop_mode`, :func:`force_backprop_mode`)
and :class:`FunctionNode` for new differentiable operations. Functions live in
:mod:`framework.functions` (``F``), devices in :mod:`framework.backend`.
"""

from framework import backend, random
from framework._backprop import grad
from framework.config import (
    config,
    force_backprop_mode,
    global_config,
    no_backprop_mode,
    using_config,
)
from framework.function_node import FunctionNode
from framework.links import Chain, ChainList, Link, Sequential
from framework.parameter import Parameter
from framework.variable import Variable, VariableNode, as_array, as_variable

__all__ = [
    'Chain', 'ChainList', 'FunctionNode', 'Link', 'Parameter', 'Sequential', 'Variable',
    'VariableNode', 'as_array', 'as_variable', 'backend', 'config', 'force_backprop_mode',
    'global_config', 'grad', 'no_backprop_mode', 'random', 'using_config',
]
