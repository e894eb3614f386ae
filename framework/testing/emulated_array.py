"""The array of the emulated device: a NumPy array behind CuPy's interface.

:class:`EmulatedArray` holds a NumPy array but is not one, as ``cupy.ndarray`` is not: NumPy
cannot turn it into a host array implicitly (``numpy.asarray(x)`` raises CuPy's ``TypeError``;
``.get()`` copies to the host), it refuses to mix with host arrays, reductions return 0-d
device arrays, and it has exactly the methods and attributes of ``cupy.ndarray`` that NumPy
can emulate, checked against CuPy's signatures. NumPy functions and ufuncs applied to it
dispatch as they do on CuPy's arrays: to CuPy's function of the same name, refused when CuPy
has none.
"""

from __future__ import annotations

import numbers

import numpy

from framework.testing import cupy_namespace

_IMPLICIT_CONVERSION = ('Implicit conversion to a NumPy array is not allowed. Please use '
                        '`.get()` to construct a NumPy array explicitly.')
#: Attributes of ``cupy.ndarray`` whose values are host objects, returned as NumPy's are.
_HOST_ATTRIBUTES = frozenset({'dtype', 'itemsize', 'nbytes', 'ndim', 'shape', 'size',
                              'strides'})
#: Attributes of ``cupy.ndarray`` whose values are device arrays.
_ARRAY_ATTRIBUTES = frozenset({'T', 'mT', 'real', 'imag'})
#: Methods of ``cupy.ndarray`` that return host objects.
_HOST_METHODS = frozenset({'tolist', 'item', 'tobytes', 'dump', 'dumps', 'tofile'})


def refuse_mixing(where: str):
    """Refuses to mix a device array with a host array in ``where`` (a TypeError)."""
    cupy_namespace.refuse(TypeError, f'{where}: an array of the emulated device cannot be mixed '
                          'with a host (NumPy) array; move the host array with to_device first')


class Flags:
    """``cupy.ndarray.flags``: contiguity and ownership (CuPy has no ``writeable``)."""

    def __init__(self, host_flags):
        self.c_contiguous = host_flags.c_contiguous
        self.f_contiguous = host_flags.f_contiguous
        self.owndata = host_flags.owndata

    def __getitem__(self, name):
        return {'C_CONTIGUOUS': self.c_contiguous, 'F_CONTIGUOUS': self.f_contiguous,
                'OWNDATA': self.owndata}[name]


