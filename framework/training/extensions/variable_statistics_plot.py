"""VariableStatisticsPlot: plots how the values and gradients of parameters are distributed
over the training (Chainer's extension)."""

from __future__ import annotations

import os

import numpy

from framework import backend
from framework.links.link import Link
from framework.training import extension
from framework.training.extensions._figure import matplotlib_available, new_figure, save_figure
from framework.training.trigger import get_trigger
from framework.variable import Variable

_PERCENTILE_SIGMAS = (0, 0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87, 100)
_available = matplotlib_available()  # Chainer's name, read by its tests
_COLOR = '#1f77b4'


def _variables(targets) -> list[Variable]:
    """The Variables of ``targets``: Variables, the parameters of Links, or lists of them."""
    if isinstance(targets, Variable):
        return [targets]
    if isinstance(targets, Link):
        return list(targets.params(include_uninit=True))
    if isinstance(targets, (list, tuple)):
        return [v for t in targets for v in _variables(t)]
    raise TypeError(f'VariableStatisticsPlot: targets must be Variables, Links or lists of '
                    f'them, but got {type(targets).__name__}')


class Reservoir:
    """A uniform random sample of at most ``size`` of the arrays added (reservoir sampling),
    each kept with its index.

    Args:
        size (int): the most arrays kept.
        data_shape (tuple of int): the shape of an array.
        dtype: the dtype the arrays are kept in.
    """

    def __init__(self, size: int, data_shape: tuple[int, ...], dtype='f'):
        self.size = size
        self.data = numpy.zeros((size,) + tuple(data_shape), dtype)
        self.idxs = numpy.zeros(size, numpy.int64)
        self.counter = 0
        self.seed = int(numpy.random.randint(2 ** 31))

    def add(self, x, idx: int | None = None) -> None:
        """Adds ``x`` with the index ``idx`` (the number of arrays added before it when None);
        once the sample is full it replaces a random array with probability
        ``size / (arrays added)``. Each draw is seeded by :attr:`seed` (drawn from NumPy's
        global generator) and that number, so that a resumed sample draws as the
        uninterrupted one."""
        if self.counter < self.size:
            slot = self.counter
        else:
            rng = numpy.random.RandomState([self.seed, self.counter])
            slot = rng.randint(self.counter + 1)
        if slot < self.size:
            self.data[slot] = x
            self.idxs[slot] = self.counter if idx is None else idx
        self.counter += 1

    def get_data(self) -> tuple[numpy.ndarray, numpy.ndarray]:
        """The indexes and the arrays kept, in the order of the indexes."""
        n = min(self.counter, self.size)
        order = numpy.argsort(self.idxs[:n], kind='stable')
        return self.idxs[:n][order], self.data[:n][order]

    def serialize(self, serializer) -> None:
        self.data = serializer('data', self.data)
        self.idxs = serializer('idxs', self.idxs)
        self.counter = int(serializer('counter', self.counter))
        self.seed = int(serializer('seed', self.seed))


class Statistician:
    """The mean, the standard deviation and percentiles of arrays.

    Args:
        collect_mean (bool), collect_std (bool): compute the mean, the standard deviation.
        percentile_sigmas (float or sequence of float): the percentiles, in ``[0, 100]``
            (empty for none).
    """

    def __init__(self, collect_mean: bool, collect_std: bool, percentile_sigmas):
        self.collect_mean = collect_mean
        self.collect_std = collect_std
        self.percentile_sigmas = percentile_sigmas

    def __call__(self, x, axis=0, dtype=None, xp=None) -> dict:
        """The statistics of ``x`` over ``axis`` (None for all), of ``x``'s dtype:
        ``{'mean': ..., 'std': ..., 'percentile': ...}`` (those collected). ``dtype`` and
        ``xp`` are accepted for Chainer's signature and not used."""
        x = backend.to_cpu(x)
        out = {}
        if self.collect_mean:
            out['mean'] = x.mean(axis=axis).astype(x.dtype)
        if self.collect_std:
            out['std'] = x.std(axis=axis).astype(x.dtype)
        if numpy.size(self.percentile_sigmas):
            out['percentile'] = numpy.percentile(x, self.percentile_sigmas,
                                                 axis=axis).astype(x.dtype)
        return out


