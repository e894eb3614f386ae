"""ParameterStatistics: reports statistics of the parameters and gradients of links."""

from __future__ import annotations

from collections.abc import Callable

import numpy

from framework import backend, reporter
from framework.training import extension
from framework.training.trigger import get_trigger


def _xp(x):
    return backend.get_array_module(x)


class ParameterStatistics(extension.Extension):
    """Reports statistics (mean, std, min, max, zeros, percentiles...) of every parameter and
    gradient of some links, averaged over each interval.

    The key of a statistic is ``'{prefix}/{link name}{param path}/{data|grad}/{statistic}'``,
    e.g. ``'main/predictor/conv1/W/data/mean'`` for a link named ``'main'`` (a root link has
    no name: ``'None/...'``, as in Chainer); a statistic that gives several values (the
    percentiles) reports each under ``'.../{index}'``. A gradient not computed yet is taken as
    filled with NaN (Chainer's initial gradient), so the keys are the same from the first call.

    Args:
        links (Link or list of Link): the links to watch.
        statistics (dict): name to function of a 1-D array; ``'default'`` for
            :attr:`default_statistics`, None for none (add some with
            :meth:`register_statistics`).
        report_params (bool): whether to report statistics of the parameters.
        report_grads (bool): whether to report statistics of the gradients.
        prefix (str): a prefix of the keys.
        trigger: when to report the means (``(1, 'epoch')``).
        skip_nan_params (bool): whether a parameter holding NaN reports NaN without computing
            the statistics.
    """

    default_name = 'parameter_statistics'
    priority = extension.PRIORITY_WRITER

    report_key_template = '{prefix}{link_name}{param_name}/{attr_name}/{function_name}'

    default_statistics: dict[str, Callable] = {
        'mean': lambda x: _xp(x).mean(x),
        'std': lambda x: _xp(x).std(x),
        'min': lambda x: _xp(x).min(x),
        'max': lambda x: _xp(x).max(x),
        'zeros': lambda x: _xp(x).count_nonzero(x == 0),
        'percentile': lambda x: _xp(x).percentile(
            x, (0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87)),
    }

    def __init__(self, links, statistics='default', report_params: bool = True,
                 report_grads: bool = True, prefix: str | None = None, trigger=(1, 'epoch'),
                 skip_nan_params: bool = False):
        self._links = links if isinstance(links, (list, tuple)) else (links,)
        if statistics is None:
            statistics = {}
        elif isinstance(statistics, str) and statistics == 'default':
            statistics = self.default_statistics
        self._statistics = dict(statistics)
        self._attrs = [attr for attr, wanted in (('data', report_params),
                                                 ('grad', report_grads)) if wanted]
        self._prefix = prefix
        self._trigger = get_trigger(trigger)
        self._summary = reporter.DictSummary()
        self._skip_nan_params = skip_nan_params

    def __call__(self, trainer) -> None:
        statistics = {}
        prefix = self._prefix + '/' if self._prefix else ''
        for link in self._links:
            link_name = getattr(link, 'name', 'None')
            for param_name, param in link.namedparams():
                for attr_name in self._attrs:
                    array = getattr(param, attr_name)
                    if array is None and attr_name == 'grad' and param.array is not None:
                        # No gradient yet: reported as NaN, as Chainer's NaN-filled one is.
                        array = _xp(param.array).full_like(param.array, numpy.nan)
                    if array is None:
                        continue
                    # Flattened: a statistic assumes nothing about the axes.
                    array = array.ravel()
                    for function_name, function in self._statistics.items():
                        key = self.report_key_template.format(
                            prefix=prefix, link_name=link_name, param_name=param_name,
                            attr_name=attr_name, function_name=function_name)
                        if self._skip_nan_params and bool(_xp(array).isnan(array).any()):
                            value = numpy.nan
                        else:
                            value = function(array)
                        if backend.is_array(value) and value.size > 1:
                            statistics.update((f'{key}/{i}', v) for i, v in enumerate(value))
                        else:
                            statistics[key] = value
        self._summary.add(statistics)
        if self._trigger(trainer):
            reporter.report(self._summary.compute_mean())
            self._summary = reporter.DictSummary()

    def serialize(self, serializer) -> None:
        """Saves or loads the trigger (``_trigger/``) and the running summary (``_summary/``)
        (Chainer saves neither, so its resumed statistics are off for an interval)."""
        if hasattr(self._trigger, 'serialize'):
            self._trigger.serialize(serializer['_trigger'])
        self._summary.serialize(serializer['_summary'])

    def register_statistics(self, name: str, function: Callable) -> None:
        """Adds a statistic: ``function`` of a 1-D array, reported under ``name``."""
        self._statistics[name] = function
