import gc
import itertools
import threading
import warnings
import weakref

import numpy
import pytest

from vision.utils import apply_to_iterator

N_SAMPLE = 5


def _batches(samples, batchsize, repeat=False):
    """Batches as a non-repeating or repeating SerialIterator gives them."""
    def generate():
        for _ in itertools.count():
            yield from (list(samples[i:i + batchsize]) for i in range(0, len(samples), batchsize))
            if not repeat:
                return
    return generate()


def _images(rng, n=N_SAMPLE):
    return [rng.integers(0, 256, (3,) + tuple(rng.integers(8, 16, 2))) for _ in range(n)]


def _single_output(*in_values):
    return [sum(float(v.sum()) for v in values) for values in zip(*in_values)]


def _three_outputs(*in_values):
    sums = _single_output(*in_values)
    return ([numpy.full((2, 4), s) for s in sums], [numpy.full(2, s + 1) for s in sums],
            [s * 2 for s in sums])


@pytest.mark.parametrize('n_input', [1, 2])
@pytest.mark.parametrize('multi_out', [False, True])
@pytest.mark.parametrize('with_rest', [False, True])
@pytest.mark.parametrize('with_hook', [False, True])
def test_values(n_input, multi_out, with_rest, with_hook):
    rng = numpy.random.default_rng(0)
    in_expect = tuple(_images(rng) for _ in range(n_input))
    rest_expect = (['a', 'bc', 'def', 'ghij', 'klmno'], [0, 1, 2, 3, 4],
                   [rng.uniform(size=10) for _ in range(N_SAMPLE)]) if with_rest else ()
    samples = list(zip(*(in_expect + rest_expect)))
    if n_input == 1 and not with_rest:
        samples = [sample[0] for sample in samples]  # bare values, not tuples
    func = _three_outputs if multi_out else _single_output
    n_output = 3 if multi_out else 1

    seen = []

    def hook(in_values, out_values, rest_values):
        n = len(in_values[0])
        assert len(in_values) == n_input and all(len(v) == n for v in in_values)
        assert len(out_values) == n_output and all(len(v) == n for v in out_values)
        assert len(rest_values) == len(rest_expect) and all(len(v) == n for v in rest_values)
        seen.append(n)

    in_values, out_values, rest_values = apply_to_iterator(
        func, _batches(samples, 2), n_input=n_input, hook=hook if with_hook else None)

    assert len(in_values) == n_input and len(out_values) == n_output
    assert len(rest_values) == len(rest_expect)
    for values, expect in zip(in_values, in_expect):
        got = list(values)
        assert len(got) == N_SAMPLE
        for a, b in zip(got, expect):
            numpy.testing.assert_equal(a, b)
    out_expect = func(*in_expect)
    out_expect = out_expect if multi_out else (out_expect,)
    for values, expect in zip(out_values, out_expect):
        got = list(values)
        assert len(got) == N_SAMPLE
        for a, b in zip(got, expect):
            numpy.testing.assert_equal(a, b)
    for values, expect in zip(rest_values, rest_expect):
        for a, b in zip(list(values), expect):
            numpy.testing.assert_equal(a, b)
    assert seen == ([2, 2, 1] if with_hook else [])


def _counting(batches, drawn):
    for batch in batches:
        drawn.append(len(batch))
        yield batch


def test_laziness():
    drawn, calls = [], []

    def func(imgs):
        calls.append(len(imgs))
        return [img.mean() for img in imgs]

    samples = _images(numpy.random.default_rng(0), 6)
    in_values, out_values, rest_values = apply_to_iterator(
        func, _counting(_batches(samples, 2), drawn))
    # The first batch is drawn and computed at the call; nothing else.
    assert drawn == [2] and calls == [2]
    assert rest_values == ()
    imgs, = in_values
    preds, = out_values
    next(imgs), next(imgs)
    assert drawn == [2] and calls == [2]
    next(imgs)
    assert drawn == [2, 2] and calls == [2, 2]
    assert [next(preds) for _ in range(3)] == [s.mean() for s in samples[:3]]
    assert drawn == [2, 2]
    assert list(preds) == [s.mean() for s in samples[3:]]
    assert drawn == [2, 2, 2] and calls == [2, 2, 2]


