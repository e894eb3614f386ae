"""Iterator benchmark: examples per second of the iterators on a decode-heavy dataset.

PNG images are written to a temporary directory; each example is read from disk and decoded
with Pillow, converted to a float32 ``(3, H, W)`` array and flipped at random, as a detection
or classification loader does::

    python bench/iterators.py [--images 256] [--size 320] [--batch-size 32] [--batches 24]
                              [--processes 1 2 4 8] [--step-ms 0]

Timed: SerialIterator, MultithreadIterator (as many threads as the largest process count, and
with ``engine=`` the threaded dependency engine, which reads one batch ahead) and
MultiprocessIterator with each process count. The first batch (worker start-up, shared memory
sizing) is not timed. ``--step-ms`` makes the consumer wait that long after each batch, as a
training step that releases the GIL (BLAS, a GPU) would, so that prefetching can overlap it.
The speed-up column is the iterator's rate / SerialIterator's.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import numpy
from PIL import Image

from framework.dataset import DatasetMixin
from framework.engine import ThreadedEngine
from framework.iterators import MultiprocessIterator, MultithreadIterator, SerialIterator


class PngDataset(DatasetMixin):
    """Images decoded from PNG files at each read, flipped at random."""

    def __init__(self, paths):
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def get_example(self, i):
        with Image.open(self.paths[i]) as image:
            img = numpy.asarray(image.convert('RGB'), dtype=numpy.float32).transpose(2, 0, 1)
        if numpy.random.rand() < 0.5:
            img = img[:, :, ::-1]
        return numpy.ascontiguousarray(img), numpy.int32(i % 10)


def write_images(directory: str, n: int, size: int) -> list[str]:
    """Writes ``n`` PNG images of ``size`` x ``size`` pixels (smooth patterns plus noise)."""
    rng = numpy.random.RandomState(0)
    y, x = numpy.mgrid[:size, :size]
    paths = []
    for i in range(n):
        base = numpy.stack([numpy.sin(x / (5 + i % 7)), numpy.cos(y / (3 + i % 5)),
                            numpy.sin((x + y) / 11)], axis=-1)
        pixels = (base + 1) * 100 + rng.randint(0, 50, (size, size, 3))
        path = os.path.join(directory, f'{i:05d}.png')
        Image.fromarray(pixels.astype(numpy.uint8)).save(path)
        paths.append(path)
    return paths


def rate(iterator, n_batches: int, batch_size: int, step_seconds: float) -> float:
    """Examples per second over ``n_batches`` batches, after a first untimed one, the consumer
    waiting ``step_seconds`` after each batch."""
    with iterator:
        next(iterator)
        start = time.perf_counter()
        for _ in range(n_batches):
            next(iterator)
            time.sleep(step_seconds)
        return n_batches * batch_size / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--images', type=int, default=256)
    parser.add_argument('--size', type=int, default=320)
    parser.add_argument('--batch-size', type=int, default=32)
    parser.add_argument('--batches', type=int, default=24)
    parser.add_argument('--processes', type=int, nargs='+', default=[1, 2, 4, 8])
    parser.add_argument('--step-ms', type=float, default=0.0,
                        help='how long the consumer waits after each batch')
    args = parser.parse_args()
    timing = (args.batches, args.batch_size, args.step_ms / 1000)
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count()
    with tempfile.TemporaryDirectory() as directory:
        dataset = PngDataset(write_images(directory, args.images, args.size))
        kwargs = {'batch_size': args.batch_size, 'seed': 0}
        rows = [('SerialIterator', rate(SerialIterator(dataset, **kwargs), *timing))]
        n_threads = max(args.processes)
        rows.append((f'MultithreadIterator n_threads={n_threads}',
                     rate(MultithreadIterator(dataset, n_threads=n_threads, **kwargs),
                          *timing)))
        engine = ThreadedEngine()
        rows.append(('MultithreadIterator engine=threaded',
                     rate(MultithreadIterator(dataset, engine=engine, **kwargs), *timing)))
        engine.shutdown()
        for n in args.processes:
            rows.append((f'MultiprocessIterator n_processes={n}',
                         rate(MultiprocessIterator(dataset, n_processes=n, n_prefetch=2,
                                                   **kwargs), *timing)))
    print(f'{args.images} PNG images of {args.size}x{args.size}, batch {args.batch_size}, '
          f'{args.batches} batches timed, consumer step {args.step_ms:g} ms, {cpus} CPUs')
    print(f'{"iterator":<40} {"examples/s":>12} {"speed-up":>9}')
    serial = rows[0][1]
    for name, value in rows:
        print(f'{name:<40} {value:12.1f} {value / serial:9.2f}')


if __name__ == '__main__':
    main()
