"""A test-only device that behaves like a GPU without one.

Its arrays (:class:`~framework.testing.emulated_array.EmulatedArray`) hold NumPy arrays but
refuse what ``cupy.ndarray`` refuses, and its array module (:data:`xp`) offers exactly the names
of CuPy's (:mod:`framework.testing.cupy_namespace`) with CuPy's signatures: a name or a keyword
CuPy lacks raises ``AttributeError`` or ``TypeError`` naming it. Code that forgets
``to_device``, converts a device array to a host one implicitly, creates arrays with ``numpy``
instead of ``xp`` or calls what CuPy does not have fails on this device as it would on a GPU.

Importing this module registers the device; it is named ``'@emulated'``.
"""

from __future__ import annotations

import functools
import types

import numpy

from framework import backend
from framework.testing import cupy_namespace
from framework.testing.emulated_array import (
    EmulatedArray,
    check_ufunc_call,
    reject_host_arrays,
    to_device,
    to_host_args,
)

__all__ = ['EmulatedArray', 'EmulatedDevice', 'xp']

#: Functions that take host arrays (they are CuPy's transfers to the device).
_TRANSFERS = frozenset({'cupy.array', 'cupy.asarray', 'cupy.asanyarray'})
#: CuPy's classes whose instances the emulated module makes, with their NumPy counterparts.
_CLASSES = {'cupy.random.RandomState': numpy.random.RandomState}
_MISSING = object()


class _EmulatedModule:
    """A module of CuPy, emulated by the NumPy module of the same path."""

    def __init__(self, name: str, module: types.ModuleType):
        self._name = name
        self._module = module

    def __getattr__(self, name):
        if name.startswith('_'):  # probes such as pytest's _mock_name; CuPy's own are private
            raise AttributeError(name)
        qualname = f'{self._name}.{name}'
        kind = cupy_namespace.kind(self._name, name)
        if kind is None:
            cupy_namespace.refuse(AttributeError, f'{qualname}: CuPy '
                                  f'{cupy_namespace.CUPY_VERSION} has no such name')
        if qualname == 'cupy.asnumpy':
            wrapped = asnumpy
        elif qualname == 'cupy.ndarray':
            wrapped = EmulatedArray
        elif qualname in _CLASSES:
            wrapped = _emulated_class(qualname, _CLASSES[qualname])
        else:
            attr = getattr(self._module, name, _MISSING)
            if attr is _MISSING or (kind == 'module' and
                                    not cupy_namespace.is_module_listed(qualname)):
                raise AttributeError(f'{qualname}: CuPy has it, but the emulated device does '
                                     'not emulate it')
            if kind == 'module':
                wrapped = _EmulatedModule(qualname, attr)
            elif kind == 'ufunc':
                wrapped = _EmulatedUfunc(attr)
            elif kind == 'function':
                wrapped = _checked(qualname, attr, transfers=qualname in _TRANSFERS)
            else:
                wrapped = attr
        setattr(self, name, wrapped)
        return wrapped

    def __repr__(self):
        return f'<emulated {self._name}>'


def asnumpy(a, stream=None, order='C', out=None, blocking=True):
    """``cupy.asnumpy``: a host copy of a device array (host arrays are returned as NumPy
    arrays)."""
    if isinstance(a, EmulatedArray):
        return a.get(stream=stream, order=order, out=out, blocking=blocking)
    return numpy.asarray(a, order=order)


def _checked(qualname, fn, transfers=False):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        cupy_namespace.check_call(qualname, args, kwargs)
        if not transfers:
            reject_host_arrays(qualname, args + tuple(kwargs.values()))
        return _to_device_objects(fn(*to_host_args(args), **to_host_args(kwargs)))
    return wrapper


def _to_device_objects(result):
    if isinstance(result, numpy.random.RandomState):
        return _EmulatedObject('cupy.random.RandomState', result)
    if isinstance(result, numpy.random.Generator):  # it would draw host arrays
        raise NotImplementedError('cupy.random.Generator is not emulated by the emulated '
                                  'device; use xp.random.RandomState')
    return to_device(result)


class _EmulatedUfunc:
    """A ufunc of CuPy: NumPy's, with device arrays in and out and CuPy's keywords."""

    def __init__(self, ufunc: numpy.ufunc):
        self._ufunc = ufunc
        self.__name__ = ufunc.__name__

    def __call__(self, *args, **kwargs):
        check_ufunc_call(self.__name__, args, kwargs)
        reject_host_arrays(self.__name__, args + tuple(kwargs.values()))
        result = self._ufunc(*to_host_args(args), **to_host_args(kwargs))
        return kwargs['out'] if 'out' in kwargs else to_device(result)

    def __getattr__(self, name):
        if name in ('nin', 'nout', 'nargs', 'types'):
            return getattr(self._ufunc, name)
        qualname = f'cupy.ufunc.{name}'
        if name.startswith('_') or not cupy_namespace.has_attribute('cupy.ufunc', name):
            cupy_namespace.refuse(AttributeError, f'{qualname}: CuPy has no such method')
        return _checked(qualname, getattr(self._ufunc, name))

    def __repr__(self):
        return f'<emulated ufunc {self.__name__}>'


def _emulated_class(qualname, cls):
    @functools.wraps(cls)
    def make(*args, **kwargs):
        return _EmulatedObject(qualname, cls(*args, **kwargs))
    return make


class _EmulatedObject:
    """An instance of a class of CuPy (a random generator): NumPy's object behind CuPy's
    methods, which return device arrays."""

    def __init__(self, qualname: str, obj):
        self._qualname = qualname
        self._obj = obj

    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)
        if not cupy_namespace.has_attribute(self._qualname, name):
            cupy_namespace.refuse(AttributeError, f'{self._qualname}.{name}: CuPy has no such '
                                  'attribute')
        attr = getattr(self._obj, name)
        return _checked(f'{self._qualname}.{name}', attr) if callable(attr) else attr


#: The array module of the emulated device.
xp = _EmulatedModule('cupy', numpy)


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
        return EmulatedArray.from_host_memory(backend.CpuDevice().send_array(array))

    def __repr__(self):
        return '<EmulatedDevice>'

    def __str__(self):
        return self.name


backend.register_device_type(EmulatedDevice)
