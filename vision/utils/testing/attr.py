"""ChainerCV's ``chainercv.utils.testing.attr``: the test attributes of
:mod:`framework.testing.attr` (``gpu``, ``slow``, ``mpi``) under ChainerCV's module name."""

from framework.testing.attr import gpu, mpi, slow

__all__ = ['gpu', 'mpi', 'slow']
