"""Mathematical functions."""

from framework.functions.math.average import average, mean
from framework.functions.math.basic_math import absolute, add, div, mul, neg, pow, sub
from framework.functions.math.bias import bias
from framework.functions.math.clip import clip
from framework.functions.math.cumprod import cumprod
from framework.functions.math.cumsum import cumsum
from framework.functions.math.exponential import exp, log, log2, log10
from framework.functions.math.exponential_m1 import expm1
from framework.functions.math.floor import floor
from framework.functions.math.fmod import fmod
from framework.functions.math.logarithm_1p import log1p
from framework.functions.math.logsumexp import logsumexp
from framework.functions.math.matmul import batch_matmul, matmul
from framework.functions.math.maximum import maximum
from framework.functions.math.minimum import minimum
from framework.functions.math.minmax import argmax, argmin, max, min
from framework.functions.math.prod import prod
from framework.functions.math.scale import scale
from framework.functions.math.sqrt import rsqrt, sqrt
from framework.functions.math.square import square
from framework.functions.math.sum import sum, sum_to
from framework.functions.math.trigonometric import cos, sin, tan

__all__ = [
    'absolute', 'add', 'div', 'exp', 'log', 'log2', 'log10', 'mul', 'neg', 'pow', 'sub', 'sum',
    'sum_to',
    'clip', 'cos', 'expm1', 'floor', 'fmod', 'log1p', 'maximum', 'minimum', 'rsqrt', 'sin',
    'sqrt', 'square', 'tan',
    'argmax', 'argmin', 'average', 'batch_matmul', 'cumprod', 'cumsum', 'logsumexp', 'matmul',
    'max', 'mean', 'min', 'prod',
    'bias', 'scale',
]
