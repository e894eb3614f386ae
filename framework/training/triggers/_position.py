"""The position a trigger saw at its previous call, which interval-like triggers compare the
current position with (and save in snapshots, under Chainer's keys)."""

from __future__ import annotations

import warnings

from framework.reporter import serialize_scalar

_UNITS = ('epoch', 'iteration')


def check_unit(who: str, unit: str) -> str:
    """Returns ``unit``, or raises a ValueError naming ``who`` when it is not a trigger unit."""
    if unit not in _UNITS:
        raise ValueError(f"{who}: unit must be 'epoch' or 'iteration', but got {unit!r}")
    return unit


class PreviousPosition:
    """The iteration and epoch detail of the previous call of a trigger.

    A negative value means "unknown" (a snapshot that did not save it); the previous position
    is then guessed from the updater.
    """

    def __init__(self):
        self.iteration = 0
        self.epoch_detail = 0.

    def span(self, updater, unit: str) -> tuple[float, float]:
        """``(previous, current)`` positions in ``unit``."""
        if unit == 'epoch':
            previous = self.epoch_detail
            if previous < 0:
                previous = updater.previous_epoch_detail
                previous = -1. if previous is None else previous
            return previous, updater.epoch_detail
        previous = self.iteration
        if previous < 0:
            previous = updater.iteration - 1
        return previous, updater.iteration

    def record(self, updater) -> None:
        """Remembers the current position of ``updater``."""
        self.iteration = updater.iteration
        if hasattr(updater, 'epoch_detail'):
            self.epoch_detail = updater.epoch_detail

    def serialize(self, serializer, who: str) -> None:
        """Saves or loads ``previous_iteration`` and ``previous_epoch_detail``; a file without
        them (an old snapshot) gives a warning, not an error, as in Chainer."""
        try:
            self.iteration = serialize_scalar(serializer, 'previous_iteration', self.iteration)
        except KeyError:
            warnings.warn(f'{who}: the previous iteration was not saved; it is guessed from the '
                          'current one, which is right only if the trigger is called at every '
                          'iteration', stacklevel=3)
            self.iteration = -1
        try:
            self.epoch_detail = serialize_scalar(serializer, 'previous_epoch_detail',
                                                 self.epoch_detail)
        except KeyError:
            warnings.warn(f'{who}: the previous epoch detail was not saved; the one of the '
                          'updater is used', stacklevel=3)
            self.epoch_detail = -1.
