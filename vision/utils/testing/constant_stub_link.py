"""ConstantStubLink: a link that returns the same arrays whatever it is called with."""

from __future__ import annotations

from framework import backend
from framework.links import Link
from framework.variable import Variable


class ConstantStubLink(Link):
    """A link whose call returns constant Variables, to stand in for a real link in tests.

    The arrays are persistent values of the link, so :meth:`to_device` (``to_cpu``,
    ``to_gpu``) moves them and each call returns them on the link's device.

    Example:
        >>> link = ConstantStubLink((numpy.zeros((2, 3), numpy.float32),
        ...                          numpy.ones(2, numpy.int32)))
        >>> feature, label = link(anything)

    Args:
        outputs (array or tuple of arrays): The values to return: a NumPy or CuPy array,
            returned as one :class:`~framework.Variable`, or a tuple of them, returned as a
            tuple of Variables.

    Raises:
        ValueError: ``outputs`` is neither an array nor a tuple of arrays.
    """

    def __init__(self, outputs):
        super().__init__()
        self._tuple = isinstance(outputs, tuple)
        arrays = outputs if self._tuple else (outputs,)
        for i, array in enumerate(arrays):
            if not backend.is_array(array):
                where = f' at position {i} of the tuple' if self._tuple else ''
                raise ValueError('ConstantStubLink: outputs must be an array or a tuple of '
                                 f'arrays, but got a {type(array).__name__}{where}')
            self.add_persistent(f'output{i}', array)
        self._n_output = len(arrays)

    def forward(self, *_):
        """Returns the outputs, whatever the arguments.

        Returns:
            ~framework.Variable or tuple of ~framework.Variable: One Variable if ``outputs``
            was an array, else a tuple of them, holding the arrays on the link's device.
        """
        outputs = tuple(Variable(getattr(self, f'output{i}')) for i in range(self._n_output))
        return outputs if self._tuple else outputs[0]
