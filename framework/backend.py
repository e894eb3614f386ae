"""Devices and array modules: the one place that knows NumPy from CuPy.

Every array of the framework lives on a :class:`Device`. Code that computes on arrays asks for
the array module of its inputs (``xp = get_array_module(x)``) and never names NumPy or CuPy
itself, so that the same code runs on the CPU and on a GPU.

Device kinds are classes registered with :func:`register_device_type`; the CPU and CuPy GPUs are
built in, and :mod:`framework.testing.emulated_device` registers a test-only device whose arrays
and array module refuse what CuPy's refuse. Arrays of any device other than the CPU copy
themselves to the host with ``.get()``, as CuPy's do.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterable
from typing import Any

import numpy


class Device:
    """A place where arrays live, with the array module that computes on them.

    Subclasses set :attr:`xp` and implement :meth:`send_array` and the two class methods that
    let :func:`get_device` and :func:`get_device_from_array` find them.
    """

    #: The array module (``numpy``, ``cupy`` or a compatible namespace).
    xp: Any = None

    @classmethod
    def from_array(cls, array) -> Device | None:
        """Returns the device of ``array`` if it is an array of this kind, else None."""
        raise NotImplementedError

    @classmethod
    def from_spec(cls, spec: str) -> Device | None:
        """Returns the device named by ``spec`` if this kind understands it, else None."""
        raise NotImplementedError

    def send_array(self, array):
        """Returns ``array`` (an array of any registered device) as an array of this device."""
        raise NotImplementedError

    def send(self, arrays):
        """Transfers an array, or a (nested) tuple, list or dict of arrays, to this device.

        ``None`` and Python scalars are returned as they are; an array already on this device is
        returned without a copy.
        """
        if arrays is None or isinstance(arrays, (bool, int, float, complex, str)):
            return arrays
        if isinstance(arrays, (list, tuple)):
            return type(arrays)(self.send(a) for a in arrays)
        if isinstance(arrays, dict):
            return {k: self.send(v) for k, v in arrays.items()}
        if isinstance(arrays, numpy.generic):
            arrays = numpy.asarray(arrays)
        if get_device_from_array(arrays) == self:
            return arrays
        return self.send_array(arrays)

    def use(self) -> None:
        """Makes this device current (a no-op except on GPUs)."""

    def scope(self) -> contextlib.AbstractContextManager:
        """A context in which this device is current (a no-op except on GPUs)."""
        return contextlib.nullcontext()

    def __eq__(self, other):
        return type(self) is type(other) and self._key() == other._key()

    def __deepcopy__(self, memo):
        return self  # a device is a value: copies of what lives on it stay on it

    def __hash__(self):
        return hash((type(self), self._key()))

    def _key(self):
        return ()


class CpuDevice(Device):
    """The host: arrays are :class:`numpy.ndarray`."""

    xp = numpy
    name = '@numpy'

    @classmethod
    def from_array(cls, array):
        if type(array) is numpy.ndarray or isinstance(array, numpy.generic):
            return cls()
        return None

    @classmethod
    def from_spec(cls, spec):
        return cls() if spec in ('@numpy', 'cpu', 'numpy') else None

    def send_array(self, array):
        return numpy.array(_to_host(array), copy=True)

    def __repr__(self):
        return '<CpuDevice>'

    def __str__(self):
        return self.name


class GpuDevice(Device):
    """An NVIDIA GPU through CuPy: arrays are ``cupy.ndarray``."""

    def __init__(self, device_id: int = 0):
        if not isinstance(device_id, int) or device_id < 0:
            raise ValueError(f'GpuDevice: device_id must be a non-negative int, got {device_id!r}')
        cupy = _require_cupy('GpuDevice')
        try:
            count = cupy.cuda.runtime.getDeviceCount()
        except cupy.cuda.runtime.CUDARuntimeError:  # no driver
            count = 0
        if device_id >= count:
            raise RuntimeError(f'GpuDevice: no GPU {device_id} is visible: CuPy sees {count} '
                               'GPU(s) (check the NVIDIA driver with nvidia-smi, and '
                               'CUDA_VISIBLE_DEVICES)')
        self.device_id = device_id
        self.xp = cupy

    @property
    def name(self):
        return f'@cupy:{self.device_id}'

    @classmethod
    def from_array(cls, array):
        cupy = _cupy()
        if cupy is not None and isinstance(array, cupy.ndarray):
            return _gpu_device(array.device.id)
        return None

    @classmethod
    def from_spec(cls, spec):
        for prefix in ('@cupy:', 'gpu:', 'cuda:'):
            if spec.startswith(prefix) and spec[len(prefix):].isdigit():
                return _gpu_device(int(spec[len(prefix):]))
        if spec in ('@cupy', 'gpu', 'cuda'):
            return _gpu_device(0)
        return None

    def send_array(self, array):
        with self.xp.cuda.Device(self.device_id):
            return self.xp.array(_to_host(array) if not isinstance(array, self.xp.ndarray)
                                 else array, copy=True)

    def __reduce__(self):
        return GpuDevice, (self.device_id,)

    def use(self):
        self.xp.cuda.Device(self.device_id).use()

    def scope(self):
        return self.xp.cuda.Device(self.device_id)

    def _key(self):
        return (self.device_id,)

    def __repr__(self):
        return f'<GpuDevice {self.device_id}>'

    def __str__(self):
        return self.name


@functools.cache
def _gpu_device(device_id: int) -> GpuDevice:
    """GPU ``device_id``, made once: every function call asks its inputs' device."""
    return GpuDevice(device_id)


_device_types: list[type[Device]] = [CpuDevice, GpuDevice]
_CPU = CpuDevice()


