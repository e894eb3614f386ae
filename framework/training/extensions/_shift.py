"""What the extensions that shift an optimizer attribute over the training share."""

from __future__ import annotations

import numpy

from framework.training import extension


class Shift(extension.Extension):
    """The base of the shift extensions: at each call the call count ``t`` grows by one and
    the attribute is set to :meth:`value_at` ``(t)``.

    :meth:`initialize` sets the attribute for the current ``t`` (the value of the last call
    when resuming from a snapshot), so that a resumed training uses the values the
    uninterrupted one would have used. Subclasses whose Chainer counterpart saves
    ``_last_value`` set :attr:`saves_last_value`.

    Args:
        attr (str): the name of the optimizer attribute (``'lr'``).
        optimizer: the optimizer; the updater's ``'main'`` one when None.
    """

    saves_last_value = True

    def __init__(self, attr: str, optimizer=None):
        self._attr = attr
        self._optimizer = optimizer
        self._t = 0
        self._last_value = None

    def value_at(self, t: int):
        """The value of the attribute after ``t`` calls."""
        raise NotImplementedError

    def resolve_initial(self, optimizer) -> None:
        """Fills the values left None at construction from the optimizer (before
        :meth:`value_at` is first used)."""

    def initialize(self, trainer) -> None:
        optimizer = self._get_optimizer(trainer)
        self.resolve_initial(optimizer)
        value = self._last_value if self._last_value is not None else self.value_at(self._t)
        self._update_value(optimizer, value)

    def __call__(self, trainer) -> None:
        self._t += 1
        self._update_value(self._get_optimizer(trainer), self.value_at(self._t))

    def serialize(self, serializer) -> None:
        """Saves or loads the call count (``_t``) and, where Chainer does, the last value
        (``_last_value``)."""
        self._t = int(serializer('_t', self._t))
        if self.saves_last_value:
            self._last_value = serializer('_last_value', self._last_value)
            if isinstance(self._last_value, numpy.ndarray):
                self._last_value = self._last_value.item()

    def _get_optimizer(self, trainer):
        return self._optimizer or trainer.updater.get_optimizer('main')

    def _update_value(self, optimizer, value) -> None:
        setattr(optimizer, self._attr, value)
        self._last_value = value


class InitialValueShift(Shift):
    """A shift computed from an initial value ``init`` (the attribute's value at the start
    when None).

    Args:
        attr (str): the name of the optimizer attribute (``'lr'``).
        init (float): the initial value, or None.
        optimizer: the optimizer; the updater's ``'main'`` one when None.
    """

    def __init__(self, attr: str, init: float | None, optimizer=None):
        super().__init__(attr, optimizer)
        self._init = init

    def resolve_initial(self, optimizer) -> None:
        if self._init is None:
            self._init = getattr(optimizer, self._attr)


def stop_at_target(value, target, increasing: bool):
    """``value`` held at ``target`` once it passes it (in the direction of the shift); works
    for negative values too, as Chainer's ratio test does (a zero target is never passed, a
    value that decreased to zero has passed any target)."""
    if target is None or target == 0:
        return value
    if value == 0:
        return value if increasing else target
    ratio = value / target
    return target if (ratio > 1 if increasing else ratio < 1) else value
