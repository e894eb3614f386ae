"""Loss functions."""

from framework.functions.loss.absolute_error import absolute_error
from framework.functions.loss.hinge import hinge
from framework.functions.loss.huber_loss import huber_loss
from framework.functions.loss.mean_absolute_error import mean_absolute_error
from framework.functions.loss.mean_squared_error import mean_squared_error
from framework.functions.loss.sigmoid_cross_entropy import sigmoid_cross_entropy
from framework.functions.loss.softmax_cross_entropy import softmax_cross_entropy
from framework.functions.loss.squared_error import squared_error

__all__ = [
    'absolute_error', 'hinge', 'huber_loss', 'mean_absolute_error', 'mean_squared_error',
    'sigmoid_cross_entropy', 'softmax_cross_entropy', 'squared_error',
]
