"""Mathematical functions."""

from framework.functions.math.basic_math import absolute, add, div, mul, neg, pow, sub
from framework.functions.math.exponential import exp, log, log2, log10
from framework.functions.math.sum import sum, sum_to

__all__ = [
    'absolute', 'add', 'div', 'exp', 'log', 'log2', 'log10', 'mul', 'neg', 'pow', 'sub', 'sum',
    'sum_to',
]
