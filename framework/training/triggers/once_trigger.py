"""OnceTrigger: fires once, at the first call."""

from __future__ import annotations

import warnings

from framework.reporter import serialize_scalar


class OnceTrigger:
    """A trigger that fires at its first call only (and, optionally, once more after a
    resume).

    Args:
        call_on_resume (bool): whether to fire again at the first call after the trigger was
            loaded from a snapshot.
    """

    def __init__(self, call_on_resume: bool = False):
        self._flag_first = True
        self._flag_resumed = call_on_resume

    @property
    def finished(self) -> bool:
        """Whether the trigger will not fire any more."""
        return not (self._flag_first or self._flag_resumed)

    def __call__(self, trainer) -> bool:
        fire = not self.finished
        self._flag_resumed = False
        self._flag_first = False
        return fire

    def serialize(self, serializer) -> None:
        """Saves or loads whether the first call is still to come (``_flag_first``); a file
        without it (an old snapshot) gives a warning and the first call is taken as done, as in
        Chainer."""
        try:
            self._flag_first = bool(serialize_scalar(serializer, '_flag_first',
                                                     self._flag_first))
        except KeyError:
            warnings.warn('OnceTrigger: the flag was not saved; the first call is taken as '
                          'done, which is wrong if the trigger was saved before it',
                          stacklevel=2)
            self._flag_first = False
