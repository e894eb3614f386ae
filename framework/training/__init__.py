"""The training loop (``from framework import training``), as Chainer's ``chainer.training``.

A :class:`Trainer` repeats the updates of an :class:`Updater` (:class:`StandardUpdater`:
next batch, forward, backward, optimizer step) until its stop trigger fires, running
extensions at the iterations their triggers choose::

    model = L.Classifier(MyCNN())
    optimizer = optimizers.MomentumSGD(lr=0.01).setup(model)
    train_iter = iterators.SerialIterator(train, 32, seed=0)
    updater = training.StandardUpdater(train_iter, optimizer)
    trainer = training.Trainer(updater, (10, 'epoch'), out='result')
    trainer.extend(extensions.Evaluator(val_iter, model))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(['epoch', 'main/loss', 'validation/main/loss']))
    trainer.extend(extensions.snapshot(autoload=True), trigger=(1, 'epoch'))
    trainer.run()

Triggers are in :mod:`framework.training.triggers`, extensions in
:mod:`framework.training.extensions`.
"""

from framework.training import extensions, triggers, updaters
from framework.training.extension import (
    PRIORITY_EDITOR,
    PRIORITY_READER,
    PRIORITY_SNAPSHOT,
    PRIORITY_WRITER,
    Extension,
    make_extension,
)
from framework.training.trainer import Trainer
from framework.training.trigger import get_trigger
from framework.training.updater import Updater
from framework.training.updaters.standard_updater import StandardUpdater

__all__ = [
    'PRIORITY_EDITOR', 'PRIORITY_READER', 'PRIORITY_SNAPSHOT', 'PRIORITY_WRITER', 'Extension',
    'StandardUpdater', 'Trainer', 'Updater', 'extensions', 'get_trigger', 'make_extension',
    'triggers', 'updaters',
]
