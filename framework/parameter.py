"""Parameter: a Variable that a link owns and an optimizer updates."""

from __future__ import annotations

import numpy

from framework import backend, initializers
from framework.variable import Variable


class Parameter(Variable):
    """A trainable Variable, possibly not yet initialized (its shape unknown until first use).

    Args:
        initializer: an array (the initial value), a scalar, an initializer, or None
            (:class:`~framework.initializers.LeCunNormal`).
        shape (int or tuple of int): the shape; when None and ``initializer`` is not an array,
            the parameter stays uninitialized until :meth:`initialize` is called.
        name (str): the name.

    Attributes:
        initializer: what :meth:`initialize` fills the array with.
        update_rule: set by an optimizer: how this parameter is updated.
    """

    def __init__(self, initializer=None, shape=None, name: str | None = None):
        if backend.is_array(initializer) and shape is None:
            super().__init__(initializer, name=name)
            self.initializer = initializers.Constant(initializer)
        else:
            super().__init__(None, name=name)
            self.initializer = initializers.get_initializer(initializer)
        self.update_rule = None
        self._device = backend.get_device_from_array(initializer)
        if shape is not None:
            self.initialize(shape)

    @property
    def is_initialized(self) -> bool:
        return self.array is not None

    @property
    def device(self) -> backend.Device:
        """The device of the array, or where it will be made when initialized."""
        return self._device if self.array is None else super().device

    def initialize(self, shape) -> None:
        """Makes the array of ``shape`` with the initializer, on the parameter's device."""
        shape = (shape,) if isinstance(shape, (int, numpy.integer)) else tuple(shape)
        self.array = initializers.generate_array(self.initializer, shape, device=self._device)

    def to_device(self, device) -> Parameter:
        """Moves the array and gradient (or, uninitialized, the future array) to ``device``."""
        self._device = backend.get_device(device)
        super().to_device(self._device)
        return self

    def zerograd(self) -> None:
        if self.array is not None:
            super().zerograd()

    def __repr__(self):
        if self.array is None:
            return f'parameter(uninitialized, name={self.name!r})'
        return 'parameter' + super().__repr__()[len('variable'):]
