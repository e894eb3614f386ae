"""Optimizers (``from framework import optimizers``), with Chainer's names and arguments.

Each is a :class:`~framework.optimizer.GradientMethod` whose update rule is the class of the
same name with ``Rule`` appended (``MomentumSGD`` and ``MomentumSGDRule``). The base classes
live in :mod:`framework.optimizer` and are re-exported here.
"""

from framework.optimizer import (
    GradientMethod,
    Hyperparameter,
    HyperparameterProxy,
    Optimizer,
    UpdateRule,
)
from framework.optimizers.ada_grad import AdaGrad, AdaGradRule
from framework.optimizers.adam import AdaBound, Adam, AdamRule, AdamW, AMSBound, AMSGrad
from framework.optimizers.corrected_momentum_sgd import (
    CorrectedMomentumSGD,
    CorrectedMomentumSGDRule,
)
from framework.optimizers.momentum_sgd import MomentumSGD, MomentumSGDRule
from framework.optimizers.nesterov_ag import NesterovAG, NesterovAGRule
from framework.optimizers.rmsprop import RMSprop, RMSpropRule
from framework.optimizers.sgd import SGD, SGDRule

__all__ = [
    'AMSBound', 'AMSGrad', 'AdaBound', 'AdaGrad', 'AdaGradRule', 'Adam', 'AdamRule', 'AdamW',
    'CorrectedMomentumSGD', 'CorrectedMomentumSGDRule', 'GradientMethod', 'Hyperparameter',
    'HyperparameterProxy', 'MomentumSGD', 'MomentumSGDRule', 'NesterovAG', 'NesterovAGRule',
    'Optimizer', 'RMSprop', 'RMSpropRule', 'SGD', 'SGDRule', 'UpdateRule',
]