def register_device_type(device_type: type[Device]) -> None:
    """Registers a device kind so that arrays of that kind are recognised everywhere."""
    if device_type not in _device_types:
        _device_types.insert(0, device_type)


@functools.cache
def _cupy():
    try:
        import cupy
    except ImportError:
        return None
    return cupy


def is_cupy_available() -> bool:
    """Whether CuPy can be imported (it is an optional dependency, loaded on first use)."""
    return _cupy() is not None


def _require_cupy(where):
    cupy = _cupy()
    if cupy is None:
        raise RuntimeError(f'{where}: CuPy is not installed; install the GPU extra '
                           "(pip install '.[gpu]' in the repository, as the README says) to "
                           'use a GPU')
    return cupy


def _to_host(array):
    """Returns a NumPy array (possibly a view) with the contents of any device's array."""
    if type(array) is numpy.ndarray:
        return array
    if isinstance(array, numpy.ndarray):
        return array.view(numpy.ndarray)
    if isinstance(array, numpy.generic):
        return numpy.asarray(array)
    if is_array(array):
        return array.get()  # every device array copies itself to the host as CuPy's does
    raise TypeError(f'expected an array, got {type(array).__name__}')


def _unwrap(x):
    """Returns the array of a Variable, or ``x`` itself."""
    if isinstance(x, numpy.ndarray):
        return x
    return x.array if _is_variable(x) else x


def _is_variable(x):
    """Whether ``x`` is a Variable (or a Parameter).

    A Variable is recognised by the ``array`` attribute of its class, so that the device layer
    imports nothing of the autodiff layer above it.
    """
    return hasattr(type(x), 'array')


def get_device(device_spec) -> Device:
    """Returns the :class:`Device` named by ``device_spec``.

    Args:
        device_spec: a :class:`Device`; a string such as ``'@numpy'``, ``'cpu'``,
            ``'@cupy:1'`` or ``'cuda:1'``; an int (``-1`` or ``None`` for the CPU, ``n >= 0`` for
            GPU ``n``, as in Chainer); or the ``numpy`` module.
    """
    if isinstance(device_spec, Device):
        return device_spec
    if device_spec is None or device_spec is numpy:
        return CpuDevice()
    if isinstance(device_spec, int) and not isinstance(device_spec, bool):
        return CpuDevice() if device_spec < 0 else GpuDevice(device_spec)
    if isinstance(device_spec, str):
        for device_type in _device_types:
            device = device_type.from_spec(device_spec)
            if device is not None:
                return device
    raise ValueError(f"get_device: device_spec must be a Device, a name such as '@numpy' or "
                     f"'@cupy:0', or an int, got {device_spec!r}")


def get_device_from_array(*arrays) -> Device:
    """Returns the device of the first array (or Variable) given; the CPU if none is an array."""
    for array in arrays:
        array = _unwrap(array)
        if array is None or isinstance(array, (bool, int, float, complex)):
            continue
        for device_type in _device_types:
            device = device_type.from_array(array)
            if device is not None:
                return device
    return CpuDevice()


def get_array_module(*args):
    """Returns the array module of the arguments: ``numpy``, ``cupy`` or a registered module.

    Args:
        args: arrays, Variables, scalars or None. The first one that lives on a device other
            than the CPU decides; with none, NumPy is returned.
    """
    for arg in args:
        array = _unwrap(arg)
        if array is None or isinstance(array, (bool, int, float, complex, numpy.generic)):
            continue
        if type(array) is numpy.ndarray:
            continue
        device = get_device_from_array(array)
        if not isinstance(device, CpuDevice):
            return device.xp
    return numpy


def using_device(device_spec) -> contextlib.AbstractContextManager:
    """A context in which the given device is the current one (see :func:`get_device`)."""
    return get_device(device_spec).scope()


def is_array(x) -> bool:
    """Whether ``x`` is an array of a registered device (not a Variable, not a scalar)."""
    if isinstance(x, numpy.ndarray):
        return True
    return any(t.from_array(x) is not None for t in _device_types if t is not CpuDevice)


def to_device(device_spec, x):
    """Sends ``x`` (an array, a Variable or a nested list/tuple/dict of arrays) to a device.

    A Variable is moved in place (its data and gradient) and returned.
    """
    device = get_device(device_spec)
    if _is_variable(x):
        x.to_device(device)
        return x
    return device.send(x)


def to_cpu(x):
    """Sends ``x`` to the host; see :func:`to_device`."""
    return to_device(CpuDevice(), x)


def gpu_device(device_id: int | None = None) -> GpuDevice:
    """Returns GPU ``device_id``, or the current CUDA device when None (Chainer's rule for
    ``to_gpu``).

    Raises:
        RuntimeError: when CuPy is not installed.
    """
    if device_id is None:
        device_id = _require_cupy('to_gpu').cuda.Device().id
    return GpuDevice(device_id)


def to_gpu(x, device: int | None = None):
    """Sends ``x`` to GPU ``device`` (the current one when None); see :func:`to_device`."""
    return to_device(gpu_device(device), x)


def same_device(fname: str, arrays: Iterable, names: Iterable[str] | None = None) -> Device:
    """Checks that the arrays live on one device and returns it.

    Raises:
        ValueError: naming ``fname``, the offending argument and both devices.
    """
    arrays = list(arrays)
    if all(type(a) is numpy.ndarray for a in arrays):
        return _CPU
    names = list(names) if names is not None else [f'input {i}' for i in range(len(arrays))]
    device = None
    first = None
    for name, array in zip(names, arrays):
        if array is None:
            continue
        d = get_device_from_array(array)
        if device is None:
            device, first = d, name
        elif d != device:
            raise ValueError(f'{fname}: all inputs must be on one device, but {first} is on '
                             f'{device} and {name} is on {d}; move them with to_device first')
    return device if device is not None else _CPU
