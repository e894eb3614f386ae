"""The dtype that functions compute in for a given input dtype."""

from __future__ import annotations

import numpy


def compute_dtype(dtype) -> numpy.dtype:
    """Float32 for float16 inputs (whose sums and products lose too much), else ``dtype``."""
    dtype = numpy.dtype(dtype)
    return numpy.dtype(numpy.float32) if dtype == numpy.float16 else dtype
