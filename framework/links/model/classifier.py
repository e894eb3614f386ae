"""Classifier: a predictor wrapped with a loss and an accuracy that it reports (Chainer's)."""

from __future__ import annotations

from collections.abc import Callable

from framework import reporter
from framework.functions.evaluation.accuracy import accuracy
from framework.functions.loss.softmax_cross_entropy import softmax_cross_entropy
from framework.links.link import Chain, Link
from framework.variable import Variable


class Classifier(Chain):
    """A classifier: computes the loss of a predictor's output against labels.

    Called with the inputs of the predictor and the labels (``model(x, t)``), it computes
    ``y = predictor(x)``, ``loss = lossfun(y, t)`` and, when :attr:`compute_accuracy` is True,
    ``accuracy = accfun(y, t)``; it reports ``loss`` and ``accuracy`` to the current reporter
    (as ``'main/loss'`` and ``'main/accuracy'`` in a :class:`~framework.training.Trainer`) and
    returns the loss.

    Args:
        predictor (Link): the predictor; registered as the child ``predictor``.
        lossfun (callable): ``lossfun(y, t)`` returns the loss.
        accfun (callable): ``accfun(y, t)`` returns the accuracy.
        label_key (int or str): where the labels are among the arguments: a position in the
            positional arguments (``-1``, the last one, by default) or a keyword argument name.

    Attributes:
        compute_accuracy (bool): whether the accuracy is computed and reported.
        y (Variable): the predictor's output of the last call.
        loss (Variable): the loss of the last call.
        accuracy (Variable): the accuracy of the last call (None when not computed).
    """

    compute_accuracy = True

    def __init__(self, predictor: Link, lossfun: Callable = softmax_cross_entropy,
                 accfun: Callable = accuracy, label_key: int | str = -1):
        if isinstance(label_key, bool) or not isinstance(label_key, (int, str)):
            raise TypeError('Classifier: label_key must be an int or a str, but got '
                            f'{type(label_key).__name__}')
        super().__init__()
        self.lossfun = lossfun
        self.accfun = accfun
        self.y: Variable | None = None
        self.loss: Variable | None = None
        self.accuracy: Variable | None = None
        self.label_key = label_key
        with self.init_scope():
            self.predictor = predictor

    def forward(self, *args, **kwargs) -> Variable:
        """Computes the loss (and the accuracy) of the predictor's output and reports them.

        Returns:
            Variable: the loss.

        Raises:
            ValueError: the labels are not among the arguments.
        """
        args, kwargs, t = self._split_labels(args, kwargs)
        self.y = None
        self.loss = None
        self.accuracy = None
        self.y = self.predictor(*args, **kwargs)
        self.loss = self.lossfun(self.y, t)
        reporter.report({'loss': self.loss}, self)
        if self.compute_accuracy:
            self.accuracy = self.accfun(self.y, t)
            reporter.report({'accuracy': self.accuracy}, self)
        return self.loss

    def _split_labels(self, args: tuple, kwargs: dict) -> tuple[tuple, dict, object]:
        key = self.label_key
        if isinstance(key, int):
            if not -len(args) <= key < len(args):
                raise ValueError(f'Classifier: label_key {key} is out of bounds for '
                                 f'{len(args)} positional arguments')
            index = key % len(args)
            return args[:index] + args[index + 1:], kwargs, args[index]
        if key not in kwargs:
            raise ValueError(f'Classifier: the label key {key!r} is not among the keyword '
                             f'arguments ({", ".join(sorted(kwargs)) or "none"})')
        kwargs = dict(kwargs)
        return args, kwargs, kwargs.pop(key)