class EmulatedArray:
    """An array of the emulated device (``cupy.ndarray``'s interface over host memory).

    Args:
        shape: the shape of the new, uninitialised array.
        dtype: its dtype.
        order: ``'C'`` or ``'F'``.
    """

    __slots__ = ('_host', '__weakref__')
    __hash__ = None
    __array_priority__ = 100  # CuPy's

    def __init__(self, shape, dtype=float, order='C'):
        self._host = numpy.empty(shape, dtype, order)

    @classmethod
    def from_host_memory(cls, host: numpy.ndarray) -> EmulatedArray:
        """The device array whose memory is the NumPy array ``host`` (no copy)."""
        array = cls.__new__(cls)
        array._host = host
        return array

    def host_memory(self) -> numpy.ndarray:
        """The NumPy array that holds this array's memory (no copy): for memory pools only,
        as CuPy's arrays have no such thing."""
        return self._host

    # --- CuPy's transfers ------------------------------------------------------------------
    def get(self, stream=None, order='C', out=None, blocking=True) -> numpy.ndarray:
        """A copy on the host (``cupy.ndarray.get``)."""
        if out is not None:
            out[...] = self._host
            return out
        return numpy.array(self._host, order=order, copy=True)

    def set(self, arr, stream=None) -> None:
        """Copies the host array ``arr`` into this array (``cupy.ndarray.set``)."""
        if not isinstance(arr, numpy.ndarray):
            raise TypeError(f'set: only numpy.ndarray can be set, got {type(arr).__name__}')
        self._host[...] = arr

    def __array__(self, dtype=None, copy=None):
        cupy_namespace.refuse(TypeError, _IMPLICIT_CONVERSION)

    # --- attributes and methods ------------------------------------------------------------
    def __getattr__(self, name):
        if name.startswith('__'):  # NumPy's probes (__array_interface__, ...)
            raise AttributeError(name)
        if not cupy_namespace.has_attribute('cupy.ndarray', name):
            # Not a refusal: duck typing (getattr(x, 'array', x)) probes arrays as it probes
            # CuPy's, and takes the same path.
            raise AttributeError(f"'cupy.ndarray' object has no attribute {name!r} (CuPy "
                                 f'{cupy_namespace.CUPY_VERSION})')
        if name in _HOST_ATTRIBUTES:
            return getattr(self._host, name)
        if name in _ARRAY_ATTRIBUTES:
            return to_device(getattr(self._host, name))
        if name == 'flags':
            return Flags(self._host.flags)
        if name == 'base':
            base = self._host.base
            return self.from_host_memory(base) if isinstance(base, numpy.ndarray) else None
        method = getattr(self._host, name, None)
        if not callable(method):
            raise AttributeError(f'cupy.ndarray.{name} is not emulated by the emulated device')
        return _Method(name, method)

    def view(self, dtype=None, type=None):
        cupy_namespace.check_call('cupy.ndarray.view', (dtype, type), {})
        if type is not None:
            raise TypeError('view: the emulated device has no array subclasses')
        return self.from_host_memory(self._host.view(dtype) if dtype is not None
                                     else self._host.view())

    # --- indexing and iteration ------------------------------------------------------------
    def __getitem__(self, key):
        return to_device(self._host[to_host_args(key)])

    def __setitem__(self, key, value):
        reject_host_arrays('__setitem__', (value,))
        self._host[to_host_args(key)] = to_host_args(value)

    def __len__(self):
        return len(self._host)

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError('iteration over a 0-d array')
        return (self[i] for i in range(len(self)))

    # --- host scalars (CuPy copies to the host and converts as NumPy does; it has no
    # __index__, so a device array is never a Python index) ---------------------------------
    def __bool__(self):
        return bool(self._host)

    def __float__(self):
        return float(self._host)

    def __int__(self):
        return int(self._host)

    def __complex__(self):
        return complex(self._host)

    def __format__(self, spec):
        return format(self._host, spec)

    def __repr__(self):
        return 'emulated_' + repr(self._host)

    def __str__(self):
        return str(self._host)

    # --- copies and pickling -----------------------------------------------------------------
    def __copy__(self):
        return self.from_host_memory(self._host.copy())

    def __deepcopy__(self, memo):
        return self.from_host_memory(self._host.copy())

    def __reduce__(self):
        return EmulatedArray.from_host_memory, (self._host.copy(),)

    # --- NumPy's protocols: dispatch to what CuPy has ----------------------------------------
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        name = ufunc.__name__
        if cupy_namespace.kind('cupy', name) not in ('ufunc', 'function'):
            cupy_namespace.refuse(TypeError, f'{name}: CuPy has no such ufunc')
        if method == '__call__':
            check_ufunc_call(name, inputs, kwargs)
        elif cupy_namespace.has_attribute('cupy.ufunc', method):
            cupy_namespace.check_call(f'cupy.ufunc.{method}', inputs, kwargs)
        else:
            cupy_namespace.refuse(TypeError, f'{name}.{method}: CuPy ufuncs have no such method')
        # NumPy hands a host scalar on the left of an operator over as a 0-d array.
        arrays = tuple(x for x in inputs if not (is_host_array(x) and x.ndim == 0))
        out = kwargs.get('out', ())
        reject_host_arrays(name, arrays + (out if isinstance(out, tuple) else (out,)))
        result = getattr(ufunc, method)(*to_host_args(inputs), **to_host_args(kwargs))
        if 'out' in kwargs:
            return out[0] if isinstance(out, tuple) and len(out) == 1 else out
        return to_device(result)

    def __array_function__(self, func, types, args, kwargs):
        module = func.__module__.replace('numpy', 'cupy', 1)
        if cupy_namespace.kind(module, func.__name__) != 'function':
            cupy_namespace.refuse(TypeError, f'{module}.{func.__name__}: CuPy has no such '
                                  'function, so NumPy cannot dispatch it to the device')
        cupy_namespace.check_call(f'{module}.{func.__name__}', args, kwargs)
        if any(t is numpy.ndarray for t in types):
            refuse_mixing(func.__name__)
        return to_device(func(*to_host_args(args), **to_host_args(kwargs)))


def check_ufunc_call(name: str, inputs: tuple, kwargs: dict) -> None:
    """Refuses what CuPy's ufunc ``name`` refuses: inputs other than arrays and scalars (a
    list, say), and keywords other than CuPy's."""
    for x in inputs:
        if not isinstance(x, (EmulatedArray, numpy.ndarray, numpy.generic, numbers.Number)):
            cupy_namespace.refuse(TypeError, f'{name}: CuPy ufuncs take arrays and scalars, '
                                  f'not {type(x).__name__}')
    cupy_namespace.check_ufunc_call(name, kwargs)


