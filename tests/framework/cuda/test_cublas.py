"""cuBLAS's products through ctypes (framework.cuda.cublas): how operands are described to
cuBLAS, products equal to CuPy's for every layout the static graph gives, clear errors, and a
product captured into a CUDA graph and replayed on new data."""

import numpy
import pytest

from framework.cuda import cublas
from framework.testing import attr


@pytest.mark.parametrize('array, expected', [
    (numpy.empty((3, 4), numpy.float32), (cublas._OP_N, 4)),
    (numpy.empty((4, 3), numpy.float32).T, (cublas._OP_T, 3)),
    (numpy.empty((3, 8), numpy.float32)[:, :4], (cublas._OP_N, 8)),
    (numpy.empty((8, 3), numpy.float64)[:4].T, (cublas._OP_T, 3)),
    (numpy.empty((1, 5), numpy.float32), (cublas._OP_N, 5)),
    (numpy.empty((5, 1), numpy.float32), (cublas._OP_N, 1)),
    (numpy.empty((3, 8), numpy.float32)[:, ::2], None),
    (numpy.empty((2, 3, 4), numpy.float32), (cublas._OP_N, 4)),
])
def test_operands_are_described_as_cublas_reads_them(array, expected):
    assert cublas._matrix(array) == expected


@pytest.mark.parametrize('shape, slicer, batch, expected', [
    ((3, 4), None, (5,), 0),
    ((5, 3, 4), None, (5,), 12),
    ((2, 5, 3, 4), None, (2, 5), 12),
    ((2, 10, 3, 4), (slice(None), slice(None, None, 2)), (2, 5), 24),
    ((2, 10, 3, 4), (slice(None), slice(None, 5)), (2, 5), None),
    ((4, 5, 3, 4), None, (2, 5), None),
    ((1, 5, 3, 4), None, (1, 5), 12),
])
def test_batch_strides_over_the_flattened_batch_axes(shape, slicer, batch, expected):
    array = numpy.empty(shape, numpy.float32)
    if slicer is not None:
        array = array[slicer]
    assert cublas._batch_stride(array, batch) == expected


def _case(name, rng, dtype):
    """(a, b, out) of a layout the static graph's products use."""
    def r(*shape):
        return rng.uniform(-1, 1, shape).astype(dtype)
    return {
        'matrix': (r(7, 5), r(5, 6), (7, 6)),
        'transposed-b': (r(7, 5), r(6, 5).T, (7, 6)),
        'transposed-a': (r(5, 7).T, r(5, 6), (7, 6)),
        'batched': (r(3, 7, 5), r(3, 5, 6), (3, 7, 6)),
        'shared-a': (r(7, 5), r(4, 5, 6), (4, 7, 6)),
        'shared-b': (r(2, 3, 7, 5), r(5, 6), (2, 3, 7, 6)),
        'strided-rows': (r(7, 9)[:, :5], r(5, 6), (7, 6)),
        'every-other-column': (r(7, 10)[:, ::2], r(5, 6), (7, 6)),
        'row-vector': (r(1, 5), r(5, 6), (1, 6)),
        'column': (r(7, 5), r(5, 1), (7, 1)),
    }[name]


@attr.gpu
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('name', ['matrix', 'transposed-b', 'transposed-a', 'batched',
                                  'shared-a', 'shared-b', 'strided-rows',
                                  'every-other-column', 'row-vector', 'column'])
def test_products_equal_cupys(name, dtype):
    import cupy
    a, b, shape = _case(name, numpy.random.RandomState(0), dtype)
    a, b = cupy.asarray(a), cupy.asarray(b)
    out = cupy.full(shape, numpy.nan, dtype)
    cublas.matmul(a, b, out)
    tol = {numpy.float16: 1e-2, numpy.float32: 1e-5, numpy.float64: 1e-12}[dtype]
    numpy.testing.assert_allclose(cupy.asnumpy(out), cupy.asnumpy(cupy.matmul(a, b)),
                                  rtol=tol, atol=tol)


@attr.gpu
def test_an_output_cublas_cannot_write_gets_the_product_copied_in():
    import cupy
    a = cupy.asarray(numpy.random.RandomState(1).uniform(-1, 1, (7, 5)).astype(numpy.float32))
    b = cupy.asarray(numpy.random.RandomState(2).uniform(-1, 1, (5, 6)).astype(numpy.float32))
    out = cupy.zeros((6, 7), numpy.float32).T
    cublas.matmul(a, b, out)
    numpy.testing.assert_allclose(cupy.asnumpy(out), cupy.asnumpy(a @ b), rtol=1e-5,
                                  atol=1e-6)


@attr.gpu
def test_an_empty_inner_axis_gives_zeros():
    import cupy
    out = cupy.full((3, 4), 7, numpy.float32)
    cublas.matmul(cupy.empty((3, 0), numpy.float32), cupy.empty((0, 4), numpy.float32), out)
    assert not cupy.asnumpy(out).any()


@attr.gpu
def test_mixed_dtypes_and_mismatched_shapes_are_named():
    import cupy
    a = cupy.ones((3, 4), numpy.float32)
    with pytest.raises(TypeError, match=r'one dtype .* but got float32, float64 and float32'):
        cublas.matmul(a, cupy.ones((4, 2), numpy.float64), cupy.empty((3, 2), numpy.float32))
    with pytest.raises(ValueError, match=r'cannot multiply a of shape \(3, 4\) by b of shape '
                                         r'\(5, 2\) into out of shape \(3, 2\)'):
        cublas.matmul(a, cupy.ones((5, 2), numpy.float32), cupy.empty((3, 2), numpy.float32))


@attr.gpu
def test_a_product_is_captured_into_a_cuda_graph_and_replayed_on_new_data():
    import cupy
    rng = numpy.random.RandomState(3)
    a = cupy.asarray(rng.uniform(-1, 1, (64, 32)).astype(numpy.float32))
    b = cupy.asarray(rng.uniform(-1, 1, (32, 16)).astype(numpy.float32))
    out = cupy.empty((64, 16), numpy.float32)
    stream = cupy.cuda.Stream(non_blocking=True)
    pool = cupy.cuda.MemoryPool()
    with cupy.cuda.using_allocator(pool.malloc), stream:
        cublas.matmul(a, b, out)
        stream.begin_capture()
        cublas.matmul(a, b, out)
        captured = stream.end_capture()
    a[...] = cupy.asarray(rng.uniform(-1, 1, (64, 32)).astype(numpy.float32))
    captured.launch()
    cupy.cuda.get_current_stream().synchronize()
    numpy.testing.assert_allclose(cupy.asnumpy(out), cupy.asnumpy(a @ b), rtol=1e-5,
                                  atol=1e-5)
