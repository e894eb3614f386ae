"""A define-by-run deep-learning runtime in the style of Chainer.

The names user code needs most are here: :class:`Variable`, :func:`grad`, the configuration
(:data:`config`, :func:`using_config`, :func:`no_backprop_mode`, :func:`force_backprop_mode`),
:class:`FunctionNode` for new differentiable operations, :class:`Link`/:class:`Chain` for
models and :class:`Optimizer`. Functions live in :mod:`framework.functions` (``F``), layers in
:mod:`framework.links` (``L``), devices in :mod:`framework.backend`; the subpackages
``initializers``, ``optimizers``, ``optimizer_hooks`` and ``serializers`` are imported with it.
Observed values are reported with :func:`report` (:mod:`framework.reporter`); the training
loop is :mod:`framework.training`. The engine, memory pool and resources
(:mod:`framework.engine`, :mod:`framework.memory`, :mod:`framework.resources`) are imported on
demand.
"""

from framework import (
    backend,
    initializers,
    optimizer_hooks,
    optimizers,
    random,
    reporter,
    serializers,
    training,
)
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
from framework.optimizer import GradientMethod, Optimizer, UpdateRule
from framework.parameter import Parameter
from framework.reporter import (
    DictSummary,
    Reporter,
    Summary,
    get_current_reporter,
    report,
    report_scope,
)
from framework.variable import Variable, VariableNode, as_array, as_variable

__all__ = [
    'Chain', 'ChainList', 'DictSummary', 'FunctionNode', 'GradientMethod', 'Link', 'Optimizer',
    'Parameter', 'Reporter', 'Sequential', 'Summary', 'UpdateRule', 'Variable', 'VariableNode',
    'as_array', 'as_variable', 'backend', 'config', 'force_backprop_mode', 'get_current_reporter',
    'global_config', 'grad', 'initializers', 'no_backprop_mode', 'optimizer_hooks', 'optimizers',
    'random', 'report', 'report_scope', 'reporter', 'serializers', 'training', 'using_config',
]