def _should_use_reflected(x, y) -> bool:
    """CuPy's rule: an operator defers to ``y``'s reflected one when ``y`` opts out of ufuncs
    or, without ``__array_ufunc__``, has the higher ``__array_priority__``."""
    try:
        y_ufunc = y.__array_ufunc__
    except AttributeError:
        return getattr(x, '__array_priority__', 0) < getattr(y, '__array_priority__', 0)
    return y_ufunc is None


def _binary_operators(ufunc):
    def forward(self, other):
        return NotImplemented if _should_use_reflected(self, other) else ufunc(self, other)

    def reflected(self, other):
        return NotImplemented if _should_use_reflected(self, other) else ufunc(other, self)

    def in_place(self, other):
        ufunc(self, other, out=(self,))
        return self
    return forward, reflected, in_place


def _install_operators(cls) -> None:
    """Python's operators on ``cls``, through NumPy's ufuncs (hence ``__array_ufunc__``)."""
    for name, ufunc in (('lt', numpy.less), ('le', numpy.less_equal), ('eq', numpy.equal),
                        ('ne', numpy.not_equal), ('gt', numpy.greater),
                        ('ge', numpy.greater_equal)):
        setattr(cls, f'__{name}__', _binary_operators(ufunc)[0])
    for name, ufunc in (('add', numpy.add), ('sub', numpy.subtract), ('mul', numpy.multiply),
                        ('matmul', numpy.matmul), ('truediv', numpy.true_divide),
                        ('floordiv', numpy.floor_divide), ('mod', numpy.remainder),
                        ('pow', numpy.power), ('lshift', numpy.left_shift),
                        ('rshift', numpy.right_shift), ('and', numpy.bitwise_and),
                        ('xor', numpy.bitwise_xor), ('or', numpy.bitwise_or)):
        forward, reflected, in_place = _binary_operators(ufunc)
        setattr(cls, f'__{name}__', forward)
        setattr(cls, f'__r{name}__', reflected)
        setattr(cls, f'__i{name}__', in_place)
    for name, ufunc in (('neg', numpy.negative), ('pos', numpy.positive),
                        ('abs', numpy.absolute), ('invert', numpy.invert)):
        setattr(cls, f'__{name}__', _unary_operator(ufunc))


def _unary_operator(ufunc):
    def operator(self):
        return ufunc(self)
    return operator


_install_operators(EmulatedArray)


class _Method:
    """A method of ``cupy.ndarray``, checked against CuPy's signature, on the host array."""

    __slots__ = ('_name', '_method')

    def __init__(self, name, method):
        self._name = name
        self._method = method

    def __call__(self, *args, **kwargs):
        cupy_namespace.check_call(f'cupy.ndarray.{self._name}', args, kwargs)
        reject_host_arrays(self._name, args + tuple(kwargs.values()))
        result = self._method(*to_host_args(args), **to_host_args(kwargs))
        return result if self._name in _HOST_METHODS else to_device(result)


def is_host_array(x) -> bool:
    """Whether ``x`` is a NumPy array (an array of the host)."""
    return isinstance(x, numpy.ndarray)


def reject_host_arrays(where: str, candidates) -> None:
    """Refuses (:func:`refuse_mixing`) when a candidate is a host array, or a list or tuple holding
    one."""
    for x in candidates:
        if is_host_array(x) or (isinstance(x, (list, tuple)) and any(map(is_host_array, x))):
            refuse_mixing(where)


def to_host_args(obj):
    """Replaces device arrays by their host arrays (no copy), through tuples, lists and
    dicts."""
    if isinstance(obj, EmulatedArray):
        return obj._host
    if isinstance(obj, tuple):
        return tuple(to_host_args(o) for o in obj)
    if isinstance(obj, list):
        return [to_host_args(o) for o in obj]
    if isinstance(obj, dict):
        return {k: to_host_args(v) for k, v in obj.items()}
    return obj


def to_device(obj):
    """Turns results into device arrays: arrays are wrapped, host scalars become 0-d arrays,
    through tuples and lists."""
    if isinstance(obj, numpy.ndarray):
        return EmulatedArray.from_host_memory(obj)
    if isinstance(obj, numpy.generic):
        return EmulatedArray.from_host_memory(numpy.asarray(obj))
    if isinstance(obj, tuple):
        return tuple(to_device(o) for o in obj)
    if isinstance(obj, list):
        return [to_device(o) for o in obj]
    return obj
