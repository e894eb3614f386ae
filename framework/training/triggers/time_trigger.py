"""TimeTrigger: fires once every ``period`` seconds of training."""

from __future__ import annotations


class TimeTrigger:
    """A trigger that fires at the first call after each ``period`` seconds of training
    (measured by ``trainer.elapsed_time``, which counts the time before a resume).

    Args:
        period (float): the interval in seconds.
    """

    def __init__(self, period: float):
        self._period = period
        self._next_time = self._period

    def __call__(self, trainer) -> bool:
        if self._next_time < trainer.elapsed_time:
            self._next_time += self._period
            return True
        return False

    def serialize(self, serializer) -> None:
        """Saves or loads the time of the next firing (``next_time``)."""
        self._next_time = float(serializer('next_time', self._next_time))
