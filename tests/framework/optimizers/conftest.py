"""Fixtures of the optimizer tests: devices, a small model, and dictionary (de)serializers."""

import numpy
import pytest

from framework import Parameter, backend
from framework.links import Chain, Link
from framework.serializers.serializer import Deserializer, Serializer
from framework.testing import devices


class Params(Link):
    """A link that owns the parameters given (name -> initial array)."""

    def __init__(self, **arrays):
        super().__init__()
        with self.init_scope():
            for name, array in arrays.items():
                setattr(self, name, Parameter(array))


class Model(Chain):
    """``/a/W`` (3, 2), ``/a/b`` (2,), ``/c/W`` (4,): a two-level hierarchy of parameters."""

    def __init__(self, dtype=numpy.float32):
        super().__init__()
        rng = numpy.random.RandomState(1)
        with self.init_scope():
            self.a = Params(W=rng.uniform(-1, 1, (3, 2)).astype(dtype),
                            b=rng.uniform(-1, 1, 2).astype(dtype))
            self.c = Params(W=rng.uniform(-1, 1, 4).astype(dtype))


class DictSerializer(Serializer):
    """Writes host copies into a dict under Chainer's keys (``'a/W/v'``)."""

    def __init__(self, target, path=''):
        self.target = target
        self.path = path

    def __getitem__(self, key):
        return DictSerializer(self.target, self.path + key.strip('/') + '/')

    def __call__(self, key, value):
        if value is None:
            stored = numpy.asarray(None)
        elif backend.is_array(value):
            stored = backend.to_cpu(value).copy()
        else:
            stored = numpy.asarray(value)
        self.target[self.path + key.lstrip('/')] = stored
        return value


class DictDeserializer(Deserializer):
    """Reads from a dict as Chainer's NPZ deserializer does: arrays are filled in place,
    scalars converted to the type of the current value, ``None`` answered with a copy of the
    stored array; a missing key raises KeyError, or, when not ``strict``, returns the value
    unchanged."""

    def __init__(self, source, path='', strict=True):
        self.source = source
        self.path = path
        self.strict = strict

    def __getitem__(self, key):
        return DictDeserializer(self.source, self.path + key.strip('/') + '/', self.strict)

    def __call__(self, key, value):
        key = self.path + key.lstrip('/')
        if key not in self.source and not self.strict:
            return value
        stored = numpy.asarray(self.source[key])
        if value is None:
            return stored.copy()
        if backend.is_array(value):
            value[...] = backend.get_device_from_array(value).send(stored.astype(value.dtype))
            return value
        return type(value)(stored)


@pytest.fixture(params=devices(), ids=str)
def device(request):
    return request.param


@pytest.fixture
def model(device):
    """A float32 :class:`Model` on ``device``."""
    return Model().to_device(device)


@pytest.fixture
def make_model():
    """``make_model(device, dtype=float32)``: a new :class:`Model`."""
    return lambda device, dtype=numpy.float32: Model(dtype).to_device(device)


@pytest.fixture
def save():
    """``save(obj) -> dict``: what ``obj.serialize`` writes."""
    def run(obj):
        target = {}
        obj.serialize(DictSerializer(target))
        return target
    return run


@pytest.fixture
def load():
    """``load(obj, dict, strict=True)``: reads ``obj`` back from what :func:`save` wrote."""
    return lambda obj, source, strict=True: obj.serialize(DictDeserializer(source, strict=strict))


@pytest.fixture
def params_link():
    """The :class:`Params` class, to build links of chosen parameters."""
    return Params
