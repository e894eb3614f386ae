"""StandardUpdater: one minibatch, one forward and backward pass, one optimizer step."""

from __future__ import annotations

from collections.abc import Callable

from framework import backend
from framework.dataset.convert import concat_examples
from framework.dataset.iterator import Iterator
from framework.optimizer import Optimizer
from framework.training._convert import apply_to, call_converter
from framework.training.updater import Updater


class StandardUpdater(Updater):
    """The standard updater: at each iteration, takes the next batch of the ``'main'``
    iterator, converts it, and calls ``optimizer.update(loss_func, *in_arrays)`` on the
    ``'main'`` optimizer.

    Args:
        iterator: the iterator of the training set, or a dict of iterators (one of them named
            ``'main'``).
        optimizer: the optimizer, or a dict of optimizers (one of them named ``'main'``).
        converter (callable): turns a batch into arrays; :func:`~framework.dataset.
            concat_examples` by default.
        device: where the models and the arrays go (any spec of
            :func:`~framework.backend.get_device`); None leaves them where they are. The
            target links of the optimizers are moved there at construction.
        loss_func (callable): computes the loss from the arrays; the target link of the main
            optimizer when None.
        loss_scale (float): a fixed loss scale given to every optimizer (float16 training).
        auto_new_epoch (bool): whether the updater calls ``optimizer.new_epoch(auto=True)`` at
            the end of each epoch of the main iterator.
        input_device: where the arrays go, when it differs from ``device``.

    Attributes:
        converter: the converter.
        loss_func: the loss function (or None).
        iteration (int): the number of updates done.
    """

    def __init__(self, iterator, optimizer, converter: Callable = concat_examples,
                 device=None, loss_func: Callable | None = None, loss_scale: float | None = None,
                 auto_new_epoch: bool = True, *, input_device=None):
        if device is not None:
            device = backend.get_device(device)
        input_device = device if input_device is None else backend.get_device(input_device)
        if isinstance(iterator, Iterator) or not isinstance(iterator, dict):
            iterator = {'main': iterator}
        if isinstance(optimizer, Optimizer) or not isinstance(optimizer, dict):
            optimizer = {'main': optimizer}
        for what, entries in (('iterator', iterator), ('optimizer', optimizer)):
            if 'main' not in entries:
                raise ValueError(f"StandardUpdater: the dict of {what}s must have a 'main' "
                                 f'entry, but has {sorted(entries)}')
        self._iterators = iterator
        self._optimizers = optimizer
        if device is not None:
            for opt in self._optimizers.values():
                opt.target.to_device(device)
        self.converter = converter
        self.loss_func = loss_func
        self.iteration = 0
        self._device = device
        self._input_device = input_device
        self.loss_scale = loss_scale
        if loss_scale is not None:
            for opt in self._optimizers.values():
                opt.set_loss_scale(loss_scale)
        self.auto_new_epoch = auto_new_epoch
        if auto_new_epoch:
            for opt in self._optimizers.values():
                opt.use_auto_new_epoch = True

    @property
    def device(self) -> backend.Device | None:
        """The device of the models (None: not moved)."""
        return self._device

    @property
    def input_device(self) -> backend.Device | None:
        """The device the converted arrays are sent to (None: not moved)."""
        return self._input_device

    @property
    def epoch(self) -> int:
        """The number of epochs completed by the main iterator."""
        return self._iterators['main'].epoch

    @property
    def epoch_detail(self) -> float:
        """The epoch as a float (2.5: halfway through the third epoch)."""
        return self._iterators['main'].epoch_detail

    @property
    def previous_epoch_detail(self) -> float | None:
        """``epoch_detail`` before the last batch (None before the first)."""
        return self._iterators['main'].previous_epoch_detail

    @property
    def is_new_epoch(self) -> bool:
        """Whether the last batch completed an epoch."""
        return self._iterators['main'].is_new_epoch

    def finalize(self) -> None:
        """Finalizes every iterator."""
        for iterator in self._iterators.values():
            iterator.finalize()

    def get_optimizer(self, name: str):
        return self._optimizers[name]

    def get_all_optimizers(self) -> dict:
        return dict(self._optimizers)

    def get_iterator(self, name: str):
        """The iterator registered as ``name``."""
        return self._iterators[name]

    def update(self) -> None:
        """Updates once (:meth:`update_core`) and counts the iteration."""
        self.update_core()
        self.iteration += 1

    def update_core(self) -> None:
        """One step: next batch, conversion, ``optimizer.update(loss_func, ...)``."""
        iterator = self._iterators['main']
        batch = iterator.next()
        in_arrays = call_converter(self.converter, batch, self.input_device)
        optimizer = self._optimizers['main']
        loss_func = self.loss_func or optimizer.target
        apply_to(lambda *args, **kwargs: optimizer.update(loss_func, *args, **kwargs),
                 in_arrays)
        if self.auto_new_epoch and iterator.is_new_epoch:
            optimizer.new_epoch(auto=True)

    def serialize(self, serializer) -> None:
        """Saves or loads the iterators (``iterator:<name>``), the optimizers
        (``optimizer:<name>``), their target links (``model:<name>``) and ``iteration``, under
        Chainer's keys."""
        for name, iterator in self._iterators.items():
            iterator.serialize(serializer['iterator:' + name])
        for name, optimizer in self._optimizers.items():
            optimizer.serialize(serializer['optimizer:' + name])
            optimizer.target.serialize(serializer['model:' + name])
        self.iteration = serializer('iteration', self.iteration)
