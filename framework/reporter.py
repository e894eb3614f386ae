"""Reporting observed values (Chainer's ``chainer.reporter``).

Code anywhere in a model reports named values with :func:`report`; the current
:class:`Reporter` writes them into its observation dictionary, the names prefixed by the name of
the *observer* (a link registered with :meth:`Reporter.add_observer`)::

    class Regressor(framework.Chain):
        def forward(self, x, t):
            loss = F.mean_squared_error(self.predictor(x), t)
            framework.reporter.report({'loss': loss}, self)   # 'main/loss' in a Trainer
            return loss

:class:`Summary` and :class:`DictSummary` accumulate the reported scalars over several
iterations (mean and standard deviation, optionally weighted); they are saved in snapshots.
"""

from __future__ import annotations

import collections
import contextlib
import copy
import json
import threading
import warnings
from collections.abc import Iterable, Iterator

import numpy

from framework import backend
from framework.config import config, global_config
from framework.serializers.serializer import Serializer
from framework.variable import Variable

#: Whether :func:`report` keeps the graph of a reported Variable (Chainer's
#: ``config.keep_graph_on_report``); by default a reported Variable is a copy that is a leaf.
global_config.keep_graph_on_report = False

_thread_local = threading.local()


def _copy_variable(value):
    if isinstance(value, Variable):
        return copy.copy(value)
    return value


class Reporter:
    """The object to which observed values are reported.

    A reporter holds the observation dictionary of the current scope and the names of its
    observers. A value reported with an observer is stored under ``'<observer name>/<key>'``,
    one reported without one under ``'<key>'``::

        >>> reporter = Reporter()
        >>> observer = object()
        >>> reporter.add_observer('my_observer', observer)
        >>> observation = {}
        >>> with reporter.scope(observation):
        ...     reporter.report({'x': 1}, observer)
        >>> observation
        {'my_observer/x': 1}

    The :class:`~framework.training.Trainer` registers the target link of each optimizer
    (``'main'``) and its descendant links (``'main/predictor'``...) as observers.

    Attributes:
        observation (dict): the observed values of the current scope.
    """

    def __init__(self):
        self._observer_names: dict[int, str] = {}
        self.observation: dict = {}

    def __enter__(self):
        """Makes this reporter current (in this thread)."""
        _get_reporters().append(self)

    def __exit__(self, exc_type, exc_value, traceback):
        """Makes the previous reporter current again."""
        _get_reporters().pop()

    @contextlib.contextmanager
    def scope(self, observation: dict) -> Iterator[None]:
        """Makes this reporter current and reports into ``observation`` inside the block."""
        old = self.observation
        self.observation = observation
        self.__enter__()
        try:
            yield
        finally:
            self.__exit__(None, None, None)
            self.observation = old

    def add_observer(self, name: str, observer) -> None:
        """Registers ``observer`` (told apart by identity, ``id(observer)``) as ``name``."""
        self._observer_names[id(observer)] = name

    def add_observers(self, prefix: str, observers: Iterable) -> None:
        """Registers several observers, each ``(name, observer)``, as ``prefix + name``."""
        for name, observer in observers:
            self._observer_names[id(observer)] = prefix + name

    def report(self, values: dict, observer=None) -> None:
        """Writes ``values`` into the observation, the keys prefixed by the observer's name.

        A Variable is stored as a copy that shares its array but not its graph, unless
        ``config.keep_graph_on_report`` is True.

        Raises:
            KeyError: ``observer`` is not registered.
        """
        if not config.keep_graph_on_report:
            values = {k: _copy_variable(v) for k, v in values.items()}
        if observer is None:
            self.observation.update(values)
            return
        name = self._observer_names.get(id(observer))
        if name is None:
            raise KeyError('Reporter.report: the given observer is not registered to the '
                           f'reporter (a {type(observer).__name__}); register it with '
                           'add_observer first')
        for key, value in values.items():
            self.observation[f'{name}/{key}'] = value


def _get_reporters() -> list[Reporter]:
    reporters = getattr(_thread_local, 'reporters', None)
    if reporters is None:
        reporters = _thread_local.reporters = []
    return reporters


def get_current_reporter() -> Reporter:
    """Returns the current reporter of this thread.

    Raises:
        IndexError: no reporter is current.
    """
    return _get_reporters()[-1]


def report(values: dict, observer=None) -> None:
    """Reports ``values`` to the current reporter (does nothing when none is current).

    Args:
        values (dict): the observed values: scalars, 0-dimensional arrays or Variables.
        observer: a registered observer, whose name prefixes the keys; None for no prefix.
    """
    reporters = _get_reporters()
    if reporters:
        reporters[-1].report(values, observer)


@contextlib.contextmanager
def report_scope(observation: dict) -> Iterator[None]:
    """Makes the current reporter report into ``observation`` inside the block."""
    current = _get_reporters()[-1]
    old = current.observation
    current.observation = observation
    try:
        yield
    finally:
        current.observation = old


