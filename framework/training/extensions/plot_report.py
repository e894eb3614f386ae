"""PlotReport: plots observed values over the training into an image file."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable

from framework import reporter
from framework.serializers.serializer import Serializer
from framework.training import extension
from framework.training.extensions._figure import matplotlib_available, new_figure, save_figure
from framework.training.extensions._summary import host_means, observed
from framework.training.trigger import get_trigger

_available = matplotlib_available()  # Chainer's name, read by its tests


class PlotReport(extension.Extension):
    """Plots the means of observed values over each interval, one line per key, into
    ``<out>/<filename>``.

    The figure is drawn with Matplotlib's Agg renderer (no display and no global pyplot state
    is involved) and the file is replaced atomically. Without Matplotlib the extension does
    nothing (see :meth:`available`).

    Args:
        y_keys (str or list of str): the keys to plot.
        x_key (str): ``'epoch'`` or ``'iteration'``: the horizontal axis.
        trigger: when to add a point and redraw (``(1, 'epoch')``).
        postprocess (callable): ``postprocess(figure, axes, summary)`` is called before the
            figure is saved.
        filename (str): the image file name; its extension chooses the format (``.png``).
        marker (str): the Matplotlib marker of the points (None for none).
        grid (bool): whether to draw a grid.
        file_name (str): Chainer's old name of ``filename``.
    """

    def __init__(self, y_keys: str | Iterable[str], x_key: str = 'epoch',
                 trigger=(1, 'epoch'), postprocess: Callable | None = None,
                 filename: str | None = None, marker: str | None = 'x', grid: bool = True, *,
                 file_name: str = 'plot.png'):
        if isinstance(y_keys, str):
            y_keys = (y_keys,)
        self._x_key = x_key
        self._y_keys = tuple(y_keys)
        self._trigger = get_trigger(trigger)
        self._file_name = file_name if filename is None else filename
        self._marker = marker
        self._grid = grid
        self._postprocess = postprocess
        self._summary = reporter.DictSummary()
        self._data: dict[str, list] = {k: [] for k in self._y_keys}

    @staticmethod
    def available() -> bool:
        """Whether Matplotlib can be imported (the plots are made only then)."""
        return matplotlib_available()

    def __call__(self, trainer) -> None:
        if not self.available():
            return
        self._summary.add(observed(trainer.observation, self._y_keys))
        if not self._trigger(trainer):
            return
        stats = host_means(self._summary)
        stats['epoch'] = trainer.updater.epoch
        stats['iteration'] = trainer.updater.iteration
        x = stats[self._x_key]
        for key in self._y_keys:
            if key in stats:
                self._data[key].append((x, stats[key]))
        self._draw(os.path.join(trainer.out, self._file_name))
        self._summary = reporter.DictSummary()

    def _draw(self, path: str) -> None:
        figure = new_figure()
        axes = figure.add_subplot(111)
        axes.set_xlabel(self._x_key)
        if self._grid:
            axes.grid()
        for key in self._y_keys:
            points = self._data[key]
            if points:
                xs, ys = zip(*points)
                axes.plot(xs, ys, marker=self._marker, label=key)
        if not axes.has_data():
            return
        if self._postprocess is not None:
            self._postprocess(figure, axes, self._summary)
        legend = axes.legend(bbox_to_anchor=(1.05, 1), loc=2, borderaxespad=0.)
        save_figure(figure, path, bbox_extra_artists=(legend,), bbox_inches='tight')

    def serialize(self, serializer) -> None:
        """Saves or loads the plotted points as JSON (``_plot_<filename>``, Chainer's key) and,
        unlike Chainer (whose resumed plots may get an extra point), the trigger
        (``_trigger/``) and the running summary (``_summary/``)."""
        if hasattr(self._trigger, 'serialize'):
            self._trigger.serialize(serializer['_trigger'])
        self._summary.serialize(serializer['_summary'])
        key = f'_plot_{self._file_name}'
        if isinstance(serializer, Serializer):
            serializer(key, json.dumps(self._data))
        else:
            self._data = {k: [tuple(p) for p in v]
                          for k, v in json.loads(str(serializer(key, ''))).items()}
