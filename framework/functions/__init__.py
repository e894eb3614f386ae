"""Differentiable functions, imported as ``F`` (``import framework.functions as F``).

Each family is a subpackage: ``math``, ``array``, ``activation``, ``loss``, ``evaluation`` and
``noise``; every public function of a family is exported here under Chainer's name.
"""

from framework.functions.array import *
from framework.functions.math import *