class Summary:
    """Online mean and standard deviation of a sequence of (weighted) scalars.

    The sums stay on the device of the values added (no synchronization per value).
    """

    def __init__(self):
        self._x = 0.0
        self._x2 = 0.0
        self._n = 0

    def add(self, value, weight=1) -> None:
        """Adds a scalar (a Python or NumPy scalar, or a 0-dimensional array of any device),
        with a scalar ``weight``."""
        with backend.using_device(backend.get_device_from_array(value)):
            self._x += weight * value
            self._x2 += weight * value * value
            self._n += weight

    def compute_mean(self):
        """The weighted mean."""
        x, n = self._x, self._n
        with backend.using_device(backend.get_device_from_array(x)):
            return x / n

    def make_statistics(self) -> tuple:
        """The weighted mean and standard deviation."""
        x, n = self._x, self._n
        xp = backend.get_array_module(x)
        with backend.using_device(backend.get_device_from_array(x)):
            mean = x / n
            var = self._x2 / n - mean * mean
            return mean, xp.sqrt(var)

    def serialize(self, serializer) -> None:
        """Saves or loads the sums (keys ``_x``, ``_x2``, ``_n``)."""
        try:
            self._x = serialize_scalar(serializer, '_x', self._x)
            self._x2 = serialize_scalar(serializer, '_x2', self._x2)
            self._n = serialize_scalar(serializer, '_n', self._n)
        except KeyError:
            warnings.warn('Summary: the previous statistics are not saved', stacklevel=2)


class DictSummary:
    """Online summaries of the scalar entries of a sequence of dictionaries.

    Entries that are numbers, 0-dimensional arrays or Variables holding one are summarized;
    others (strings, larger arrays...) are ignored. A value given as a tuple
    ``(value, weight)`` is weighted.
    """

    def __init__(self):
        self._summaries: dict[str, Summary] = collections.defaultdict(Summary)

    def add(self, d: dict) -> None:
        """Adds the scalar entries of ``d``.

        Raises:
            ValueError: a weight is not a scalar.
        """
        summaries = self._summaries
        for key, value in d.items():
            weight = 1
            if isinstance(value, tuple):
                value, weight = value
                if isinstance(weight, Variable):
                    weight = weight.array
                if not _is_scalar(weight):
                    raise ValueError(f'DictSummary.add: the weight given to {key!r} must be a '
                                     f'scalar, but got {type(weight).__name__} of shape '
                                     f'{getattr(weight, "shape", None)}')
            if isinstance(value, Variable):
                value = value.array
            if _is_scalar(value):
                summaries[key].add(value, weight=weight)

    def compute_mean(self) -> dict:
        """The mean of each entry: ``{key: mean}``."""
        return {name: summary.compute_mean() for name, summary in self._summaries.items()}

    def make_statistics(self) -> dict:
        """The mean of each entry under its key and the standard deviation under
        ``'<key>.std'``."""
        stats = {}
        for name, summary in self._summaries.items():
            mean, std = summary.make_statistics()
            stats[name] = mean
            stats[name + '.std'] = std
        return stats

    def serialize(self, serializer) -> None:
        """Saves or loads the entries: their names as JSON under ``_names``, their sums under
        ``_summaries/<index>/``, as Chainer does."""
        if isinstance(serializer, Serializer):
            names = list(self._summaries)
            serializer('_names', json.dumps(names))
            for index, name in enumerate(names):
                self._summaries[name].serialize(serializer['_summaries'][str(index)])
            return
        self._summaries.clear()
        try:
            names = json.loads(str(serialize_scalar(serializer, '_names', '')))
        except KeyError:
            warnings.warn('DictSummary: the names of statistics are not saved', stacklevel=2)
            return
        for index, name in enumerate(names):
            self._summaries[name].serialize(serializer['_summaries'][str(index)])


def serialize_scalar(serializer, key: str, value):
    """Saves ``value`` (a number), or loads it with the type it was saved with.

    A number that is accumulated (a sum of float32 values, an integer count that a float
    weight made a float) may change type during the training; it is loaded with the type it
    was saved with, so that the resumed arithmetic is the same: a Python number for the types
    that Python numbers are saved as (int64, float64, bool), a NumPy scalar otherwise. (Loaded
    into the type of a fresh object, it could be refused or promote differently.)
    """
    if isinstance(serializer, Serializer):
        return serializer(key, value)
    loaded = serializer(key, None)
    if isinstance(loaded, numpy.ndarray) and loaded.ndim == 0:
        if loaded.dtype in (numpy.int64, numpy.float64, numpy.bool_):
            return loaded.item()
        return loaded[()]
    return loaded


def _is_scalar(value) -> bool:
    """Whether ``value`` is a number that a summary can accumulate (not a string)."""
    if isinstance(value, (str, bytes)):
        return False
    return numpy.isscalar(value) or getattr(value, 'ndim', -1) == 0