def test_infinite_iterator():
    samples = _images(numpy.random.default_rng(0))
    in_values, out_values, _ = apply_to_iterator(
        lambda imgs: [img.shape for img in imgs], _batches(samples, 2, repeat=True))
    for i in range(10):
        numpy.testing.assert_equal(next(in_values[0]), samples[i % N_SAMPLE])
    assert [next(out_values[0]) for _ in range(10)] == [s.shape for s in samples] * 2


def test_deleted_inputs_are_not_kept():
    class Img:
        pass

    refs = []

    def samples():
        for i in itertools.count():
            img = Img()
            refs.append(weakref.ref(img))
            yield [(img, i)]

    in_values, out_values, rest_values = apply_to_iterator(
        lambda imgs: [0] * len(imgs), samples())
    del in_values
    gc.collect()
    for _ in range(10):
        next(out_values[0])
    assert [next(rest_values[0]) for _ in range(10)] == list(range(10))
    gc.collect()
    # Only the batch being processed is still referenced.
    assert len(refs) == 10 and all(ref() is None for ref in refs[:-1])


def test_accepts_a_list_of_batches():
    in_values, out_values, _ = apply_to_iterator(lambda x: [v * 2 for v in x], [[1, 2], [3]])
    assert list(in_values[0]) == [1, 2, 3] and list(out_values[0]) == [2, 4, 6]


def test_empty_batches_are_skipped():
    in_values, out_values, _ = apply_to_iterator(lambda x: [-v for v in x], [[], [1], [], [2]])
    assert list(out_values[0]) == [-1, -2]


def test_empty_iterator():
    with pytest.raises(ValueError, match='apply_to_iterator: iterator must yield at least one'):
        apply_to_iterator(lambda x: x, iter([]))


def test_short_sample():
    with pytest.raises(ValueError, match=r'each sample must hold at least n_input \(2\) values, '
                                         'but got a sample of 1'):
        apply_to_iterator(lambda a, b: a, [[(1,)]], n_input=2)


def test_wrong_number_of_outputs():
    with pytest.raises(ValueError, match='func must return one value per sample, but output 1 '
                                         'has 1 values for 2 samples'):
        apply_to_iterator(lambda x: (x, x[:1]), [[1, 2]])


@pytest.mark.parametrize('n_input', [0, 1.5, True])
def test_bad_n_input(n_input):
    with pytest.raises(ValueError, match='n_input must be a positive int'):
        apply_to_iterator(lambda x: x, [[1]], n_input=n_input)


@pytest.mark.parametrize('size, batchsize', [(2, 4), (2, 3), (3, 2)])
def test_with_communicator(fake_comms, size, batchsize):
    rng = numpy.random.default_rng(0)
    imgs = _images(rng, 7)
    samples = [(img, i) for i, img in enumerate(imgs)]
    comms = fake_comms(size)
    chunk_sizes = [[] for _ in range(size)]
    results = [None] * size
    hook_calls = []

    def func_of(rank):
        def func(imgs):
            chunk_sizes[rank].append(len(imgs))
            return [img.sum() for img in imgs], [rank] * len(imgs)
        return func

    def worker(rank):
        results[rank] = apply_to_iterator(func_of(rank), None, comm=comms[rank])

    threads = [threading.Thread(target=worker, args=(rank,)) for rank in range(1, size)]
    for thread in threads:
        thread.start()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        in_values, out_values, rest_values = apply_to_iterator(
            func_of(0), _batches(samples, batchsize), comm=comms[0],
            hook=lambda i, o, r: hook_calls.append(len(i[0])))
        sums, ranks = (list(v) for v in out_values)
    for thread in threads:
        thread.join(timeout=10)

    assert results[1:] == [None] * (size - 1)
    assert sums == [img.sum() for img in imgs]
    assert list(rest_values[0]) == list(range(7))
    for got, img in zip(in_values[0], imgs):
        numpy.testing.assert_equal(got, img)
    # Contiguous chunks; the first len(batch) % size ranks take one sample more.
    batch_sizes = [len(samples[i:i + batchsize]) for i in range(0, 7, batchsize)]
    for rank in range(size):
        expect = [b // size + (rank < b % size) for b in batch_sizes]
        assert chunk_sizes[rank] == [n for n in expect if n]
    assert ranks == [r for b in batch_sizes for r in range(size)
                     for _ in range(b // size + (r < b % size))]
    assert hook_calls == batch_sizes
    # Only the first batch is checked: the last one may be short.
    n_warnings = sum(issubclass(w.category, RuntimeWarning) for w in caught)
    assert n_warnings == (1 if batchsize % size else 0)
