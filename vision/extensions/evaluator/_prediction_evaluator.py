"""The loop shared by the evaluators: predict over the iterator, score, report."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy

from framework import reporter
from framework.config import no_backprop_mode
from framework.training.extensions import Evaluator
from vision.extensions._rewind import rewind
from vision.utils import apply_to_iterator


class PredictionEvaluator(Evaluator):
    """An :class:`~framework.training.extensions.Evaluator` that scores ``target.predict``.

    Each evaluation resets the ``'main'`` iterator (or copies it if it has no ``reset``),
    applies ``target.predict`` to its images with :func:`~vision.utils.apply_to_iterator`,
    hands the predictions and the ground truth to :meth:`score` and reports what that returns
    with ``target`` as the observer: ``'validation/main/<key>'`` once the trainer adds the
    extension's name. Nothing is averaged over batches: the metrics are computed over the
    whole set at once.

    Subclasses set :attr:`outputs` and :attr:`samples` and implement :meth:`score`.

    Args:
        iterator (~framework.dataset.Iterator): The validation set, one pass (``repeat=False``).
            Each sample is a tuple ``(img, <ground truth>...)``, as :attr:`samples` lists.
            None on a worker other than rank 0 of ``comm``, which reads no data.
        target (~framework.Link): The model; ``target.predict(imgs)`` returns one list per
            value of :attr:`outputs`.
        label_names (iterable of str): The names of the classes, indexed by label. If given,
            the per-class values are reported too, under ``'<key>/<label_names[l]>'``.
        comm: A communicator with ChainerMN's interface (``rank``, ``size``,
            ``mpi_comm.scatter``, ``gather_obj``), or None. If given, every worker must run
            the evaluation: rank 0 splits each batch among the workers, gathers their
            predictions and reports the metrics; the other ranks report nothing.

    Attributes:
        label_names (tuple of str): As given, or None.
        comm: As given.
    """

    #: The values ``target.predict`` returns, e.g. ``('bboxes', 'labels', 'scores')``.
    outputs: tuple[str, ...] = ()
    #: The layouts a sample may have, keyed by its number of ground truth values.
    samples: dict[int, str] = {}

    def __init__(self, iterator, target, label_names: Iterable[str] | None = None,
                 comm=None):
        name = type(self).__name__
        if iterator is None:
            if comm is None or comm.rank == 0:
                raise ValueError(f'{name}: iterator may be None only on a worker other than '
                                 f'rank 0 of comm, but got comm={comm!r}')
            iterator = {}
        super().__init__(iterator, target)
        self.label_names = _as_label_names(name, label_names)
        self.comm = comm

    def evaluate(self) -> dict:
        """Predicts over the whole iterator and scores the predictions.

        Returns:
            dict: The reported values, keyed ``'<observer name of target>/<key>'``; empty on
            the ranks of ``comm`` other than 0.
        """
        target = self._targets['main']
        with no_backprop_mode():
            if self.comm is not None and self.comm.rank != 0:
                apply_to_iterator(target.predict, None, comm=self.comm)
                return {}
            # The images (the first values) are dropped at once: nothing keeps them.
            out_values, rest_values = apply_to_iterator(
                target.predict, rewind(self._iterators['main']), comm=self.comm)[1:]
            self._check_layout(out_values, rest_values)
            values = self.score(out_values, rest_values)
        observation = {}
        with reporter.report_scope(observation):
            reporter.report(values, target)
        return observation

    def score(self, out_values: tuple[Iterator, ...], rest_values: tuple[Iterator, ...]
              ) -> dict:
        """Computes the values to report.

        Args:
            out_values (tuple of iterators): One iterator per value of :attr:`outputs`, each
                yielding that value for one image after another.
            rest_values (tuple of iterators): One iterator per ground truth value of the
                samples, in the same way.

        Returns:
            dict: The values to report, keyed without the observer's name.
        """
        raise NotImplementedError(f'{type(self).__name__} must implement score')

    def _check_layout(self, out_values: tuple, rest_values: tuple) -> None:
        name = type(self).__name__
        if len(out_values) != len(self.outputs):
            raise ValueError(f'{name}: target.predict must return {len(self.outputs)} values '
                             f'({", ".join(self.outputs)}), but returned {len(out_values)}')
        if len(rest_values) not in self.samples:
            layouts = ' or '.join(f'({layout})' for layout in self.samples.values())
            raise ValueError(f'{name}: each sample of the iterator must be {layouts}, but got '
                             f'samples of {len(rest_values) + 1} values')


def per_class(key: str, values: numpy.ndarray, label_names: tuple[str, ...]) -> dict:
    """``{'<key>/<label_names[l]>': values[l]}``; NaN for a label past the end of ``values``
    (a class that is in neither the predictions nor the ground truth)."""
    return {f'{key}/{label_name}': values[label] if label < len(values) else numpy.nan
            for label, label_name in enumerate(label_names)}


def coco_report(result: dict, label_names: tuple[str, ...] | None) -> dict:
    """The values of an MS COCO evaluation to report: the means over the classes
    (``'map/...'``, ``'mar/...'``) and, with ``label_names``, the per-class values
    (``'ap/.../<label_name>'``, ``'ar/.../<label_name>'``)."""
    values = {key: value for key, value in result.items() if key.startswith(('map/', 'mar/'))}
    if label_names is not None:
        for key, value in result.items():
            if key.startswith(('ap/', 'ar/')):
                values.update(per_class(key, value, label_names))
    return values


def _as_label_names(owner: str, label_names: Iterable[str] | None) -> tuple[str, ...] | None:
    if label_names is None:
        return None
    if isinstance(label_names, str):
        raise TypeError(f'{owner}: label_names must be an iterable of str, but got the str '
                        f'{label_names!r}')
    names = tuple(label_names)
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f'{owner}: label_names must be an iterable of str, but got an '
                            f'entry {name!r} of type {type(name).__name__}')
    return names