class VariableStatisticsPlot(extension.Extension):
    """Plots the mean, the standard deviation and percentiles of the values (``data``) and the
    gradients (``grad``) of Variables into ``<out>/<filename>``.

    At each call (every iteration by default) the statistics over all the elements of the
    targets are computed and added to a random sample of at most ``max_sample_size`` calls
    (reservoir sampling); the plot of the sample is drawn when ``trigger`` fires: a column per
    kind (``data``, ``grad``), the mean with the standard deviation as error bars in the first
    row, the percentiles as bands, symmetric pairs filled, in the second. A kind whose arrays
    are all missing (no gradient yet) gives NaN, which the plot leaves out (Chainer plots
    zeros). The figure is drawn with Matplotlib's Agg renderer and the file replaced
    atomically; without Matplotlib the extension does nothing (see :meth:`available`).

    Args:
        targets (Variable, Link or list of them): the Variables, or the Links whose
            parameters are the Variables.
        max_sample_size (int): the most calls kept in the sample.
        report_data (bool): plot the statistics of the values.
        report_grad (bool): plot the statistics of the gradients.
        plot_mean (bool): plot the means.
        plot_std (bool): plot the standard deviations.
        percentile_sigmas (float or sequence of float): the percentiles to plot, in
            ``[0, 100]``; an empty sequence for none.
        trigger: when to draw the plot (``(1, 'epoch')``); distinct from the extension's own
            trigger, which decides when statistics are taken.
        filename (str): the image file name; its extension chooses the format.
        figsize (tuple of float): Matplotlib's figure size in inches.
        marker (str): the Matplotlib marker of the lines (None for none).
        grid (bool): whether to draw grids.
        file_name (str): Chainer's old name of ``filename``.
    """

    def __init__(self, targets, max_sample_size: int = 1000, report_data: bool = True,
                 report_grad: bool = True, plot_mean: bool = True, plot_std: bool = True,
                 percentile_sigmas=_PERCENTILE_SIGMAS, trigger=(1, 'epoch'),
                 filename: str | None = None, figsize=None, marker: str | None = None,
                 grid: bool = True, *, file_name: str = 'statistics.png'):
        self._variables = _variables(targets)
        if not self._variables:
            raise ValueError('VariableStatisticsPlot: targets must hold at least one Variable, '
                             'but hold none')
        self._keys = [k for k, on in (('data', report_data), ('grad', report_grad)) if on]
        if not self._keys:
            raise ValueError('VariableStatisticsPlot: report_data or report_grad must be True')
        if isinstance(percentile_sigmas, (int, float)):
            percentile_sigmas = (percentile_sigmas,)
        self._percentiles = tuple(float(p) for p in percentile_sigmas)
        if any(not 0 <= p <= 100 for p in self._percentiles):
            raise ValueError(f'VariableStatisticsPlot: percentile_sigmas must be in [0, 100], '
                             f'but got {percentile_sigmas}')
        if not (plot_mean or plot_std or self._percentiles):
            raise ValueError('VariableStatisticsPlot: nothing to plot (plot_mean, plot_std '
                             'and percentile_sigmas are all off)')
        if isinstance(max_sample_size, bool) or not isinstance(max_sample_size, int) \
                or max_sample_size < 1:
            raise ValueError(f'VariableStatisticsPlot: max_sample_size must be a positive int, '
                             f'but got {max_sample_size!r}')
        self._plot_mean = plot_mean
        self._plot_std = plot_std
        self._trigger = get_trigger(trigger)
        self._file_name = file_name if filename is None else filename
        self._figsize = figsize
        self._marker = marker
        self._grid = grid
        self._statistician = Statistician(plot_mean, plot_std, self._percentiles)
        n_stats = int(plot_mean) + int(plot_std) + len(self._percentiles)
        self._samples = Reservoir(max_sample_size, (len(self._keys), n_stats))

    @staticmethod
    def available() -> bool:
        """Whether Matplotlib can be imported (the plots are made only then)."""
        return matplotlib_available()

    def __call__(self, trainer) -> None:
        if not self.available():
            return
        self._samples.add(self._statistics(), idx=trainer.updater.iteration)
        if self._trigger(trainer):
            self._draw(os.path.join(trainer.out, self._file_name))

    def _statistics(self) -> numpy.ndarray:
        """One array of the sample: per kind, the mean, the standard deviation and the
        percentiles (those asked for) of all the elements of the targets."""
        row = numpy.full(self._samples.data.shape[1:], numpy.nan, numpy.float32)
        for i, key in enumerate(self._keys):
            arrays = [backend.to_cpu(getattr(v, key)).ravel() for v in self._variables
                      if getattr(v, key) is not None]
            if arrays:
                stats = self._statistician(numpy.concatenate(arrays).astype(numpy.float64))
                row[i] = numpy.concatenate([numpy.atleast_1d(stats[k]) for k in
                                            ('mean', 'std', 'percentile') if k in stats])
        return row

    def _draw(self, path: str) -> None:
        indexes, rows = self._samples.get_data()
        moments = self._plot_mean or self._plot_std
        n_rows = int(moments) + int(bool(self._percentiles))
        figure = new_figure(figsize=self._figsize)
        grid = figure.subplots(n_rows, len(self._keys), sharex=True, squeeze=False)
        offset = int(self._plot_mean) + int(self._plot_std)
        for col, key in enumerate(self._keys):
            values = rows[:, col]
            grid[0, col].set_title(key)
            if moments:
                axes = grid[0, col]
                if self._plot_mean and self._plot_std:
                    axes.errorbar(indexes, values[:, 0], values[:, 1], color=_COLOR,
                                  ecolor=_COLOR + '33', marker=self._marker, label='mean, std')
                else:
                    axes.plot(indexes, values[:, 0], color=_COLOR, marker=self._marker,
                              label='mean' if self._plot_mean else 'std')
            if self._percentiles:
                self._draw_percentiles(grid[n_rows - 1, col], indexes, values[:, offset:])
            grid[n_rows - 1, col].set_xlabel('iteration')
        for axes in grid.ravel():
            if axes.has_data():
                axes.legend()
            if self._grid:
                axes.grid()
                axes.set_axisbelow(True)
        save_figure(figure, path)

    def _draw_percentiles(self, axes, indexes, percentiles) -> None:
        """Bands between the symmetric pairs of percentiles (the first and the last, ...), a
        line for the middle one when their number is odd."""
        n = percentiles.shape[1]
        for i in range(n // 2):
            axes.fill_between(indexes, percentiles[:, i], percentiles[:, n - 1 - i],
                              color=_COLOR, alpha=0.2, linewidth=0,
                              label='percentile' if i == n // 2 - 1 and n % 2 == 0
                              else '_nolegend_')
        if n % 2:
            axes.plot(indexes, percentiles[:, n // 2], color=_COLOR, marker=self._marker,
                      label='percentile')

    def serialize(self, serializer) -> None:
        """Saves or loads the sample (``_samples/``) and the trigger (``_trigger/``), so that a
        resumed training plots what the uninterrupted one would."""
        if hasattr(self._trigger, 'serialize'):
            self._trigger.serialize(serializer['_trigger'])
        self._samples.serialize(serializer['_samples'])

