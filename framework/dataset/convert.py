"""Converters: from a list of examples to batched arrays on a device (``concat_examples``)."""

from __future__ import annotations

from collections.abc import Callable

import numpy

from framework import backend


class Converter:
    """The base class of converters.

    A converter is called as ``converter(batch, device)`` with a batch from an iterator and a
    :class:`~framework.backend.Device` (or None), and returns the batch ready for the model.
    :func:`converter` turns a function into one.
    """

    def __call__(self, batch, device):
        raise NotImplementedError('Converter: a concrete converter must implement __call__')


class _FunctionConverter(Converter):
    """A converter calling a function, with its ``device`` argument made a Device."""

    def __init__(self, function: Callable):
        if not callable(function):
            raise TypeError(f'converter: can only wrap a callable, but got '
                            f'{type(function).__name__}')
        self.base_callable = function
        self.__doc__ = function.__doc__
        self.__name__ = getattr(function, '__name__', type(function).__name__)

    def __call__(self, *args, **kwargs):
        if len(args) >= 2:
            args = (args[0], _get_device(args[1])) + args[2:]
        elif 'device' in kwargs:
            kwargs['device'] = _get_device(kwargs['device'])
        return self.base_callable(*args, **kwargs)


def converter() -> Callable[[Callable], Converter]:
    """A decorator that makes a converter of a function ``f(batch, device, ...)``.

    The converter accepts any device specifier (``None``, an int as in Chainer: negative for
    the CPU, ``n`` for GPU ``n``; a name such as ``'@numpy'``; a Device) and hands the
    function a :class:`~framework.backend.Device`, or None.
    """
    return _FunctionConverter


def _get_device(device_spec):
    return None if device_spec is None else backend.get_device(device_spec)


def to_device(device, x):
    """Sends ``x`` (an array, or a nested tuple/list/dict of them) to ``device``.

    Args:
        device: a device specifier (see :func:`framework.backend.get_device`); None leaves
            ``x`` where it is.
        x: the array(s).

    Returns:
        The array(s) on ``device``.
    """
    device = _get_device(device)
    return x if device is None else device.send(x)


@converter()
def concat_examples(batch, device=None, padding=None):
    """Stacks a list of examples into batched arrays ("array of tuples" to "tuple of arrays").

    When each example is a tuple ``(x, t)``, the result is ``(xs, ts)`` with the ``x`` of
    every example stacked along a new first axis; a dict example gives a dict of stacked
    arrays; an array (or scalar) example gives one stacked array. Python scalars and lists
    become NumPy arrays first. The arrays are stacked on the device of the first one and then
    sent to ``device``.

    With ``padding``, arrays of different shapes are placed at the origin of an array of the
    smallest shape that holds them all, the rest being filled with ``padding``::

        concat_examples([(numpy.array([1, 2]), 0), (numpy.array([3]), 1)], padding=-1)
        # (array([[ 1,  2], [ 3, -1]]), array([0, 1]))

    Args:
        batch (list): the examples, all of the same structure.
        device: where to send the arrays (see :func:`to_device`); None leaves them where they
            are.
        padding: None (shapes must match), a scalar, or a tuple (tuple examples) or dict (dict
            examples) of per-item padding values.

    Returns:
        An array, a tuple of arrays or a dict of arrays, following the examples. An array of
        the batch has shape ``(B,) + S`` where ``S`` is the common (or, with padding, the
        largest) shape and keeps the dtype of the first example's array.
    """
    if len(batch) == 0:
        raise ValueError('concat_examples: batch is empty')
    first = batch[0]
    if isinstance(first, tuple):
        if not isinstance(padding, tuple):
            padding = (padding,) * len(first)
        return tuple(to_device(device, _concat_arrays([example[i] for example in batch],
                                                      padding[i], f'item {i}'))
                     for i in range(len(first)))
    if isinstance(first, dict):
        if not isinstance(padding, dict):
            padding = dict.fromkeys(first, padding)
        return {key: to_device(device, _concat_arrays([example[key] for example in batch],
                                                      padding[key], f'key {key!r}'))
                for key in first}
    return to_device(device, _concat_arrays(batch, padding, 'the examples'))


def _concat_arrays(arrays: list, padding, what: str):
    if not backend.is_array(arrays[0]):
        arrays = [numpy.asarray(a) for a in arrays]
    device = backend.get_device_from_array(arrays[0])
    shapes = {a.shape for a in arrays}
    with device.scope():
        if padding is None:
            if len(shapes) > 1:
                raise ValueError(f'concat_examples: the arrays of {what} have different shapes '
                                 f'{sorted(shapes)}; pass padding to pad them to one shape')
            return device.xp.stack(arrays)
        if len({len(s) for s in shapes}) > 1:
            raise ValueError(f'concat_examples: the arrays of {what} have different numbers of '
                             f'dimensions {sorted(shapes)}; padding cannot reconcile them')
        shape = tuple(numpy.max([a.shape for a in arrays], axis=0).tolist())
        result = device.xp.full((len(arrays),) + shape, padding, dtype=arrays[0].dtype)
        for i, array in enumerate(arrays):
            result[(i,) + tuple(slice(n) for n in array.shape)] = array
        return result


class ConcatWithAsyncTransfer(Converter):
    """Chainer's converter that stacks examples as :func:`concat_examples` does and sends the
    arrays to a GPU on a CUDA stream.

    The arrays are stacked in host memory and sent on ``stream`` (CuPy's current stream when
    None), which is waited for: the batch is on the device when the call returns. Chainer
    overlaps the transfer with the computation of the previous batch through pinned memory;
    the result is the same. On the CPU (``device`` None, negative or a CPU device) it is
    :func:`concat_examples`.

    Args:
        stream (cupy.cuda.Stream): the stream of the transfers; None for the current one.
        compute_stream (cupy.cuda.Stream): Chainer's stream of the computation, with which
            it synchronizes; accepted and not needed here, as the transfer is waited for.
    """

    def __init__(self, stream=None, compute_stream=None):
        self.stream = stream
        self.compute_stream = compute_stream

    def __call__(self, batch, device=None, padding=None):
        """Stacks ``batch`` and sends it to ``device`` (see :func:`concat_examples` for the
        arguments and the result)."""
        device = _get_device(device)
        host = concat_examples(batch, None, padding)
        if not isinstance(device, backend.GpuDevice):
            return to_device(device, host)
        stream = self.stream if self.stream is not None else device.xp.cuda.get_current_stream()
        with stream:
            moved = to_device(device, host)
        stream.synchronize()
        return moved
