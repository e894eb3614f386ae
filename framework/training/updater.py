"""The interface of updaters: what the :class:`~framework.training.Trainer` calls to update the
models once per iteration."""

from __future__ import annotations


class Updater:
    """The base class of updaters.

    An updater owns the optimizers (by name, ``'main'`` first) and usually the iterators; it
    exposes the training position (``iteration``, ``epoch``, ``epoch_detail``,
    ``previous_epoch_detail``, ``is_new_epoch``) that triggers read.
    """

    def connect_trainer(self, trainer) -> None:
        """Called by the trainer it is given to (nothing by default)."""

    def finalize(self) -> None:
        """Releases what the updater holds; called at the end of the training loop."""

    def get_optimizer(self, name: str):
        """The optimizer registered as ``name``."""
        raise NotImplementedError(f'{type(self).__name__} must implement get_optimizer')

    def get_all_optimizers(self) -> dict:
        """A dictionary of every optimizer, by name."""
        raise NotImplementedError(f'{type(self).__name__} must implement get_all_optimizers')

    def update(self) -> None:
        """Updates the models once (one iteration)."""
        raise NotImplementedError(f'{type(self).__name__} must implement update')

    def serialize(self, serializer) -> None:
        """Saves or loads the state of the updater."""
        raise NotImplementedError(f'{type(self).__name__} must implement serialize')
