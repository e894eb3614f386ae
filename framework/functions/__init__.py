"""Differentiable functions, imported as ``F`` (``import framework.functions as F``).

Each family is a subpackage: ``math``, ``array``, ``activation``, ``connection``, ``loss``,
``evaluation`` and ``noise``; every public function of a family is exported here under Chainer's
name.
"""

from framework.functions.activation import *
from framework.functions.array import *
from framework.functions.connection import *
from framework.functions.evaluation import *
from framework.functions.loss import *
from framework.functions.math import *
from framework.functions.noise import *
from framework.functions.normalization import *
from framework.functions.pooling import *
