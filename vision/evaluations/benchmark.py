"""What the benchmarks of every task share: the examples of a dataset with their ground truth,
the classes a model must have been built for, a metric, the numbers reported, and the run that
predicts every example and scores the predictions (ChainerCV's ``examples/*/eval_*.py``).
:mod:`~vision.evaluations.detection_benchmarks`,
:mod:`~vision.evaluations.semantic_segmentation_benchmarks` and
:mod:`~vision.evaluations.instance_segmentation_benchmarks` fill it in.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Sequence

import numpy

from vision.utils.iterator import apply_to_iterator


class Benchmark:
    """A benchmark; the subclasses fill in its data, its metric and its summary.

    Attributes:
        name (str): its name on the command line (``'voc07-test'``).
        title (str): what it is (``'PASCAL VOC 2007 test'``).
        label_names (tuple of str): its classes; a model for it is built for their number.
        verb (str): what a model does with the classes, in the error that refuses weights made
            for others (``'detect'``).
        n_pred_values (int): how many of the values ``model.predict`` returns the metric
            scores: the first ones.
        marker (str or None): a path that a directory of the dataset holds, relative to it
            (None: the data is not read from a directory, or is not recognised by one).
    """

    name: str
    title: str
    label_names: tuple[str, ...]
    verb: str
    n_pred_values: int
    marker: str | None = None

    def holds(self, data_dir: str) -> bool:
        """Whether ``data_dir`` is a directory of the benchmark's dataset (it holds
        :attr:`marker`)."""
        return self.marker is not None and os.path.exists(os.path.join(data_dir, self.marker))

    def dataset(self, data_dir: str = 'auto'):
        """The examples of the benchmark: ``(img, ...)`` with the ground truth the metric
        needs.

        Args:
            data_dir (str): the dataset's directory, or ``'auto'`` to download it (once, into
                ``$VISION_HOME/datasets``) with the dataset's loader.
        """
        raise NotImplementedError

    def score(self, pred_values: Sequence[Iterable], gt_values: Sequence[Iterable]) -> dict:
        """The benchmark's metric of predictions against the ground truth.

        Args:
            pred_values (sequence of iterables): the first :attr:`n_pred_values` values of
                ``model.predict``, image by image.
            gt_values (sequence of iterables): what the examples of :meth:`dataset` hold
                after the image, image by image.

        Returns:
            dict: the result of the metric's function.
        """
        raise NotImplementedError

    def summarize(self, result: dict) -> dict[str, str]:
        """The numbers of a result that the benchmark reports.

        Args:
            result (dict): a result of :meth:`score`.

        Returns:
            dict: text by name (``'77.80 %'``, ``'-'`` where there is nothing to score):
            first the means over the classes, then the score of each of :attr:`label_names`.
        """
        raise NotImplementedError

    def prepare(self, model) -> None:
        """Checks that the model fits the benchmark, and sets it up to predict for it: its
        ``use_preset('evaluate')`` when it has one (a detector's thresholds for scoring).

        Args:
            model: the model :meth:`evaluate` is given.

        Raises:
            ValueError: the model's weights (its ``weight_spec``) were made for other classes
                than the benchmark's.
        """
        spec = getattr(model, 'weight_spec', None)
        if spec is not None and spec.label_names not in (None, self.label_names):
            raise ValueError(f'{self.title} ({self.name}) has {len(self.label_names)} classes '
                             f'({self.label_names[0]}, ...), but the weights '
                             f'{spec.describe()} {self.verb} {len(spec.label_names)} others '
                             f'({spec.label_names[0]}, ...): evaluate weights made for them')
        if hasattr(model, 'use_preset'):
            model.use_preset('evaluate')

    def evaluate(self, model, batches: Iterable[Sequence[tuple]],
                 hook: Callable | None = None) -> dict:
        """Predicts every example (after :meth:`prepare`) and scores the predictions.

        Args:
            model: a model of the benchmark's task, whose ``model.predict(imgs)`` returns the
                values :meth:`score` takes.
            batches (iterable of lists): the examples of :meth:`dataset` in batches (an
                iterator of :mod:`framework.iterators` that does not repeat).
            hook (callable or None): called after each batch, as the ``hook`` of
                :func:`~vision.utils.apply_to_iterator` (a
                :class:`~vision.utils.ProgressHook`).

        Returns:
            dict: the result of :meth:`score`.

        Raises:
            ValueError: the model does not fit the benchmark (see :meth:`prepare`).
        """
        self.prepare(model)
        _, pred_values, gt_values = apply_to_iterator(model.predict, batches, hook=hook)
        return self.score(pred_values[:self.n_pred_values], gt_values)

    def _per_class(self, values: numpy.ndarray) -> dict[str, str]:
        """Each class's score as text (``'-'`` past the end of ``values``: labels above the
        largest one predicted or in the ground truth)."""
        return {name: percent(values[i] if i < len(values) else math.nan)
                for i, name in enumerate(self.label_names)}


def percent(value: float) -> str:
    """``'77.80 %'``; ``'-'`` for NaN: nothing to score."""
    return '-' if math.isnan(value) else f'{100 * value:.2f} %'
