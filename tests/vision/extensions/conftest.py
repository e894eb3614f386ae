"""Fixtures of the extension tests: the module ``_cases.py`` (tiny validation sets with their
predictions, a stub link) and a real trainer that fits a tiny model."""

import importlib.util
import pathlib
import sys

import numpy
import pytest

import framework.links as L
from framework import optimizers, training
from framework.datasets import TupleDataset
from framework.iterators import SerialIterator

_HERE = pathlib.Path(__file__).resolve().parent


@pytest.fixture(scope='session')
def cases():
    """The module ``_cases.py``."""
    spec = importlib.util.spec_from_file_location('_extension_cases', _HERE / '_cases.py')
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # the dataclass of the module looks itself up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def make_trainer(tmp_path):
    """``make_trainer(n_iteration)``: a trainer fitting a linear classifier to 4 points, two
    per iteration, for ``n_iteration`` iterations, writing into a temporary directory."""
    def make(n_iteration: int) -> training.Trainer:
        x = numpy.arange(8, dtype=numpy.float32).reshape(4, 2)
        t = numpy.array([0, 1, 0, 1], numpy.int32)
        optimizer = optimizers.SGD(lr=0.01).setup(L.Classifier(L.Linear(2, 2)))
        updater = training.StandardUpdater(SerialIterator(TupleDataset(x, t), 2), optimizer)
        return training.Trainer(updater, (n_iteration, 'iteration'), out=str(tmp_path / 'out'))
    return make
