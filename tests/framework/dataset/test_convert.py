"""concat_examples, to_device, ConcatWithAsyncTransfer and the converter decorator."""

import numpy
import pytest

from framework import backend
from framework.dataset import (
    ConcatWithAsyncTransfer,
    Converter,
    concat_examples,
    converter,
    to_device,
)
from framework.testing.emulated_device import EmulatedArray, EmulatedDevice


def test_concat_tuples():
    xs, ts = concat_examples([([1, 2], 1), ([3, 4], 2), ([5, 6], 3)])
    numpy.testing.assert_array_equal(xs, [[1, 2], [3, 4], [5, 6]])
    numpy.testing.assert_array_equal(ts, [1, 2, 3])


def test_concat_keeps_the_dtype_and_adds_the_batch_axis():
    batch = [(numpy.zeros((2, 3), numpy.float16), numpy.int32(i)) for i in range(4)]
    xs, ts = concat_examples(batch)
    assert xs.shape == (4, 2, 3) and xs.dtype == numpy.float16
    assert ts.shape == (4,) and ts.dtype == numpy.int32


def test_concat_dicts_and_arrays():
    result = concat_examples([{'x': numpy.array([1, 2]), 'y': 0},
                              {'x': numpy.array([3, 4]), 'y': 1}])
    assert set(result) == {'x', 'y'}
    numpy.testing.assert_array_equal(result['x'], [[1, 2], [3, 4]])
    numpy.testing.assert_array_equal(concat_examples([numpy.ones(2), numpy.zeros(2)]),
                                     [[1, 1], [0, 0]])


def test_padding_scalar():
    xs, ts = concat_examples([(numpy.array([1, 2]), 0), (numpy.array([3]), 1),
                              (numpy.array([], numpy.int64), 2)], padding=100)
    numpy.testing.assert_array_equal(xs, [[1, 2], [3, 100], [100, 100]])
    numpy.testing.assert_array_equal(ts, [0, 1, 2])


def test_padding_per_item_and_2d():
    batch = [(numpy.ones((2, 1)), numpy.array([0])), (numpy.ones((1, 3)), numpy.array([], int))]
    xs, ts = concat_examples(batch, padding=(-1, 200))
    numpy.testing.assert_array_equal(xs, [[[1, -1, -1], [1, -1, -1]],
                                          [[1, 1, 1], [-1, -1, -1]]])
    numpy.testing.assert_array_equal(ts, [[0], [200]])
    result = concat_examples([{'a': numpy.ones(1)}, {'a': numpy.ones(2)}], padding={'a': 0})
    numpy.testing.assert_array_equal(result['a'], [[1, 0], [1, 1]])


def test_shape_mismatch_without_padding():
    with pytest.raises(ValueError, match='different shapes .* pass padding'):
        concat_examples([numpy.ones(2), numpy.ones(3)])
    with pytest.raises(ValueError, match='different numbers of dimensions'):
        concat_examples([numpy.ones(2), numpy.ones((2, 2))], padding=0)
    with pytest.raises(ValueError, match='batch is empty'):
        concat_examples([])


def test_device_transfer():
    device = EmulatedDevice()
    xs, ts = concat_examples([(numpy.ones(2), 0), (numpy.ones(1), 1)], device=device,
                             padding=0)
    assert isinstance(xs, EmulatedArray) and isinstance(ts, EmulatedArray)
    on_device = [device.send(numpy.array([1.0, 2.0])), device.send(numpy.array([3.0]))]
    padded = concat_examples(on_device, padding=0)
    assert isinstance(padded, EmulatedArray)
    numpy.testing.assert_array_equal(backend.to_cpu(padded), [[1, 2], [3, 0]])
    back = concat_examples(on_device[:1] * 2, device=-1)
    assert type(back) is numpy.ndarray
    assert to_device(None, xs) is xs
    assert type(to_device('@numpy', xs)) is numpy.ndarray


def test_converter_decorator_gives_a_device():
    seen = []

    @converter()
    def convert(batch, device):
        seen.append(device)
        return batch

    assert isinstance(convert, Converter)
    convert([1], None)
    convert([1], -1)
    convert([1], device='@numpy')
    assert seen[0] is None
    assert all(isinstance(d, backend.CpuDevice) for d in seen[1:])
    assert isinstance(concat_examples, Converter)
    with pytest.raises(TypeError, match='can only wrap a callable'):
        converter()(3)


_BATCHES = [
    [(numpy.array([1, 2]), 0), (numpy.array([3]), 1)],
    [{'x': numpy.array([1.0, 2.0]), 'y': 0}, {'x': numpy.array([3.0]), 'y': 1}],
    [numpy.array([1, 2, 3]), numpy.array([4])],
]


@pytest.mark.parametrize('batch', _BATCHES, ids=['tuples', 'dicts', 'arrays'])
@pytest.mark.parametrize('device', [None, -1, '@numpy'])
def test_concat_with_async_transfer_on_the_cpu_is_concat_examples(batch, device):
    expected = concat_examples(batch, device, padding=-1)
    actual = ConcatWithAsyncTransfer()(batch, device, padding=-1)
    assert type(actual) is type(expected)
    for a, e in zip(*(list(r.values()) if isinstance(r, dict) else
                      list(r) if isinstance(r, tuple) else [r] for r in (actual, expected))):
        assert type(a) is numpy.ndarray
        numpy.testing.assert_array_equal(a, e)


class _Stream:
    def __init__(self):
        self.events = []

    def __enter__(self):
        self.events.append('enter')

    def __exit__(self, *exc):
        self.events.append('exit')

    def synchronize(self):
        self.events.append('synchronize')


class _FakeGpu(backend.GpuDevice):
    """A GPU device whose arrays are NumPy's (no CuPy needed), to follow the transfer."""

    def __init__(self, stream):
        self.device_id = 0
        self.sent = []
        self.xp = type('cupy', (), {'cuda': type('cuda', (), {
            'get_current_stream': staticmethod(lambda: stream)})})

    def send(self, x):
        self.sent.append(x)
        return x


@pytest.mark.parametrize('own_stream', [False, True])
def test_concat_with_async_transfer_sends_on_the_stream_and_waits(own_stream):
    stream = _Stream()
    device = _FakeGpu(None if own_stream else stream)
    convert = ConcatWithAsyncTransfer(stream=stream if own_stream else None)
    xs, ts = convert([(numpy.array([1, 2]), 0), (numpy.array([3, 4]), 1)], device)
    numpy.testing.assert_array_equal(xs, [[1, 2], [3, 4]])
    assert len(device.sent) == 1 and stream.events == ['enter', 'exit', 'synchronize']
