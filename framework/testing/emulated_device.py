"""A test-only device that behaves like a GPU without one.

Its arrays (:class:`EmulatedArray`) are NumPy arrays underneath, but they refuse to mix with
plain host arrays the way CuPy arrays do: a ufunc or NumPy function that receives both raises
``TypeError``, reductions return 0-dimensional device arrays rather than host scalars, and its
array module (:data:`xp`) is not ``numpy``. Code that forgets ``to_device``, creates arrays with
``numpy`` instead of ``xp`` or tests ``xp is numpy`` fails on this device as it would on a GPU.

Importing this module registers the device; it is named ``'@emulated'``.
"""

from __future__ import annotations

import functools
import types

import numpy

from framework import backend


def _mixing_error(where):
    return TypeError(f'{where}: an array of the emulated device cannot be mixed with a host '
                     '(NumPy) array; move the host array with to_device first')


class EmulatedArray(numpy.ndarray):
    """An array of the emulated device."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        # NumPy hands a host scalar on the left of an operator over as a 0-d array.
        scalars_as_arrays = tuple(x for x in inputs if not (_is_host_array(x) and x.ndim == 0))
        _reject_host_arrays(ufunc.__name__, scalars_as_arrays, kwargs.get('out', ()))
        result = getattr(ufunc, method)(*_to_plain(inputs), **_to_plain(kwargs))
        return _to_device(result)

    def __array_function__(self, func, types, args, kwargs):
        if numpy.ndarray in types:
            raise _mixing_error(func.__name__)
        return _to_device(func(*_to_plain(args), **_to_plain(kwargs)))

    def __getitem__(self, key):
        return _to_device(self.view(numpy.ndarray)[_to_plain(key)])

    def __setitem__(self, key, value):
        _reject_host_arrays('__setitem__', (value,), ())
        self.view(numpy.ndarray)[_to_plain(key)] = _to_plain(value)

    def __repr__(self):
        return 'emulated_' + repr(self.view(numpy.ndarray))


def _is_host_array(x):
    return type(x) is numpy.ndarray


def _reject_host_arrays(where, inputs, out):
    if isinstance(out, tuple):
        candidates = tuple(inputs) + out
    else:
        candidates = tuple(inputs) + (out,)
    for x in candidates:
        if _is_host_array(x) or (isinstance(x, (list, tuple)) and any(map(_is_host_array, x))):
            raise _mixing_error(where)


def _to_plain(obj):
    """Replaces emulated arrays by plain views, through tuples, lists and dicts."""
    if isinstance(obj, EmulatedArray):
        return obj.view(numpy.ndarray)
    if isinstance(obj, tuple):
        return tuple(_to_plain(o) for o in obj)
    if isinstance(obj, list):
        return [_to_plain(o) for o in obj]
    if isinstance(obj, dict):
        return {k: _to_plain(v) for k, v in obj.items()}
    return obj


def _to_device(obj):
    """Turns results into emulated arrays: arrays are viewed, host scalars become 0-d arrays."""
    if isinstance(obj, numpy.ndarray):
        return obj.view(EmulatedArray)
    if isinstance(obj, numpy.generic):
        return numpy.asarray(obj).view(EmulatedArray)
    if isinstance(obj, tuple):
        return tuple(_to_device(o) for o in obj)
    if isinstance(obj, list):
        return [_to_device(o) for o in obj]
    if isinstance(obj, (numpy.random.RandomState, numpy.random.Generator)):
        return _EmulatedObject(obj)
    return obj


class _EmulatedNamespace:
    """NumPy's namespace with arguments checked and results placed on the emulated device."""

    _TRANSFERS = frozenset({'array', 'asarray', 'asanyarray'})

    def __init__(self, module):
        self._module = module

    def __getattr__(self, name):
        attr = getattr(self._module, name)
        if name == 'ndarray':
            wrapped = EmulatedArray
        elif isinstance(attr, types.ModuleType):
            wrapped = _EmulatedNamespace(attr)
        elif isinstance(attr, (numpy.ufunc, type)) and not _is_object_factory(attr):
            wrapped = attr
        elif callable(attr):
            wrapped = _wrap_function(attr, transfers=name in self._TRANSFERS)
        else:
            wrapped = attr
        setattr(self, name, wrapped)
        return wrapped

    def __repr__(self):
        return f'<emulated {self._module.__name__}>'


def _is_object_factory(cls):
    return cls in (numpy.random.RandomState, numpy.random.Generator)


def _wrap_function(fn, transfers=False):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if not transfers:
            _reject_host_arrays(fn.__name__, args, tuple(kwargs.values()))
        return _to_device(fn(*_to_plain(args), **_to_plain(kwargs)))
    return wrapper


class _EmulatedObject:
    """An object (a random generator) whose methods return emulated arrays."""

    def __init__(self, obj):
        self._obj = obj

    def __getattr__(self, name):
        attr = getattr(self._obj, name)
        return _wrap_function(attr) if callable(attr) else attr


#: The array module of the emulated device.
xp = _EmulatedNamespace(numpy)


class EmulatedDevice(backend.Device):
    """The emulated device: a GPU stand-in that lives in host memory."""

    xp = xp
    name = '@emulated'

    @classmethod
    def from_array(cls, array):
        return cls() if isinstance(array, EmulatedArray) else None

    @classmethod
    def from_spec(cls, spec):
        return cls() if spec == cls.name else None

    def send_array(self, array):
        return backend.CpuDevice().send_array(array).view(EmulatedArray)

    def __repr__(self):
        return '<EmulatedDevice>'

    def __str__(self):
        return self.name


backend.register_device_type(EmulatedDevice)
