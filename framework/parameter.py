"""Parameter: a Variable that a link owns and an optimizer updates."""

from __future__ import annotations

import numpy

from framework import backend, initializers
from framework.variable import Variable


class Parameter(Variable):
    """A trainable Variable, possibly not yet initialized (its shape unknown until first use).

    Args:
        initializer: an array (the initial value), a scalar (a constant), an initializer
            (any callable filling an array in place), or None (NaN, as in Chainer; layers pass
            their own default initializers).
        shape (int or tuple of int): the shape; when None and ``initializer`` is not an array,
            the parameter stays uninitialized until :meth:`initialize` is called.
        name (str): the name.

    Attributes:
        initializer: what :meth:`initialize` fills the array with.
        update_rule: set by an optimizer: how this parameter is updated.

    Unlike Chainer, whose new parameters get a gradient full of NaN, a new parameter has no
    gradient (``grad`` is None) until a backward pass or :meth:`zerograd` gives it one.
    """

    def __init__(self, initializer=None, shape=None, name: str | None = None):
        if initializer is None:
            initializer = initializers.NaN()
        if backend.is_array(initializer) and shape is None:
            super().__init__(initializer, name=name)
            self.initializer = initializers.Constant(initializer)
        else:
            super().__init__(None, name=name)
            self.initializer = initializers.get_initializer(initializer)
        self.update_rule = None
        self._device = backend.get_device_from_array(initializer)
        self._zero_grad_on_init = False
        if shape is not None:
            self.initialize(shape)

    @property
    def is_initialized(self) -> bool:
        return self.array is not None

    @property
    def dtype(self) -> numpy.dtype:
        """The dtype of the array or, uninitialized, the one it will have: the initializer's,
        or float32."""
        if self.array is not None:
            return self.array.dtype
        return numpy.dtype(getattr(self.initializer, 'dtype', None) or numpy.float32)

    @property
    def device(self) -> backend.Device:
        """The device of the array, or where it will be made when initialized."""
        return self._device if self.array is None else super().device

    def initialize(self, shape) -> None:
        """Makes the array of ``shape`` with the initializer, on the parameter's device."""
        shape = (shape,) if isinstance(shape, (int, numpy.integer)) else tuple(shape)
        self.array = initializers.generate_array(self.initializer, shape, device=self._device)
        if self._zero_grad_on_init:
            super().zerograd()
            self._zero_grad_on_init = False

    def to_device(self, device) -> Parameter:
        """Moves the array and gradient (or, uninitialized, the future array) to ``device``."""
        self._device = backend.get_device(device)
        super().to_device(self._device)
        return self

    def cleargrad(self) -> None:
        super().cleargrad()
        self._zero_grad_on_init = False

    def zerograd(self) -> None:
        """Sets the gradient to zeros; an uninitialized parameter gets them when initialized."""
        if self.array is None:
            self._zero_grad_on_init = True
        else:
            super().zerograd()

    def update(self) -> None:
        """Updates the array with the update rule (set by an optimizer), if any."""
        if self.update_rule is not None:
            self.update_rule.update(self)

    # --- copies: a copy is a new graph leaf (its own node), never the original's --------------

    def __reduce__(self):
        return _recover_parameter, (backend.to_cpu(self.array), self.name,
                                    backend.to_cpu(self.grad), self.initializer,
                                    self.update_rule, str(self.device))

    def __repr__(self):
        if self.array is None:
            return f'parameter(uninitialized, name={self.name!r})'
        return 'parameter' + super().__repr__()[len('variable'):]


def _recover_parameter(array, name, grad, initializer, update_rule, device) -> Parameter:
    """Rebuilds a pickled parameter (see :meth:`Parameter.__reduce__`)."""
    param = Parameter(initializer, name=name)
    if array is not None:
        param.array = array
        param.grad = grad
    param.update_rule = update_rule
    return param.to_device(device)
