"""Fixtures of the training tests: a trainer driven by a mock updater (no model, no data; its
position advances by one iteration per update), and the small CNN of ``_small_cnn.py``."""

import importlib.util
import pathlib

import pytest

import framework.links as L
from framework import optimizers, reporter, training

_HERE = pathlib.Path(__file__).resolve().parent


class MockUpdater(training.Updater):
    """An updater whose position advances by one iteration per update, ``iter_per_epoch``
    iterations making an epoch, and whose 'main' optimizer steps with zero gradients."""

    def __init__(self, iter_per_epoch, optimizer=None):
        self.iter_per_epoch = iter_per_epoch
        self.iteration = 0
        if optimizer is None:
            optimizer = optimizers.SGD().setup(L.Linear(2, 2))
        self._optimizers = {'main': optimizer}
        self.finalized = False

    @property
    def epoch(self):
        return self.iteration // self.iter_per_epoch

    @property
    def epoch_detail(self):
        return self.iteration / self.iter_per_epoch

    @property
    def previous_epoch_detail(self):
        if self.iteration == 0:
            return None
        return (self.iteration - 1) / self.iter_per_epoch

    @property
    def is_new_epoch(self):
        return self.iteration > 0 and self.iteration % self.iter_per_epoch == 0

    def get_optimizer(self, name):
        return self._optimizers[name]

    def get_all_optimizers(self):
        return dict(self._optimizers)

    def update(self):
        self._optimizers['main'].update()  # zero gradients: the state is made, nothing moves
        self.iteration += 1

    def finalize(self):
        self.finalized = True

    def serialize(self, serializer):
        for name, optimizer in self._optimizers.items():
            optimizer.serialize(serializer['optimizer:' + name])
            optimizer.target.serialize(serializer['model:' + name])
        self.iteration = int(serializer('iteration', self.iteration))


@pytest.fixture
def make_trainer(tmp_path):
    """``make_trainer(stop_trigger=(10, 'iteration'), iter_per_epoch=10, optimizer=None)``: a
    trainer over a :class:`MockUpdater`, writing to a temporary directory."""
    def make(stop_trigger=(10, 'iteration'), iter_per_epoch=10, optimizer=None, out=None):
        updater = MockUpdater(iter_per_epoch, optimizer)
        return training.Trainer(updater, stop_trigger, out=str(out or tmp_path / 'result'))
    return make


def step(trainer, n=1):
    """Advances the mock updater ``n`` iterations without running the loop."""
    for _ in range(n):
        trainer.updater.update()


@pytest.fixture
def advance():
    return step


def reporting(values):
    """An extension (priority writer) that reports ``values(iteration)``, a dict, at each
    iteration."""
    @training.make_extension(priority=training.PRIORITY_WRITER)
    def report_values(trainer):
        reporter.report(values(trainer.updater.iteration))
    return report_values


@pytest.fixture
def report_values():
    return reporting


@pytest.fixture(scope='session')
def small_cnn():
    """The module ``_small_cnn.py`` (the small CNN, its data and its trainer)."""
    spec = importlib.util.spec_from_file_location('_small_cnn', _HERE / '_small_cnn.py')
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope='session')
def small_cnn_script():
    """The path of ``_small_cnn.py``, to run it in a subprocess."""
    return str(_HERE / '_small_cnn.py')


def optimizer_values(trainer, attr='lr'):
    """Registers an extension recording ``optimizer.<attr>`` before the training and after
    each iteration's extensions; returns the list it fills."""
    optimizer = trainer.updater.get_optimizer('main')
    values = []
    trainer.extend(lambda t: values.append(getattr(optimizer, attr)), name='record_' + attr,
                   priority=-1000, call_before_training=True)
    return values


@pytest.fixture
def record_values():
    return optimizer_values


@pytest.fixture
def shift_values(make_trainer):
    """``shift_values(extension, n_iteration, lr=1.0)``: the ``lr`` of the optimizer (set to
    ``lr`` first) before a training of ``n_iteration`` iterations extended by ``extension``
    and after each iteration."""
    def run(extension, n_iteration: int, lr: float = 1.0) -> list[float]:
        trainer = make_trainer((n_iteration, 'iteration'))
        trainer.updater.get_optimizer('main').lr = lr
        values = optimizer_values(trainer)
        trainer.extend(extension)
        trainer.run()
        return values
    return run
