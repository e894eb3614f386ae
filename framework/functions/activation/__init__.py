"""Activation functions."""

from framework.functions.activation.clipped_relu import clipped_relu, relu6
from framework.functions.activation.crelu import crelu
from framework.functions.activation.elu import elu
from framework.functions.activation.hard_sigmoid import hard_sigmoid
from framework.functions.activation.leaky_relu import leaky_relu
from framework.functions.activation.log_softmax import log_softmax
from framework.functions.activation.maxout import maxout
from framework.functions.activation.prelu import prelu
from framework.functions.activation.relu import relu
from framework.functions.activation.selu import selu
from framework.functions.activation.sigmoid import sigmoid
from framework.functions.activation.softmax import softmax
from framework.functions.activation.softplus import softplus
from framework.functions.activation.swish import swish
from framework.functions.activation.tanh import tanh

__all__ = [
    'clipped_relu', 'crelu', 'elu', 'hard_sigmoid', 'leaky_relu', 'log_softmax', 'maxout', 'prelu',
    'relu', 'relu6', 'selu', 'sigmoid', 'softmax', 'softplus', 'swish', 'tanh',
]
